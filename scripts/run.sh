#!/usr/bin/env bash
# Builds Kontor and runs it on the embedded default: one server process serving the API
# and the browser app, on a SQLite database in ./data filled with demo data.
# Prints the URL and the demo admin's e-mail and password to sign in with (a new password
# on every run), and an API key for integrations (curl). Stop it with Ctrl-C.
#
# Environment: KONTOR_LISTEN (default 127.0.0.1:8080), KONTOR_DATA (default ./data).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
step() { printf '\033[1m[run %4ss]\033[0m %s\n' "$(( $(date +%s) - started ))" "$*"; }
# Only what running needs; the test tools come with scripts/test.sh (issue 35). The Debian
# packages and npm tools first; the Rust tools (trunk, wasm-bindgen, wasm-split: `cargo
# install`, each in a build directory of its own) are compiled while the app's wasm and the
# server compile, so the two cores stay busy through each build's serial stretches (the
# wasm's link-time optimization is one long single-threaded step).
./scripts/setup.sh --run --system
export PATH="$HOME/.cargo/bin:$PATH"

step "building the Rust tools (trunk, wasm-bindgen, wasm-split) in the background"
( ./scripts/setup.sh --run --tools 2>&1 | sed -u 's/^/[tools] /' ) &
tools=$!
trap 'kill "$tools" 2>/dev/null || true' EXIT
step "building the browser app's wasm (release)"
# Trunk's own invocation (index.html: data-bin, data-cargo-profile-release; no `-p`, so
# the features are resolved over the workspace's default members exactly as for trunk,
# which then finds the wasm built).
cargo build --target wasm32-unknown-unknown --profile wasm-release --bin kontor-app
step "building the server (release)"
cargo build --release -p kontor-server
step "waiting for the Rust tools"
if ! wait "$tools"; then
  echo "run.sh: installing the Rust tools failed (see the [tools] lines above)" >&2
  exit 1
fi
trap - EXIT
step "bundling the browser app (trunk: bindings, route chunks, compressed copies)"
trunk build --release
step "filling ./data with demo data"
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
server="$target_dir/release/kontor-server"

export KONTOR_DATA="${KONTOR_DATA:-./data}"
export KONTOR_LISTEN="${KONTOR_LISTEN:-127.0.0.1:8080}"
"$server" demo
# The demo admin (Anna Schmidt, made by `demo`) gets a fresh random password on every run.
email="anna@kontor.example"
password=$(python3 -c 'import secrets; print(secrets.token_urlsafe(18))')
if ! printf '%s\n' "$password" | "$server" users set-password --email "$email" --password-stdin >/dev/null 2>&1; then
  # An older data directory without the demo users: create the admin.
  printf '%s\n' "$password" | "$server" users create --email "$email" --firstname Anna \
    --lastname Schmidt --role admin --password-stdin >/dev/null
fi
key=$("$server" keys create --name "local $(date +%Y-%m-%d)" | tail -n 1)

step "ready"
cat <<MSG

  Kontor is starting at  http://$KONTOR_LISTEN/
  Sign in as the demo admin:
      E-mail:    $email
      Password:  $password
  API key for integrations (curl -H "Authorization: Token token=..."):
      $key

MSG
exec "$server" serve --dist dist
