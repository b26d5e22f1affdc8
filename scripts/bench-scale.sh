#!/usr/bin/env bash
# Throughput of one server process beside two processes behind haproxy (issue 16 § 7), on
# each engine, all on one machine:
#   - SQLite: both processes share one data directory (the embedded file);
#   - PostgreSQL: a throwaway cluster (scripts/pg.sh), one database, a data directory per
#     process.
# wrk against
#   GET /invoices?per_page=100   (the list budget)
#   POST /invoices               (numbered creation, 3 positions)
# Prints a Markdown table for docs/benchmarks.md and docs/deployment.md. Called by
# scripts/bench.sh; alone:
#
#   scripts/bench-scale.sh [SERVER_BINARY]     # default: the release build
#   KONTOR_BENCH_SCALE_INVOICES=10000 KONTOR_BENCH_SECONDS=15 scripts/bench-scale.sh
#   KONTOR_BENCH_ENGINES=postgres scripts/bench-scale.sh   # default: "sqlite postgres"
set -Eeuo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
bin=${1:-}
if [ -z "$bin" ]; then
  target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
  cargo build --release -p kontor-server
  bin="$target_dir/release/kontor-server"
fi
invoices=${KONTOR_BENCH_SCALE_INVOICES:-10000}
seconds=${KONTOR_BENCH_SECONDS:-15}
engines=${KONTOR_BENCH_ENGINES:-sqlite postgres}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kontor-scale.XXXXXX")
pids=()
clusters=()
stop_servers() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  pids=()
}
cleanup() {
  stop_servers
  for d in "${clusters[@]}"; do bash scripts/pg.sh stop "$d" || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'echo "[bench-scale] failed at line $LINENO" >&2' ERR

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# Waits up to 60 s for a port (a second process on a loaded machine opens the database and
# checks its schema before it listens); on failure prints the process's log.
wait_port() {
  for _ in $(seq 600); do (echo > "/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done
  echo "port $1 did not open" >&2
  tail -n 20 "$work/serve-$1.log" >&2 2>/dev/null || true
  exit 1
}
# "req/s, p99" of wrk's report; its error lines (socket errors, non-2xx answers) go to
# standard error, so a run that failed is seen.
summary() { awk '/Requests\/sec/ {r=$2} /^ *99%/ {p=$2} /Socket errors|Non-2xx/ {print "[bench-scale] wrk: " $0 > "/dev/stderr"} END {printf "%.0f req/s, p99 %s", r, p}'; }

# $1: port, $2: data directory; starts a server process with the engine's --database.
serve() {
  "$bin" --data "$2" "${database[@]}" serve --listen "127.0.0.1:$1" --rate-limit 0 \
    --dist "$tmp/none" > "$work/serve-$1.log" 2>&1 &
  pids+=("$!")
  wait_port "$1"
}

# Seeds $invoices invoices through $base with $key and $body.
seed() {
  python3 - "$base" "$key" "$body" "$invoices" <<'PY'
import sys, urllib.request, concurrent.futures
base, key, body, n = sys.argv[1], sys.argv[2], sys.argv[3].encode(), int(sys.argv[4])
def one(_):
    req = urllib.request.Request(base + "/invoices", data=body, method="POST",
        headers={"Authorization": "Token token=" + key, "Content-Type": "application/json"})
    urllib.request.urlopen(req).read()
with concurrent.futures.ThreadPoolExecutor(8) as ex:
    list(ex.map(one, range(n)))
PY
}

# $1: port of the balancer; $2, $3: the servers' ports.
balance() {
  cat > "$work/haproxy.cfg" <<EOF
global
  maxconn 2048
defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
frontend kontor
  bind 127.0.0.1:$1
  default_backend servers
backend servers
  balance roundrobin
  server a 127.0.0.1:$2
  server b 127.0.0.1:$3
EOF
  haproxy -db -f "$work/haproxy.cfg" > "$work/haproxy.log" 2>&1 &
  pids+=("$!")
  wait_port "$1"
}

# $1: sqlite | postgres. Seeds, measures one process and then two behind haproxy, and
# prints the engine's two table rows.
bench_engine() {
  engine=$1
  work="$tmp/$engine"
  mkdir -p "$work"
  database=()
  data_b="$work/data-a"
  if [ "$engine" = postgres ]; then
    # Under root the cluster runs as `postgres`, which must reach its directory.
    chmod 0755 "$tmp" "$work"
    bash scripts/pg.sh start "$work/pg" >/dev/null
    clusters+=("$work/pg")
    psql=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)/psql
    as_owner=()
    if [ "$(id -u)" = 0 ]; then as_owner=(runuser -u postgres --); fi
    "${as_owner[@]}" "$psql" -h "$work/pg" -U kontor -d postgres -qc "CREATE DATABASE kontor_bench"
    database=(--database "postgres://kontor@localhost/kontor_bench?host=$work/pg")
    data_b="$work/data-b"
  fi
  port_a=$(free_port)
  serve "$port_a" "$work/data-a"
  # The first start prints its key after it listens: wait for the key's line (the one
  # after the heading) rather than read the log at once (a run that read too early
  # measured nothing).
  key=""
  for _ in $(seq 100); do
    key=$(grep -A1 "A full-access API key" "$work/serve-$port_a.log" | sed -n 2p || true)
    [ -n "$key" ] && break
    sleep 0.2
  done
  [ -n "$key" ] || { echo "[bench-scale] no API key in the server's log" >&2; tail -n 20 "$work/serve-$port_a.log" >&2; exit 1; }
  auth="Authorization: Token token=$key"
  base="http://127.0.0.1:$port_a/api/v1"
  customer=$(curl -sSf -H "$auth" -H 'Content-Type: application/json' \
    -d '{"name":"Kranzler KG"}' "$base/companies" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  body=$(printf '{"customer_id":%s,"recipient_address":"Kranzler KG\\nMain St 1","date":"2026-11-03","due_date":"2099-12-31","title":"Work","tax":19,"currency":"EUR","items":[{"type":"item","title":"Concept","quantity":2,"unit":"h","unit_price":50},{"type":"item","title":"Screens","quantity":0.5,"unit":"h","unit_price":100},{"type":"item","title":"Flat fee","net_total":100}]}' "$customer")
  echo "[bench-scale] $engine: seeding $invoices invoices" >&2
  seed
  if [ "$engine" = postgres ]; then
    # What autovacuum does within a minute of a bulk load: the planner's statistics and
    # the visibility map. Without them PostgreSQL plans the freshly filled tables as
    # nearly empty and reads every invoice for a page (docs/benchmarks.md § PostgreSQL
    # after a bulk load); the figures would then depend on when autovacuum runs.
    "${as_owner[@]}" "$psql" -h "$work/pg" -U kontor -d kontor_bench -qc "VACUUM (ANALYZE)"
  fi
  cat > "$work/post.lua" <<EOF
wrk.method = "POST"
wrk.headers["Authorization"] = "Token token=$key"
wrk.headers["Content-Type"] = "application/json"
wrk.body = [[$body]]
EOF
  echo "[bench-scale] $engine: lists, one process" >&2
  one_list=$(wrk -t2 -c8 -d"${seconds}s" --latency -H "$auth" "$base/invoices?per_page=100" | summary)
  port_b=$(free_port)
  if [ "$data_b" != "$work/data-a" ]; then
    # Every process of an installation seals the audit trail with the same key file.
    mkdir -p "$data_b"
    cp "$work/data-a/audit.key" "$data_b/audit.key"
  fi
  serve "$port_b" "$data_b"
  port_lb=$(free_port)
  balance "$port_lb" "$port_a" "$port_b"
  lb="http://127.0.0.1:$port_lb/api/v1"
  echo "[bench-scale] $engine: lists, two processes behind haproxy" >&2
  two_list=$(wrk -t2 -c8 -d"${seconds}s" --latency -H "$auth" "$lb/invoices?per_page=100" | summary)
  echo "[bench-scale] $engine: creations, one process, then two behind haproxy" >&2
  one_post=$(wrk -t2 -c8 -d"${seconds}s" --latency -s "$work/post.lua" "$base/invoices" | summary)
  two_post=$(wrk -t2 -c8 -d"${seconds}s" --latency -s "$work/post.lua" "$lb/invoices" | summary)
  stored=$(curl -sf -D - -o /dev/null -H "$auth" "$base/invoices?per_page=1" | awk 'tolower($1)=="x-total:" {print $2}' | tr -d '\r')
  echo "[bench-scale] $engine: ${stored:-?} invoices at the end" >&2
  stop_servers
  # The one-process rates, for the engines' comparison below.
  rate_of() { echo "$1" | awk '{print $1}'; }
  printf '%s %s %s\n' "$engine" "$(rate_of "$one_list")" "$(rate_of "$one_post")" >> "$tmp/rates"
  if [ "$engine" = postgres ]; then
    echo "| one process, PostgreSQL | $one_list | $one_post |"
    echo "| two processes behind haproxy, one PostgreSQL database | $two_list | $two_post |"
  else
    echo "| one process, SQLite | $one_list | $one_post |"
    echo "| two processes behind haproxy, one SQLite file | $two_list | $two_post |"
  fi
}

echo "| setup ($(nproc) cores, $invoices invoices seeded, wrk 8 connections, ${seconds} s each) | GET /invoices?per_page=100 | POST /invoices |"
echo "|---|---|---|"
for engine in $engines; do
  bench_engine "$engine"
done
# Issue 35's budgets for PostgreSQL, against SQLite's figures of this same run: its list
# ≥ 0.8 × SQLite's and ≥ 2,400 req/s, its creations ≥ SQLite's.
if [ -f "$tmp/rates" ] && grep -q '^sqlite ' "$tmp/rates" && grep -q '^postgres ' "$tmp/rates"; then
  python3 - "$tmp/rates" <<'PY'
import sys
rates = {l.split()[0]: [float(x) for x in l.split()[1:]] for l in open(sys.argv[1])}
(sl, sp), (pl, pp) = rates["sqlite"], rates["postgres"]
def verdict(ok): return "met" if ok else "**missed**"
print()
print("| PostgreSQL against SQLite (one process, this run) | result | budget | |")
print("|---|---|---|---|")
print(f"| list, PostgreSQL / SQLite | {pl:.0f} / {sl:.0f} = {pl / sl:.2f} | ≥ 0.8 | {verdict(pl >= 0.8 * sl)} |")
print(f"| list, PostgreSQL | {pl:.0f} req/s | ≥ 2,400 req/s | {verdict(pl >= 2400)} |")
print(f"| creations, PostgreSQL / SQLite | {pp:.0f} / {sp:.0f} = {pp / sp:.2f} | ≥ 1 | {verdict(pp >= sp)} |")
PY
fi
