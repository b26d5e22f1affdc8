#!/usr/bin/env bash
# Generated attacks (issue 15 § 2): schemathesis against a freshly started server on a
# throwaway data directory with the demo data, every operation of the served description
# (GET /api/v1/openapi.json), examples, coverage, fuzzing and the stateful (links) phase.
# Fails on any 5xx, any response that violates its described schema or content type, and
# any undocumented status code; then checks that at least KONTOR_ST_MIN (5000) requests
# were sent.
#
# Usage: scripts/schemathesis.sh SERVER_BINARY
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:?usage: scripts/schemathesis.sh SERVER_BINARY}"
st="$HOME/.cache/kontor/schemathesis-4.32.5/bin/st"
[ -x "$st" ] || { echo "schemathesis is missing; run scripts/setup.sh" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/kontor-st.XXXXXX")
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

"$bin" --data "$work/data" demo >/dev/null
"$bin" --data "$work/data" serve --listen 127.0.0.1:0 --rate-limit 0 --dist "$work/no-bundle" \
  >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
for _ in $(seq 1 100); do
  grep -q "Kontor is running at" "$work/server.out" 2>/dev/null && break
  sleep 0.1
done
base=$(sed -n 's/^Kontor is running at \(http[^ ]*\)\/$/\1/p' "$work/server.out")
[ -n "$base" ] || { cat "$work/server.err" >&2; echo "the server did not start" >&2; exit 1; }
key=$("$bin" --data "$work/data" keys create --name schemathesis | tail -n1)

# One worker: with two, schemathesis' threads ran hypothesis' `ast.parse` side by side, and
# CPython 3.11's ast module keeps its recursion depth in shared state (CPython gh-106905,
# fixed in later releases): one CI run of 2026-12-02 stopped on "SystemError: AST
# constructor recursion depth mismatch" in the coverage phase of `GET /exports/datev.csv`
# — a fault of the tool's interpreter, not of the API.
"$st" run "$base/api/v1/openapi.json" \
  --url "$base/api/v1" \
  --header "Authorization: Token token=$key" \
  --phases examples,coverage,fuzzing,stateful \
  --checks not_a_server_error,status_code_conformance,response_schema_conformance,content_type_conformance \
  --exclude-operation-id session_delete \
  --mode all \
  --max-examples "${KONTOR_ST_EXAMPLES:-10}" \
  --workers 1 \
  --seed "${KONTOR_ST_SEED:-20261124}" \
  --generation-database none \
  --suppress-health-check all \
  --request-timeout 30 \
  --report har --report-dir "$work/report" \
  --no-color

python3 - "$work/report" "${KONTOR_ST_MIN:-5000}" <<'PY'
import glob, json, sys
files = glob.glob(sys.argv[1] + "/har-*.json")
count = sum(len(json.load(open(f))["log"]["entries"]) for f in files)
print(f"schemathesis sent {count} requests")
if count < int(sys.argv[2]):
    sys.exit(f"fewer than {sys.argv[2]} requests")
PY
