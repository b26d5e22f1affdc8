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
# packages and npm tools first; then three builds side by side, so the two cores stay busy
# through each build's serial stretches (the server's own crates at the end of its build,
# the wasm's link-time optimization, each tool's last crate): the Rust tools (trunk,
# wasm-bindgen, wasm-split: `cargo install`, each in a build directory of its own), the
# app's wasm and the server (one target directory: cargo locks it per profile, and the two
# use different ones). The bundle is made as soon as the tools and the wasm are there,
# while the server may still compile.
./scripts/setup.sh --run --system
export PATH="$HOME/.cargo/bin:$PATH"

# Runs a command in the background with its output lines prefixed by [NAME].
background() {
  local name=$1
  shift
  ( "$@" 2>&1 | sed -u "s/^/[$name] /" ) &
}
step "building side by side: the Rust tools (trunk, wasm-bindgen, wasm-split), the browser app's wasm and the server (first-run profile)"
background tools ./scripts/setup.sh --run --tools
tools_job=$!
# Trunk's own invocation (index.html: data-bin, data-cargo-profile-release; no `-p`, so
# the features are resolved over the workspace's default members exactly as for trunk,
# which then finds the wasm built).
background app cargo build --target wasm32-unknown-unknown --profile wasm-release --bin kontor-app
app_job=$!
# The server with the `first-run` profile (Cargo.toml says what it is and why).
background server cargo build --profile first-run -p kontor-server
server_job=$!
# On any exit before the builds are done (Ctrl-C, a failed step), stop them with every
# process they started: background jobs of a script ignore Ctrl-C themselves.
kill_tree() {
  local child
  for child in $(pgrep -P "$1" || true); do
    kill_tree "$child"
  done
  kill -TERM "$1" 2>/dev/null || true
}
trap 'for job in "$tools_job" "$app_job" "$server_job"; do kill_tree "$job"; done' EXIT
failed() {
  echo "run.sh: $1 failed (see the [$2] lines above)" >&2
  exit 1
}
wait "$app_job" || failed "building the browser app's wasm" app
step "the browser app's wasm is built"
wait "$tools_job" || failed "installing the Rust tools" tools
step "the Rust tools are installed; bundling the browser app (trunk: bindings, route chunks, compressed copies)"
trunk build --release
step "the bundle is ready; waiting for the server"
wait "$server_job" || failed "building the server" server
trap - EXIT
step "filling ./data with demo data"
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
server="$target_dir/first-run/kontor-server"

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
