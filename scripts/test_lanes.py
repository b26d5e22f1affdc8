#!/usr/bin/env python3
"""Runs test binaries in several lanes side by side (issue 35: the test command stays fast
on two cores). Two uses, both in scripts/test.sh:

    test_lanes.py LANES PACKAGE [--with OTHER ...] [SLOWEST ...]
    test_lanes.py LANES PACKAGE [--with OTHER ...] --every [SLOWEST ...]

(`-p OTHER` is the same as `--with OTHER`, so a cargo package selection can be passed
whole; PACKAGE named there again counts once.)

The first runs PACKAGE's integration tests, the end-to-end browser tests: 40-odd binaries
that each start their own server, chromedriver and Chromium on free ports with their own
data and profile folders. It builds them with `cargo test -p OTHER… -p PACKAGE --no-run
--test '*'` (with the OTHER packages in the same invocation, cargo resolves the features of
the shared dependencies as for the OTHERs' own test run, so nothing compiles twice) and runs
each with `--test-threads=1`. It fails when a file of PACKAGE's tests/ folder has no test
target (a manifest without autotests must list every file, or the file would never run).

The second (`--every`) runs what `cargo test -p PACKAGE -p OTHER…` runs: every test binary
of every named package (the unit tests of libraries and programs, the integration tests),
each with the test harness's own thread count. The ~90 binaries of the model and server
tests mostly wait for their databases and servers; one after another they took 6 minutes on
SQLite and 10 on PostgreSQL on a slow machine. Rust examples in doc comments would be
doctests: the named packages have none (their docs use `text` blocks), and when one gets
one, `cargo test --doc` runs the doctests after the lanes.

Each binary runs in its package's folder (as `cargo test` does), LANES at a time, the
binaries named in SLOWEST first (the order of a recorded run, longest first) so the lanes
finish together. Each binary's output is printed whole when it ends, with its time. Every
binary runs whatever fails before it (like `cargo test --no-fail-fast`); the exit status is
1 when any failed, and the failed ones are named at the end.
"""

import json
import pathlib
import queue
import re
import subprocess
import sys
import threading
import time

# A test binary: (name, executable, package folder).
Binary = tuple[str, str, pathlib.Path]


def build(packages: list[str], every: bool) -> list[dict]:
    """Builds the test binaries of `packages` in one cargo invocation (only the integration
    tests unless `every`); cargo's artifact messages of the test binaries."""
    selection = [arg for name in packages for arg in ("-p", name)]
    targets = [] if every else ["--test", "*"]
    done = subprocess.run(
        ["cargo", "test", *selection, "--no-run", *targets,
         "--message-format=json-render-diagnostics"],
        stdout=subprocess.PIPE, text=True,
    )
    if done.returncode != 0:
        sys.exit(f"test_lanes: building the tests of {', '.join(packages)} failed")
    artifacts = []
    for line in done.stdout.splitlines():
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            continue
        if message.get("reason") != "compiler-artifact" or not message.get("executable"):
            continue
        if not message.get("profile", {}).get("test"):
            continue
        artifacts.append(message)
    return artifacts


def browser_tests(package: str, others: list[str]) -> list[Binary]:
    """The integration tests of `package`, built with the `others` packages. Exits when a
    file of the package's tests/ folder has no test target."""
    manifest = manifests()[package]
    folder = manifest.parent
    found = [
        (message["target"]["name"], message["executable"], folder)
        for message in build([*others, package], every=False)
        if "test" in message["target"]["kind"]
        and pathlib.Path(message["manifest_path"]) == manifest
    ]
    unlisted = sorted({f.stem for f in (folder / "tests").glob("*.rs")} - {f[0] for f in found})
    if unlisted:
        sys.exit(f"test_lanes: tests/{{{','.join(unlisted)}}}.rs of {package} "
                 "have no [[test]] entry in its Cargo.toml")
    return found


def every_test(packages: list[str]) -> list[Binary]:
    """Every test binary of `packages`, named `package:target` when the target is a unit
    test target (a library's or a program's, which share the package's name) and by the
    target's name when it is an integration test."""
    found = []
    for message in build(packages, every=True):
        folder = pathlib.Path(message["manifest_path"]).parent
        target = message["target"]
        name = target["name"] if "test" in target["kind"] else \
            f"{package_name(message['package_id'])}:{target['kind'][0]}"
        found.append((name, message["executable"], folder))
    return found


def package_name(package_id: str) -> str:
    """The package name in a cargo package id (`path+file:///…/server#kontor-server@0.1.0`
    or the older `kontor-server 0.1.0 (path+file:///…)`)."""
    if "#" in package_id:
        tail = package_id.rsplit("#", 1)[1]
        return tail.split("@", 1)[0]
    return package_id.split(" ", 1)[0]


def manifests() -> dict[str, pathlib.Path]:
    """The Cargo.toml of each workspace package, by name (`cargo metadata`)."""
    metadata = json.loads(subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--no-deps"],
        stdout=subprocess.PIPE, text=True, check=True,
    ).stdout)
    return {member["name"]: pathlib.Path(member["manifest_path"])
            for member in metadata["packages"]}


def has_doctests(packages: list[str]) -> bool:
    """Whether a doc comment in the sources of `packages` opens a Rust code block (a
    block without a language, or `rust`, `no_run`, `should_panic`, `compile_fail`)."""
    fence = re.compile(r"^\s*(///|//!)\s*```(\S*)")
    by_name = manifests()
    for package in packages:
        for source in (by_name[package].parent / "src").rglob("*.rs"):
            inside = False
            for line in source.read_text(errors="replace").splitlines():
                match = fence.match(line)
                if not match:
                    continue
                if not inside and match.group(2).split(",")[0] in (
                        "", "rust", "no_run", "should_panic", "compile_fail", "edition2021"):
                    return True
                inside = not inside
    return False


def run_lanes(lanes: int, binaries: list[Binary], one_thread: bool) -> list[str]:
    """Runs `binaries` in order, `lanes` at a time; the names of the failed ones."""
    todo: queue.Queue = queue.Queue()
    for binary in binaries:
        todo.put(binary)
    failed: list[str] = []
    printing = threading.Lock()
    started = time.monotonic()
    threads = ["--test-threads=1"] if one_thread else []

    def lane() -> None:
        while True:
            try:
                name, executable, folder = todo.get_nowait()
            except queue.Empty:
                return
            began = time.monotonic()
            done = subprocess.run(
                [executable, *threads], cwd=folder,
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
    return failed


def main() -> None:
    lanes, package, rest = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    others = []
    while rest[:1] in (["--with"], ["-p"]) and len(rest) >= 2:
        if rest[1] != package and rest[1] not in others:
            others.append(rest[1])
        rest = rest[2:]
    every = rest[:1] == ["--every"]
    slowest = rest[1:] if every else rest
    packages = [package, *others]
    binaries = every_test(packages) if every else browser_tests(package, others)
    rank = {name: i for i, name in enumerate(slowest)}
    binaries.sort(key=lambda b: (rank.get(b[0], len(rank)), b[0]))
    started = time.monotonic()
    failed = run_lanes(lanes, binaries, one_thread=not every)
    if every and has_doctests(packages):
        selection = [arg for name in packages for arg in ("-p", name)]
        if subprocess.run(["cargo", "test", *selection, "--doc"]).returncode != 0:
            failed.append("doctests")
    print(f"\ntest_lanes: {len(binaries)} test binaries of {', '.join(packages)} in {lanes} "
          f"lanes, {time.monotonic() - started:.0f} s; "
          f"failed: {', '.join(sorted(failed)) or 'none'}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
