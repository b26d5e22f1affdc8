#!/usr/bin/env bash
# Issue 32 § Performance: a camt.053 of 10,000 entries imported and matched against
# 100,000 stored invoices. Starts the release server given as $1 on a fresh data
# directory (SQLite), seeds KONTOR_BENCH_BANK_INVOICES invoices (default 100,000) through
# the API, writes a camt.053 whose entries pay some invoices by their payment reference,
# some by number and amount, and leave the rest to suggestions, and times
# POST /bank_statements. Prints one Markdown table row; scripts/bench.sh calls it.
#
#   scripts/bench-bank.sh target/release/kontor-server
#
# KONTOR_BENCH_BANK_REUSE=DIR keeps the seeded database and the statement in DIR and uses
# them again on the next run (profiling the import without seeding for minutes each time).
set -euo pipefail
bin="${1:?usage: scripts/bench-bank.sh SERVER_BINARY}"
invoices="${KONTOR_BENCH_BANK_INVOICES:-100000}"
entries="${KONTOR_BENCH_BANK_ENTRIES:-10000}"
reuse="${KONTOR_BENCH_BANK_REUSE:-}"
work=$(mktemp -d "${TMPDIR:-/tmp}/kontor-bench-bank.XXXXXX")
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
start_server() {
  : >"$work/out"
  KONTOR_LOG="${KONTOR_LOG:-info,kontor_server::bank=debug}" "$bin" --data "$work/data" serve --listen 127.0.0.1:0 --rate-limit 0 --dist "$work/none" \
    >"$work/out" 2>"$work/err" &
  pid=$!
  for _ in $(seq 1 100); do grep -q "Kontor is running at" "$work/out" 2>/dev/null && break; sleep 0.1; done
  base=$(sed -n 's/^Kontor is running at \(http[^ ]*\)\/$/\1/p' "$work/out")
  [ -n "$base" ] || { cat "$work/err" >&2; exit 1; }
}
stop_server() { kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""; }
if [ -n "$reuse" ] && [ -f "$reuse/body.json" ]; then
  cp -a "$reuse/data" "$work/data"
  cp "$reuse/body.json" "$reuse/seeded" "$work/"
  start_server
  key=$("$bin" --data "$work/data" keys create --name bench | tail -n1)
else
  start_server
  key=$("$bin" --data "$work/data" keys create --name bench | tail -n1)
  python3 - "$base/api/v1" "$key" "$invoices" "$entries" "$work" <<'PY'
import base64, concurrent.futures, json, random, sys, time, urllib.request
api, key, n, m = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
def call(method, path, body=None):
    req = urllib.request.Request(api + path, data=None if body is None else json.dumps(body).encode(), method=method,
        headers={"Authorization": "Token token=" + key, "Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(req, timeout=600).read() or b"null")
customer = call("POST", "/companies", {"name": "Hafen Logistik GmbH", "type": "customer"})["id"]
def one(i):
    r = call("POST", "/invoices", {"customer_id": customer, "recipient_address": "Hafen Logistik GmbH",
        "date": "2026-11-02", "due_date": "2099-12-31", "title": "Work", "tax": 19, "currency": "EUR",
        "items": [{"type": "item", "title": "Work", "quantity": 1, "unit_price": 100 + i % 900}]})
    return (r["identifier"], r["payment_reference"], r["gross_total"])
start = time.time()
with concurrent.futures.ThreadPoolExecutor(8) as ex:
    docs = list(ex.map(one, range(n)))
seeded = time.time() - start
random.seed(32)
rows = []
for k in range(m):
    number, reference, gross = docs[random.randrange(n)]
    kind = k % 3
    text = f"<Strd><CdtrRefInf><Ref>{reference}</Ref></CdtrRefInf></Strd>" if kind == 0 else \
        f"<Ustrd>Rechnung {number}</Ustrd>" if kind == 1 else f"<Ustrd>Zahlung {k}</Ustrd>"
    amount = f"{gross:.2f}" if kind != 2 else f"{random.randrange(100, 1000)}.00"
    rows.append(f"<Ntry><Amt Ccy=\"EUR\">{amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>"
        f"<BookgDt><Dt>2026-11-20</Dt></BookgDt><AcctSvcrRef>B-{k}</AcctSvcrRef><NtryDtls><TxDtls>"
        f"<RltdPties><Dbtr><Pty><Nm>Hafen Logistik</Nm></Pty></Dbtr></RltdPties><RmtInf>{text}</RmtInf></TxDtls></NtryDtls></Ntry>")
xml = ("<?xml version=\"1.0\"?><Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.08\"><BkToCstmrStmt>"
    "<GrpHdr><MsgId>B</MsgId><CreDtTm>2026-11-21T06:00:00</CreDtTm></GrpHdr><Stmt><Id>S</Id>"
    "<Acct><Id><IBAN>DE89370400440532013000</IBAN></Id></Acct>" + "".join(rows) + "</Stmt></BkToCstmrStmt></Document>")
body = {"filename": "bench.xml", "base64": base64.b64encode(xml.encode()).decode()}
json.dump(body, open(sys.argv[5] + "/body.json", "w"))
open(sys.argv[5] + "/seeded", "w").write(f"{n:,} invoices (seeded in {seeded:.0f} s), camt.053 of {m:,} entries ({len(xml) / 1e6:.1f} MB)")
PY
  if [ -n "$reuse" ]; then
    stop_server
    mkdir -p "$reuse" && rm -rf "$reuse/data" && cp -a "$work/data" "$reuse/data"
    cp "$work/body.json" "$work/seeded" "$reuse/"
    start_server
  fi
fi
python3 - "$base/api/v1" "$key" "$work" <<'PY'
import json, sys, time, urllib.request
api, key, work = sys.argv[1], sys.argv[2], sys.argv[3]
body = open(work + "/body.json", "rb").read()
req = urllib.request.Request(api + "/bank_statements", data=body, method="POST",
    headers={"Authorization": "Token token=" + key, "Content-Type": "application/json"})
start = time.time()
r = json.loads(urllib.request.urlopen(req, timeout=600).read())
took = time.time() - start
print(f"| {open(work + '/seeded').read()} "
      f"| {took:.2f} s | {r['matched']:,} booked, {r['suggested']:,} suggested, {r['duplicates']} duplicates |")
PY
grep -o 'open invoices and purchases read.*\|bank statement imported.*' "$work/err" | tail -n2 >&2 || true
