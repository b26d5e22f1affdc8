#!/bin/sh
# Trunk's post_build hook (Trunk.toml), release builds only: splits the wasm into route
# chunks (scripts/split_bundle.py, issue 13), puts the style sheets into one file
# (scripts/bundle_css.py), moves trunk's inline loader into a file
# (scripts/extract_loader.py, for the Content-Security-Policy), writes the service worker
# with the list of the release's files (scripts/service_worker.py, issue 37) and then writes the brotli/gzip copies (scripts/precompress.sh). One hook on purpose: trunk runs the hooks of a stage at the
# same time, and the copies must be made of the final files.
set -eu
cd "$(dirname "$0")/.."
if [ "${TRUNK_PROFILE:-debug}" != release ]; then
  # Debug builds: only trunk's inline loader moves to a file (no inline script may run
  # under the Content-Security-Policy, issue 15).
  python3 scripts/extract_loader.py "$TRUNK_STAGING_DIR"
  exit 0
fi
target_dir="${CARGO_TARGET_DIR:-}"
if [ -z "$target_dir" ]; then
  target_dir=$(cargo metadata --format-version 1 --no-deps --offline | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
fi
python3 scripts/split_bundle.py "$TRUNK_STAGING_DIR" \
  "$target_dir/wasm32-unknown-unknown/wasm-release/kontor-app.wasm" \
  "$target_dir/bundle-split"
python3 scripts/extract_loader.py "$TRUNK_STAGING_DIR"
python3 scripts/bundle_css.py "$TRUNK_STAGING_DIR"
python3 scripts/service_worker.py "$TRUNK_STAGING_DIR"
sh scripts/precompress.sh "$TRUNK_STAGING_DIR"
