#!/usr/bin/env python3
"""Route chunks for the release bundle (issue 13 § Split the wasm by route; docs/decisions.md
§ Route chunks). Run by scripts/post_build.sh inside trunk's post_build hook:

    split_bundle.py STAGING_DIR RAW_WASM WORK_DIR

1. `wasm-split-cli` (wasm_split_cli_support 0.2.4, pinned in scripts/setup.sh) splits the
   raw cargo wasm (linked with --emit-relocs, see build.rs) at the lazy routes' split
   points into the main module, one `split_<chunk>.wasm` per chunk, shared `chunk_<n>.wasm`
   files and the loader `__wasm_split.js`.
2. `wasm-bindgen` (--keep-lld-exports: the loader needs the function table) and
   `wasm-opt -Oz` on every wasm file — through binaryen's JavaScript interface in two node
   processes (scripts/wasm_opt_batch.mjs, byte for byte what the command line writes, in
   seconds instead of one `wasm-opt` start per chunk); the glue and the loader are
   minified by terser.
3. Every file gets a content hash in its name (`<name>-<16 hex>`, what the server caches as
   immutable); the glue and the loader import each other, so they share one hash computed
   over both. References inside the loader, the glue and trunk's index.html (names and
   `integrity` values) are rewritten; trunk's unsplit js and wasm are removed.

Without split points in the raw wasm (e.g. KONTOR_SPLIT=0) trunk's wasm is only optimized.
"""

import base64
import concurrent.futures
import hashlib
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

WASM_OPT_FLAGS = [
    "-Oz",
    "--enable-bulk-memory",
    "--enable-nontrapping-float-to-int",
    "--enable-sign-ext",
    "--enable-mutable-globals",
]


def hex16(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def sri(data: bytes) -> str:
    return "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode()


def run(*cmd) -> None:
    subprocess.run([str(c) for c in cmd], check=True)


def replace_once(text: str, old: str, new: str, what: str) -> str:
    count = text.count(old)
    if count != 1:
        sys.exit(f"split_bundle: expected one {old!r} in {what}, found {count}")
    return text.replace(old, new)


def minify(source: str, what: str) -> str:
    """`source` minified by terser (npm, pinned in scripts/setup.sh): the glue and the
    loader are written after trunk's own minification step, so they get it here."""
    if shutil.which("terser") is None:
        sys.exit("split_bundle: terser is missing; run scripts/setup.sh")
    done = subprocess.run(
        ["terser", "--module", "--compress", "--mangle"],
        input=source, capture_output=True, text=True,
    )
    if done.returncode != 0:
        sys.exit(f"split_bundle: terser failed on {what}: {done.stderr}")
    return done.stdout


def optimize(path: pathlib.Path) -> None:
    run("wasm-opt", *WASM_OPT_FLAGS, path, "-o", path)


def binaryen_index_js() -> pathlib.Path | None:
    """The `index.js` of the npm binaryen whose `bin/wasm-opt` is the `wasm-opt` on PATH
    (scripts/setup.sh links it), or None for another wasm-opt (e.g. a native build)."""
    found = shutil.which("wasm-opt")
    if found is None or shutil.which("node") is None:
        return None
    index = pathlib.Path(found).resolve().parent.parent / "index.js"
    return index if index.is_file() else None


BATCH = pathlib.Path(__file__).resolve().parent / "wasm_opt_batch.mjs"


def start_batch(index: pathlib.Path, pairs: list[list[str]]) -> subprocess.Popen:
    """A node process running scripts/wasm_opt_batch.mjs on `pairs` ([input, output])."""
    worker = subprocess.Popen(["node", BATCH, index], stdin=subprocess.PIPE, text=True)
    worker.stdin.write(json.dumps(pairs))
    worker.stdin.close()
    return worker


def optimize_all(paths: list[pathlib.Path]) -> None:
    """`wasm-opt -Oz` on every file in place. With npm's binaryen: two node processes
    (the machine's two cores), each optimizing its half of the bytes in one process,
    after checking that the batch writes exactly what the command line writes for the
    smallest file; otherwise, or if they differ, one `wasm-opt` per file."""
    index = binaryen_index_js()
    if index is not None:
        smallest = min(paths, key=lambda p: p.stat().st_size)
        with tempfile.TemporaryDirectory() as scratch:
            by_cli = pathlib.Path(scratch) / "cli.wasm"
            by_batch = pathlib.Path(scratch) / "batch.wasm"
            run("wasm-opt", *WASM_OPT_FLAGS, smallest, "-o", by_cli)
            if start_batch(index, [[str(smallest), str(by_batch)]]).wait() != 0:
                sys.exit("split_bundle: optimizing the wasm files failed (see above)")
            same = by_cli.read_bytes() == by_batch.read_bytes()
        if same:
            halves: list[list[list[str]]] = [[], []]
            weight = [0, 0]
            for path in sorted(paths, key=lambda p: p.stat().st_size, reverse=True):
                lighter = weight.index(min(weight))
                halves[lighter].append([str(path), str(path)])
                weight[lighter] += path.stat().st_size
            workers = [start_batch(index, half) for half in halves if half]
            if any([worker.wait() != 0 for worker in workers]):
                sys.exit("split_bundle: optimizing the wasm files failed (see above)")
            return
        print("split_bundle: binaryen's interface writes other bytes than wasm-opt; "
              "optimizing one file at a time")
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(optimize, paths))


