#!/usr/bin/env python3
"""Writes the release bundle's service worker (issue 37, docs/decisions.md § Offline).

Run by scripts/post_build.sh on trunk's staging directory after the bundle is split, the
loader extracted and the CSS bundled, before the compressed copies are made: writes
`sw.js` from the template `public/sw.js` with the list of every file of the bundle
(relative names, so the worker works under any prefix; the `.br`/`.gz` copies are the
server's business, not the worker's) and the release's version, the SHA-256 of every
file's name and content — a new release is a new worker, and only a new release.

Usage: service_worker.py STAGING_DIR
"""

import hashlib
import json
import sys
from pathlib import Path


def main() -> None:
    staging = Path(sys.argv[1])
    template = (Path(__file__).resolve().parent.parent / "public" / "sw.js").read_text()
    files = sorted(
        p.relative_to(staging).as_posix()
        for p in staging.rglob("*")
        if p.is_file() and p.suffix not in (".br", ".gz") and p.name != "sw.js"
    )
    if "index.html" not in files:
        sys.exit("service_worker: no index.html in the bundle")
    version = hashlib.sha256()
    for name in files:
        version.update(name.encode() + b"\0" + (staging / name).read_bytes() + b"\0")
    statements = {
        'const VERSION = "__VERSION__";': f"const VERSION = {json.dumps(version.hexdigest()[:16])};",
        "const SHELL = __SHELL__;": f"const SHELL = {json.dumps(files)};",
    }
    text = template
    for placeholder, value in statements.items():
        if text.count(placeholder) != 1:
            sys.exit(f"service_worker: the template must have {placeholder!r} once")
        text = text.replace(placeholder, value)
    target = staging / "sw.js"
    # A new file, never writing through a hard link (scripts/rebase_bundle.py links files).
    target.unlink(missing_ok=True)
    target.write_text(text)
    print(f"service_worker: sw.js precaches {len(files)} files (release {version.hexdigest()[:16]})")


if __name__ == "__main__":
    main()
