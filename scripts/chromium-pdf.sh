#!/usr/bin/env bash
# Times Chromium's print-to-PDF of DIR/chromium-N.html (written by
# `cargo run --release -p kontor-pdf --example bench -- DIR`): one headless Chromium
# process per document, as a server without Typst would have to run, RUNS times
# (default 5). Prints "MEDIAN_MS MAX_MS SIZE_KB". Used by scripts/bench.sh and
# scripts/bench-pdf.sh.
#
#   scripts/chromium-pdf.sh DIR N [RUNS]
set -euo pipefail
dir=$1 n=$2 runs=${3:-5}
times=()
for _ in $(seq "$runs"); do
  profile=$(mktemp -d)
  start=$(date +%s%N)
  chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
    --disable-sync --no-first-run --user-data-dir="$profile" --no-pdf-header-footer \
    --print-to-pdf="$dir/chromium-$n.pdf" "file://$dir/chromium-$n.html" >/dev/null 2>&1
  end=$(date +%s%N)
  times+=($(( (end - start) / 1000000 )))
  rm -rf "$profile"
done
sorted=$(printf '%s\n' "${times[@]}" | sort -n)
echo "$(echo "$sorted" | sed -n "$(( (runs + 1) / 2 ))p") $(echo "$sorted" | tail -1) $(( $(stat -c %s "$dir/chromium-$n.pdf") / 1024 ))"
