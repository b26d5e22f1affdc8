#!/usr/bin/env python3
"""Moves trunk's inline module loader out of index.html (issue 15 § 5).

The Content-Security-Policy allows no inline script (`script-src 'self'
'wasm-unsafe-eval'`), but trunk writes its loader (import the glue, instantiate the
wasm, announce the start) as an inline `<script type=module>`. This script, run by
scripts/post_build.sh on trunk's staging directory after the bundle is split, writes the
loader's text to `boot-<16 hex of its sha256>.js` beside index.html and puts
`<script type=module src=… integrity=sha384-…>` in its place, under the same `<base href>`
as every other file. A page with another inline script is an error: nothing may run
that the policy would block.

Usage: extract_loader.py STAGING_DIR
"""

import base64
import hashlib
import re
import sys
from pathlib import Path

INLINE = re.compile(r"<script(?P<attrs>[^>]*)>(?P<body>.*?)</script>", re.S)


def main() -> None:
    staging = Path(sys.argv[1])
    index = staging / "index.html"
    html = index.read_text()
    base = re.search(r"<base href=\"?([^\" >]*)", html)
    prefix = base.group(1) if base else "/"
    moved = 0

    def replace(match: re.Match) -> str:
        nonlocal moved
        attrs, body = match.group("attrs"), match.group("body")
        if "src=" in attrs:
            return match.group(0)
        if "module" not in attrs:
            sys.exit(f"extract_loader: an inline script other than trunk's loader: {body[:80]!r}")
        data = body.encode()
        name = f"boot-{hashlib.sha256(data).hexdigest()[:16]}.js"
        (staging / name).write_bytes(data)
        sri = "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode()
        moved += 1
        return f'<script type=module src="{prefix}{name}" integrity="{sri}"></script>'

    html = INLINE.sub(replace, html)
    if moved != 1:
        sys.exit(f"extract_loader: expected trunk's one inline loader, found {moved}")
    index.write_text(html)
    print(f"extract_loader: the loader is now a file ({moved} moved)")


if __name__ == "__main__":
    main()
