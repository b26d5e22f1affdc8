#!/usr/bin/env bash
# Independent Python oracles for crates/bank (the bank statement reader): a venv at
# $HOME/.cache/kontor/bank-oracles with pinned versions of
#   mt-940  (module mt940)  - reads SWIFT MT940 incl. the German :86: ?-subfields
#   pycamt  (module pycamt) - reads ISO 20022 camt.053
# Idempotent: creates the venv only if missing and installs only what is not at the pin.
# Prints the venv's python path on its last line (crates/bank/tests/oracles.rs reads it).
set -euo pipefail
venv="${KONTOR_BANK_ORACLES:-$HOME/.cache/kontor/bank-oracles}"
pins=("mt-940==5.1.1" "pycamt==1.1.1")
if [ ! -x "$venv/bin/python" ]; then
  mkdir -p "$(dirname "$venv")"
  python3 -m venv "$venv" >&2
fi
if ! "$venv/bin/python" - "${pins[@]}" <<'PY' >/dev/null 2>&1
import sys
from importlib.metadata import version
for pin in sys.argv[1:]:
    name, want = pin.split("==")
    assert version(name) == want, pin
PY
then
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${pins[@]}" >&2
fi
echo "$venv/bin/python"
