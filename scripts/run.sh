#!/usr/bin/env bash
# Builds Kontor and runs it on the embedded default: one server process serving the API
# and the browser app, on a SQLite database in ./data filled with demo data.
# Prints the URL and an API key to sign in with. Stop it with Ctrl-C.
#
# Environment: KONTOR_LISTEN (default 127.0.0.1:8080), KONTOR_DATA (default ./data).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH"

echo "[run] building the browser app (release)"
trunk build --release
echo "[run] building the server (release)"
cargo build --release -p kontor-server
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
server="$target_dir/release/kontor-server"

export KONTOR_DATA="${KONTOR_DATA:-./data}"
export KONTOR_LISTEN="${KONTOR_LISTEN:-127.0.0.1:8080}"
"$server" demo
key=$("$server" keys create --name "local $(date +%Y-%m-%d)" | tail -n 1)

cat <<MSG

  Kontor is starting at  http://$KONTOR_LISTEN/
  Sign in with this API key (created just now):
      $key

MSG
exec "$server" serve --dist dist
