#!/bin/sh
# Writes a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside every text
# and wasm file of the release bundle (issue 13 § Serve compressed and cache right), so
# Kontor's server — or nginx `gzip_static`/`brotli_static`, Caddy `precompressed br gzip`
# — sends compressed files without compressing per request.
#
# Trunk runs it as the `post_build` hook (Trunk.toml) on its staging directory; debug
# builds are left alone. By hand: `scripts/precompress.sh dist`.
set -eu
if [ $# -eq 0 ] && [ "${TRUNK_PROFILE:-release}" != release ]; then
  exit 0
fi
dir="${1:-${TRUNK_STAGING_DIR:?give the bundle directory}}"
if ! command -v brotli >/dev/null 2>&1; then
  echo "precompress: the brotli command is missing; run scripts/setup.sh" >&2
  exit 1
fi
find "$dir" -type f \( -name '*.wasm' -o -name '*.js' -o -name '*.css' -o -name '*.html' \
  -o -name '*.svg' -o -name '*.json' -o -name '*.txt' \) | while read -r file; do
  gzip -9 -n -k -f "$file"
  brotli -q 11 -k -f "$file"
done
