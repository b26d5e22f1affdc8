#!/usr/bin/env bash
# One command for every budget of issue 13 (not part of the tests: figures depend on the
# machine and what else runs). Builds the release server and bundle, starts the server on a
# fresh data directory, seeds invoices through the API, measures load with wrk, PDFs over
# HTTP, the bundle's sizes and the browser figures in headless Chromium, and writes the
# results beside their budgets into docs/benchmarks.md.
#
#   scripts/bench.sh                 # 100,000 invoices (several minutes on 2 cores)
#   KONTOR_BENCH_INVOICES=10000 scripts/bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
if ! command -v wrk >/dev/null 2>&1; then
  echo "[bench] installing wrk (the HTTP load generator) from Debian"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq wrk
fi
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
cargo build --release -p kontor-server
trunk build --release
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kontor-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# Chromium's print-to-PDF of comparable HTML invoices (1 page, 1,000 positions), in the
# same run as the server's own PDFs, for the PDF row of the table.
mkdir -p "$tmp/pdf"
cargo run --quiet --release -p kontor-pdf --example bench -- "$tmp/pdf" >/dev/null
KONTOR_BENCH_CHROMIUM_PDF="$(scripts/chromium-pdf.sh "$tmp/pdf" 8) / $(scripts/chromium-pdf.sh "$tmp/pdf" 1000)"
export KONTOR_BENCH_CHROMIUM_PDF
KONTOR_SERVER_BIN="$target_dir/release/kontor-server" KONTOR_DIST="$PWD/dist" TMPDIR="$tmp" \
  cargo run --release -p kontor-e2e --bin kontor-bench
# One process beside two behind haproxy (issue 16 § 7); its table goes into
# docs/benchmarks.md § Several processes and docs/deployment.md.
echo "[bench] one process beside two behind haproxy (scripts/bench-scale.sh)"
scripts/bench-scale.sh "$target_dir/release/kontor-server"
# A camt.053 of 10,000 entries against 100,000 invoices (issue 32); its row goes into
# docs/benchmarks.md § Bank statement import.
echo "[bench] bank statement import (scripts/bench-bank.sh)"
scripts/bench-bank.sh "$target_dir/release/kontor-server"
