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
  read -r median max size < <(scripts/chromium-pdf.sh "$out" "$n")
  echo "chromium $n positions: median $median ms, max $max ms (5 runs, $size kB)"
done
echo "documents in $out"
