#!/usr/bin/env python3
"""Runs one package's test binaries in several lanes side by side (issue 35: the test
command stays fast). Used by scripts/test.sh for the end-to-end browser tests, whose 40-odd
binaries each start their own server, chromedriver and Chromium on free ports with their own
data and profile folders, and spend most of their time waiting for pages.

    test_lanes.py LANES PACKAGE [--with OTHER ...] [SLOWEST ...]

Builds the package's integration tests (`cargo test -p OTHER… -p PACKAGE --no-run --test '*'`:
with the OTHER packages in the same invocation, cargo resolves the features of the shared
dependencies as for the OTHERs' own test run, so nothing compiles twice), then runs each of
PACKAGE's with `--test-threads=1` in the package's folder (as `cargo test` does), LANES at a time,
the binaries named in SLOWEST first (the order of a recorded run, longest first) so the
lanes finish together. Each binary's output is printed whole when it ends, with its time.
Every binary runs whatever fails before it (like `cargo test --no-fail-fast`); the exit
status is 1 when any failed, and the failed ones are named at the end.
"""

import json
import pathlib
import queue
import subprocess
import sys
import threading
import time


def test_binaries(package: str, others: list[str]) -> list[tuple[str, str, pathlib.Path]]:
    """(name, executable, package folder) of every integration test of `package`, built
    in one invocation with the `others` packages. Exits when the build fails or when a file
    of the package's tests/ folder has no test target (a manifest without autotests must
    list every file, or the file would never run)."""
    selection = [arg for name in [*others, package] for arg in ("-p", name)]
    build = subprocess.run(
        ["cargo", "test", *selection, "--no-run", "--test", "*",
         "--message-format=json-render-diagnostics"],
        stdout=subprocess.PIPE, text=True,
    )
    if build.returncode != 0:
        sys.exit(f"test_lanes: building the tests of {package} failed")
    manifest = manifest_of(package)
    folder = manifest.parent
    found = []
    for line in build.stdout.splitlines():
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            continue
        if message.get("reason") != "compiler-artifact" or not message.get("executable"):
            continue
        if not message.get("profile", {}).get("test"):
            continue
        if "test" not in message["target"]["kind"]:
            continue
        if pathlib.Path(message["manifest_path"]) != manifest:
            continue
        found.append((message["target"]["name"], message["executable"], folder))
    unlisted = sorted({f.stem for f in (folder / "tests").glob("*.rs")} - {f[0] for f in found})
    if unlisted:
        sys.exit(f"test_lanes: tests/{{{','.join(unlisted)}}}.rs of {package} "
                 "have no [[test]] entry in its Cargo.toml")
    return found


def manifest_of(package: str) -> pathlib.Path:
    """The Cargo.toml of the workspace package called `package` (`cargo metadata`)."""
    metadata = json.loads(subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--no-deps"],
        stdout=subprocess.PIPE, text=True, check=True,
    ).stdout)
    for member in metadata["packages"]:
        if member["name"] == package:
            return pathlib.Path(member["manifest_path"])
    sys.exit(f"test_lanes: no package {package} in this workspace")


def main() -> None:
    lanes, package, rest = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    others = []
    while rest[:1] == ["--with"] and len(rest) >= 2:
        others.append(rest[1])
        rest = rest[2:]
    slowest = rest
    binaries = test_binaries(package, others)
    rank = {name: i for i, name in enumerate(slowest)}
    binaries.sort(key=lambda b: (rank.get(b[0], len(rank)), b[0]))
    todo: queue.Queue = queue.Queue()
    for binary in binaries:
        todo.put(binary)
    failed: list[str] = []
    printing = threading.Lock()
    started = time.monotonic()

    def lane() -> None:
        while True:
            try:
                name, executable, folder = todo.get_nowait()
            except queue.Empty:
                return
            began = time.monotonic()
            done = subprocess.run(
                [executable, "--test-threads=1"], cwd=folder,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
            )
            took = time.monotonic() - began
            with printing:
                verdict = "ok" if done.returncode == 0 else f"FAILED (exit {done.returncode})"
                print(f"\n== {name}: {verdict} in {took:.0f} s "
                      f"(at {time.monotonic() - started:.0f} s)", flush=True)
                print(done.stdout, end="", flush=True)
                if done.returncode != 0:
                    failed.append(name)

    workers = [threading.Thread(target=lane) for _ in range(lanes)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    print(f"\ntest_lanes: {len(binaries)} test binaries of {package} in {lanes} lanes, "
          f"{time.monotonic() - started:.0f} s; failed: {', '.join(sorted(failed)) or 'none'}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
