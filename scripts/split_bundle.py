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
   minified by terser, and the main module's imports from the glue get short names
   (`shorten_imports`: wasm-bindgen's hashed names were ~7 kB of the first visit).
3. Every file gets a content hash in its name (`<name>-<16 hex>`, the chunks `<name>-<8 hex>`:
   what the server caches as immutable); the glue and the loader import each other, so they share one hash computed
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


# wasm-split-cli 0.2.4 writes this fetcher once per chunk (~950 times).
CHUNK_FETCHER = re.compile(
    r'makeLoad\(\(\) => \{\s*const src = fetch\(new URL\(("\./[\w.-]+\.wasm"), import\.meta\.url\)\);'
    r'\s*src\.catch\(\(\) => \{\}\);'
    r'\s*return async \(imports\) => \(WebAssembly\.instantiateStreaming\(src, imports\)\);'
    r'\s*\}\s*,'
)

CHUNK_LOAD = """
function makeChunkLoad(file, deps) {
    return makeLoad(() => {
        const src = fetch(new URL(file, import.meta.url));
        src.catch(() => {});
        return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
    }, deps);
}
"""


def compact_loader(loader: str) -> str:
    """The loader with its per-chunk fetcher written once (`makeChunkLoad(file, deps)`):
    the same requests in the same order, ~1.2 kB less of the first visit (issue 35). Stops
    the build when wasm-split's output no longer has the expected shape."""
    count = len(CHUNK_FETCHER.findall(loader))
    expected = loader.count("makeLoad(") - 1  # the definition
    if count == 0 or count != expected:
        sys.exit(f"split_bundle: the loader has {expected} chunk loads, {count} of the known shape")
    loader = CHUNK_FETCHER.sub(r"makeChunkLoad(\1,", loader)
    return replace_once(loader, "\nfunction makeLoad(", CHUNK_LOAD + "function makeLoad(", "the loader")


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


def _leb(data: bytes, at: int) -> tuple[int, int]:
    """The unsigned LEB128 number at `at` and the offset after it."""
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def _uleb(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _short_name(n: int) -> str:
    """`a` … `Z`, `aa` …: the n-th short import name."""
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    name = ""
    while True:
        name = letters[n % 52] + name
        n //= 52
        if n == 0:
            return name
        n -= 1


def shorten_imports(wasm: bytes, module: str) -> tuple[bytes, dict[str, str]]:
    """`wasm` with every function the module imports from the glue (`module`, wasm-bindgen's
    `./kontor-app_bg.js`) renamed to a short name, and the renaming (old → new).

    wasm-bindgen names each import `__wbg_<name>_<16 hex>`; the ~310 hashes are random
    to a compressor and stood twice in the first visit (the wasm's import section and the
    glue's import object): ~7 kB of its brotli bytes (issue 35). Only the import section
    changes (the other sections refer to imports by index); it is checked to be read to
    its end, and a name imported twice from `module` stops the build."""
    if wasm[:8] != b"\0asm\x01\0\0\0":
        sys.exit("split_bundle: the main module is not a wasm module (version 1)")
    out = bytearray(wasm[:8])
    renamed: dict[str, str] = {}
    at = 8
    while at < len(wasm):
        section = wasm[at]
        size, start = _leb(wasm, at + 1)
        end = start + size
        if section != 2:
            out += wasm[at:end]
            at = end
            continue
        count, pos = _leb(wasm, start)
        body = bytearray(_uleb(count))
        for _ in range(count):
            length, pos = _leb(wasm, pos)
            from_module = wasm[pos:pos + length]
            pos += length
            length, pos = _leb(wasm, pos)
            field = wasm[pos:pos + length].decode()
            pos += length
            kind_at = pos
            kind = wasm[pos]
            pos += 1
            if kind == 0:  # function: type index
                _, pos = _leb(wasm, pos)
            elif kind == 1:  # table: reference type, limits
                flags, pos = _leb(wasm, pos + 1)
                _, pos = _leb(wasm, pos)
                if flags & 1:
                    _, pos = _leb(wasm, pos)
            elif kind == 2:  # memory: limits
                flags, pos = _leb(wasm, pos)
                _, pos = _leb(wasm, pos)
                if flags & 1:
                    _, pos = _leb(wasm, pos)
            elif kind == 3:  # global: value type, mutability
                pos += 2
            else:
                sys.exit(f"split_bundle: an import of kind {kind} in the main module")
            if from_module.decode() == module:
                if field in renamed:
                    sys.exit(f"split_bundle: {field} is imported twice")
                renamed[field] = _short_name(len(renamed))
                field = renamed[field]
            name = field.encode()
            body += _uleb(len(from_module)) + from_module + _uleb(len(name)) + name
            body += wasm[kind_at:pos]
        if pos != end:
            sys.exit("split_bundle: the import section was not read to its end")
        out += bytes([2]) + _uleb(len(body)) + body
        at = end
    return bytes(out), renamed


def rename_glue_imports(glue: str, renamed: dict[str, str]) -> str:
    """The glue's import object with the names of [`shorten_imports`]: each old name must
    stand in the glue exactly once (its key), else the build stops."""
    for old, new in renamed.items():
        pattern = re.compile(r"(?<![\w$])" + re.escape(old) + r"(?![\w$])")
        if len(pattern.findall(glue)) != 1:
            sys.exit(f"split_bundle: the glue names {old} other than once")
        glue = pattern.sub(new, glue)
    return glue


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

    loader = compact_loader((split / "__wasm_split.js").read_text())
    sizes = []
    for chunk in chunks:
        data = chunk.read_bytes()
        # Eight hex digits for the chunks: the loader names every one of them (~950), and
        # 16 digits of each name's hash were 6 of its 11 kB (brotli) on the first visit
        # (issue 35). 32 bits are plenty to tell one release's chunk of a name from another's.
        name = f"{chunk.stem}-{hex16(data)[:8]}.wasm"
        (staging / name).write_bytes(data)
        loader = replace_once(loader, f'"./{chunk.name}"', f'"./{name}"', "__wasm_split.js")
        sizes.append((name, len(data)))

    main_data, renamed = shorten_imports(main_wasm.read_bytes(), "./kontor-app_bg.js")
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
    glue = rename_glue_imports(minify(glue, "the glue"), renamed)
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
