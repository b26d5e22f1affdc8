#!/usr/bin/env python3
"""One style sheet for the release bundle (issue 13 § first visit). Run by
scripts/post_build.sh after the split step:

    bundle_css.py STAGING_DIR

Trunk copies (and, for release builds, minifies) every `<link data-trunk rel="css">` of
index.html as a file of its own. This step concatenates them, in the order index.html
lists them, into one `kontor-<16 hex>.css` (the content hash the server caches as
immutable), replaces their `<link>` elements by one with the new name and its
`integrity`, and removes the single files: one request and one compression context
instead of eighteen. The sheets use no `url()` or `@import`, so nothing inside them
refers to their old names (the script refuses sheets that do).
"""

import base64
import hashlib
import pathlib
import re
import sys

LINK = re.compile(r"<link\b[^>]*>")
HREF = re.compile(r"""href=(?:"([^"]+)"|'([^']+)'|([^\s>]+))""")


def main() -> None:
    staging = pathlib.Path(sys.argv[1])
    index = staging / "index.html"
    html = index.read_text()
    links = []
    for match in LINK.finditer(html):
        tag = match.group(0)
        if "stylesheet" not in tag:
            continue
        href = HREF.search(tag)
        if not href:
            sys.exit(f"bundle_css: a stylesheet link without href: {tag}")
        links.append((match.start(), match.end(), next(g for g in href.groups() if g)))
    if not links:
        sys.exit("bundle_css: index.html links no style sheet")
    sheets = []
    for _, _, href in links:
        path = staging / href.rsplit("/", 1)[-1]
        text = path.read_text()
        if "url(" in text or "@import" in text:
            sys.exit(f"bundle_css: {path.name} refers to other files; keep it separate")
        sheets.append((path, text))
    css = "\n".join(text.rstrip() for _, text in sheets) + "\n"
    data = css.encode()
    name = f"kontor-{hashlib.sha256(data).hexdigest()[:16]}.css"
    (staging / name).write_bytes(data)
    prefix = links[0][2].rsplit("/", 1)[0] + "/" if "/" in links[0][2] else ""
    integrity = "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode()
    tag = f'<link rel="stylesheet" href="{prefix}{name}" integrity="{integrity}">'
    # Replace the first link by the bundle and drop the others (from the end, so the
    # offsets stay valid).
    for i, (start, end, _) in reversed(list(enumerate(links))):
        html = html[:start] + (tag if i == 0 else "") + html[end:]
    index.write_text(html)
    for path, _ in sheets:
        path.unlink()
    print(f"bundle_css: {len(sheets)} style sheets -> {name} ({len(data)} bytes)")


if __name__ == "__main__":
    main()
