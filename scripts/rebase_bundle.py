#!/usr/bin/env python3
"""Puts a built release bundle under another URL prefix without building it again (issue 35
§ The test command stays fast).

`trunk build --release --public-url /kontor/` differs from the bundle built for `/` in two
files only: `index.html` (its `<base href>` and every URL in it) and the loader
`boot-<hash>.js` (the two URLs it imports); the wasm, the glue, the route chunks (found
relative to the glue's own URL), the style sheet and the icons are the same bytes. This
script copies SRC to DEST (hard links where the file system allows, so it costs no disk),
rewrites those two files for PREFIX, names the new loader by its own content hash, sets its
`integrity` in index.html, writes the service worker again (its list names the loader,
scripts/service_worker.py) and the brotli/gzip copies of the three (scripts/precompress.sh).

Usage: rebase_bundle.py SRC PREFIX DEST      e.g. rebase_bundle.py dist /kontor/ /tmp/dist-kontor

Errors (exit 1, nothing half-written in DEST's place): SRC is not a release bundle with one
loader, PREFIX does not start and end with `/` or holds characters other than
`A–Z a–z 0–9 - _ . /`.
"""

import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

PREFIX_OK = re.compile(r"^/(?:[A-Za-z0-9._-]+/)*$")
LOADER = re.compile(r"^boot-[0-9a-f]{16}\.js$")


def copy_tree(src: Path, dest: Path) -> None:
    """Copies `src` to `dest`, hard-linking files when possible."""
    try:
        shutil.copytree(src, dest, copy_function=os.link)
    except OSError:
        shutil.rmtree(dest, ignore_errors=True)
        shutil.copytree(src, dest)


def compress(path: Path) -> None:
    subprocess.run(["gzip", "-9", "-n", "-k", "-f", str(path)], check=True)
    subprocess.run(["brotli", "-q", "11", "-k", "-f", str(path)], check=True)


def main() -> None:
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    src, prefix, dest = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    if not PREFIX_OK.match(prefix):
        sys.exit(f"rebase_bundle: the prefix must look like /kontor/, not {prefix!r}")
    html = (src / "index.html").read_text()
    base = re.search(r"<base href=\"?([^\" >]*)", html)
    if not base:
        sys.exit("rebase_bundle: index.html has no <base href>: not a release bundle")
    old = base.group(1)
    loaders = [p for p in src.iterdir() if LOADER.match(p.name)]
    if len(loaders) != 1:
        sys.exit(f"rebase_bundle: expected one loader boot-….js in {src}, found {len(loaders)}")
    loader = loaders[0]
    text = loader.read_text()
    new_text = text.replace(f"'{old}", f"'{prefix}")
    if new_text.count(f"'{prefix}") != 2:
        sys.exit("rebase_bundle: the loader does not import the two files expected")
    data = new_text.encode()
    new_name = f"boot-{hashlib.sha256(data).hexdigest()[:16]}.js"
    sri = "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode()

    # Every root-relative URL in an attribute, and the loader's name and integrity.
    def rebase(match: re.Match) -> str:
        attr, quote, path = match.group(1), match.group(2), match.group(3)
        return f"{attr}={quote}{prefix}{path[len(old):]}"

    new_html = re.sub(
        r"\b(src|href)=(\"?)(" + re.escape(old) + r"[^\" >]*)", rebase, html
    )
    new_html = new_html.replace(loader.name, new_name)
    new_html, swapped = re.subn(
        r'(src="[^"]*' + re.escape(new_name) + r'" integrity=")[^"]*"',
        lambda m: m.group(1) + sri + '"',
        new_html,
    )
    if swapped != 1:
        sys.exit("rebase_bundle: the loader's <script> was not found in index.html")

    staging = dest.with_name(dest.name + ".rebasing")
    shutil.rmtree(staging, ignore_errors=True)
    copy_tree(src, staging)
    for p in [staging / "index.html", *staging.glob(loader.name + "*")]:
        p.unlink()
    for p in staging.glob("index.html.*"):
        p.unlink()
    (staging / "index.html").write_text(new_html)
    (staging / new_name).write_bytes(data)
    compress(staging / "index.html")
    compress(staging / new_name)
    # The service worker lists the loader by name (issue 37): written again for this
    # bundle (service_worker.py replaces the hard-linked file, the source keeps its own).
    if (src / "sw.js").exists():
        for p in staging.glob("sw.js*"):
            p.unlink()
        subprocess.run(
            [sys.executable, str(Path(__file__).with_name("service_worker.py")), str(staging)],
            check=True,
        )
        compress(staging / "sw.js")
    shutil.rmtree(dest, ignore_errors=True)
    staging.rename(dest)
    print(f"rebase_bundle: {src} under {prefix} in {dest}")


if __name__ == "__main__":
    main()
