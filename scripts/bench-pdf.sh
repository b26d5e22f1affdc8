#!/usr/bin/env bash
# PDF benchmark: Typst inside our process vs. Chromium's print-to-PDF of a comparable HTML
# invoice (one headless Chromium process per document, as a server would have to do).
# Also times Factur-X PDFs (PDF/A-3b + factur-x.xml + XMP). Prints a table to paste into
# docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
cargo run --quiet --release -p kontor-pdf --example bench -- "$out"
# Factur-X (issue 10): the server's pdf_render::factur_x vs. the plain render, 1-page invoice.
cargo run --quiet --release -p kontor-server --example facturx_bench
for n in 8 1000; do
  times=()
  for run in 1 2 3 4 5; do
    profile=$(mktemp -d)
    start=$(date +%s%N)
    chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
      --disable-sync --no-first-run --user-data-dir="$profile" --no-pdf-header-footer \
      --print-to-pdf="$out/chromium-$n.pdf" "file://$out/chromium-$n.html" >/dev/null 2>&1
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000000 )))
    rm -rf "$profile"
  done
  sorted=$(printf '%s\n' "${times[@]}" | sort -n)
  echo "chromium $n positions: median $(echo "$sorted" | sed -n 3p) ms, max $(echo "$sorted" | tail -1) ms (5 runs, $(( $(stat -c %s "$out/chromium-$n.pdf") / 1024 )) kB)"
done
echo "documents in $out"
