#!/usr/bin/env bash
# Runs every Kontor check, as CI does: formatting, clippy (native and wasm), the model and
# server tests (real SQLite, real HTTP on 127.0.0.1), the server tests again on a real
# PostgreSQL cluster (scripts/test-postgres.sh), the wasm component tests in
# headless Chromium, and the end-to-end browser tests against the real server with the
# release bundle (also hosted under /kontor/ by a plain static server).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH"
export CHROMEDRIVER=/usr/bin/chromedriver
# One full run builds every test binary once: incremental caches would only fill the disk.
export CARGO_INCREMENTAL=0
# The python of the official e-invoice rules (../shared/einvoice), used by the tests.
KONTOR_EINVOICE_PY=$(bash ../shared/einvoice/setup.sh | tail -n1)
export KONTOR_EINVOICE_PY
# The python with the tests' PyPI packages (aiosmtpd, python-stdnum; scripts/setup.sh).
export KONTOR_TEST_PY="$HOME/.cache/kontor/test-python/bin/python"
# Each step's heading tells the minutes since the start (the CI log shows where time goes).
started=$SECONDS
step() { printf '\n\033[1m[test] %s (at %d min %02d s)\033[0m\n' "$*" $(((SECONDS - started) / 60)) $(((SECONDS - started) % 60)); }

# Chromium leaves large scoped folders in TMPDIR: give the browser tests their own, removed
# at the end whatever happens.
browser_tmp=$(mktemp -d "${TMPDIR:-/tmp}/kontor-browser.XXXXXX")
trap 'rm -rf "$browser_tmp"' EXIT

step "format"
cargo fmt --all -- --check

step "clippy (native crates)"
# The native crates, one package set for clippy and the tests (one feature resolution).
native=(-p kontor-model -p kontor-pdf -p kontor-einvoice -p kontor-bank -p kontor-server -p kontor-e2e)
cargo clippy "${native[@]}" --all-targets -- -D warnings
# The browser tests are `test = false` targets (tests/e2e/Cargo.toml), which --all-targets
# leaves out: named by pattern, in the same package set (nothing else is checked again).
cargo clippy "${native[@]}" --test '*' -- -D warnings
step "clippy (browser app, wasm32)"
cargo clippy -p kontor-app --target wasm32-unknown-unknown --all-targets -- -D warnings
step "clippy (browser app, release: route chunks)"
cargo clippy -p kontor-app --target wasm32-unknown-unknown --profile wasm-release -- -D warnings

step "model, PDF, e-invoice, bank statement and server tests (server on SQLite)"
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
# The bank statement readers' oracles (mt-940, pycamt from PyPI) in a venv of their own.
KONTOR_BANK_PY=$(./scripts/bank-oracles.sh | tail -n1)
export KONTOR_BANK_PY
# The server program the process tests, the crash test and schemathesis run: the test
# build's (cargo builds it for the integration tests below, before any runs), not a
# release build of its own (issue 35: ~6 minutes less to compile; its dependencies are
# optimised; docs/decisions.md § Fast for everyone, first steps).
export KONTOR_SERVER_BIN="$target_dir/debug/kontor-server"
# kontor-e2e in the same package set: its browser tests (`test = false`, run below) share
# this build's feature resolution, so its dependencies and the server's library compile
# once (issue 35); only its library's own unit tests run here. Two test binaries at a time,
# the slowest first (scripts/test_lanes.py --every; one after another took 6 minutes).
python3 scripts/test_lanes.py 2 kontor-server "${native[@]}" --every write_props_api mail_api \
  inbox_api stateless_api crash_safety hostile_files_api scale_out migrate_to einvoice_api \
  sign_in_api database_option_api purchase_import

step "server tests on PostgreSQL (a throwaway cluster, stopped at the end)"
./scripts/test-postgres.sh

step "generated attacks (schemathesis against the server)"
timeout 1800 ./scripts/schemathesis.sh "$KONTOR_SERVER_BIN"

step "component tests (wasm in headless Chromium)"
TMPDIR="$browser_tmp" cargo test -p kontor-app --target wasm32-unknown-unknown

step "release bundle (/, and the same bundle put under /kontor/)"
trunk build --release
# The bundle for /kontor/ differs only in index.html and the loader: rebased, not rebuilt
# (a second trunk build cost ~15 minutes; scripts/rebase_bundle.py).
python3 scripts/rebase_bundle.py dist /kontor/ "$target_dir/dist-prefix"

step "end-to-end browser tests (two test files at a time)"
# Each test file starts its own server, chromedriver and Chromium on free ports; two run
# side by side (scripts/test_lanes.py), the slowest of the last recorded run first, so the
# ~28 minutes of one-at-a-time runs take about half (issue 35).
KONTOR_DIST="$PWD/dist" KONTOR_DIST_PREFIX="$target_dir/dist-prefix" \
  python3 scripts/test_lanes.py 2 kontor-e2e --with kontor-server german offline csp rough_edges \
  invoices_complete stored_xss books edit_copy people walking_skeleton down_payments \
  master_data timeline approval einvoice audit_trail einvoice_check settings inbox