def main() -> None:
    staging, raw, work = (pathlib.Path(a) for a in sys.argv[1:4])
    index = staging / "index.html"
    html = index.read_text()
    trunk_js = [p for p in staging.glob("kontor-app-*.js")]
    trunk_wasm = [p for p in staging.glob("kontor-app-*_bg.wasm")]
    if len(trunk_js) != 1 or len(trunk_wasm) != 1:
        sys.exit(f"split_bundle: expected trunk's one js and wasm in {staging}")
    trunk_js, trunk_wasm = trunk_js[0], trunk_wasm[0]

    shutil.rmtree(work, ignore_errors=True)
    split = work / "split"
    bindgen = work / "bindgen"
    split.mkdir(parents=True)
    run("wasm-split-cli", raw, split, "--target", "web", "--out-name", "kontor-app")
    chunks = sorted(p for p in split.glob("*.wasm") if p.name != "kontor-app.wasm")
    if not chunks:
        # No split points: trunk's own (unoptimized, data-wasm-opt="0") output is kept.
        optimize(trunk_wasm)
        data = trunk_wasm.read_bytes()
        old = re.search(
            r'href="[^"]*' + re.escape(trunk_wasm.name) + r'"[^>]*integrity="([^"]+)"', html
        )
        if old:
            html = html.replace(old.group(1), sri(data))
        index.write_text(html)
        print("split_bundle: no split points; optimized the one module")
        return

    run(
        "wasm-bindgen", "--target", "web", "--keep-lld-exports", "--no-demangle",
        "--no-typescript", "--out-dir", bindgen, "--out-name", "kontor-app",
        split / "kontor-app.wasm",
    )
    main_wasm = bindgen / "kontor-app_bg.wasm"
    optimize_all([main_wasm, *chunks])

    loader = (split / "__wasm_split.js").read_text()
    sizes = []
    for chunk in chunks:
        data = chunk.read_bytes()
        name = f"{chunk.stem}-{hex16(data)}.wasm"
        (staging / name).write_bytes(data)
        loader = replace_once(loader, f'"./{chunk.name}"', f'"./{name}"', "__wasm_split.js")
        sizes.append((name, len(data)))

    main_data = main_wasm.read_bytes()
    main_name = f"kontor-app-{hex16(main_data)}_bg.wasm"
    (staging / main_name).write_bytes(main_data)

    glue = (bindgen / "kontor-app.js").read_text()
    pair = hex16((glue + "\0" + loader + "\0" + main_name).encode())
    js_name = f"kontor-app-{pair}.js"
    loader_name = f"__wasm_split-{pair}.js"
    # The glue imports the loader once per chunk module; the import object's keys
    # (`"./__wasm_split.js": importN`) are wasm module names and stay.
    if 'from "./__wasm_split.js"' not in glue:
        sys.exit("split_bundle: the glue does not import the loader")
    glue = glue.replace('from "./__wasm_split.js"', f'from "./{loader_name}"')
    loader = replace_once(loader, 'from "./kontor-app.js"', f'from "./{js_name}"', "the loader")
    glue = minify(glue, "the glue")
    loader = minify(loader, "the loader")
    (staging / js_name).write_text(glue)
    (staging / loader_name).write_text(loader)

    # index.html: trunk's names and integrity values → the split bundle's.
    for old_file, new_name, new_data in [
        (trunk_js, js_name, glue.encode()),
        (trunk_wasm, main_name, main_data),
    ]:
        old_sri = sri(old_file.read_bytes())
        if old_sri in html:
            html = html.replace(old_sri, sri(new_data))
        if old_file.name not in html:
            sys.exit(f"split_bundle: index.html does not name {old_file.name}")
        html = html.replace(old_file.name, new_name)
        old_file.unlink()
    index.write_text(html)

    sizes = [(main_name, len(main_data)), (js_name, len(glue)), (loader_name, len(loader))] + sizes
    print("split_bundle: files (raw bytes)")
    for name, size in sizes:
        print(f"  {size:>9}  {name}")


if __name__ == "__main__":
    main()
