#!/usr/bin/env bash
# Runs the server's API test suite on PostgreSQL (issue 16 § 5): starts a throwaway
# cluster (scripts/pg.sh), runs the tests of `-p kontor-server -p kontor-e2e` with
# KONTOR_TEST_POSTGRES set to it (each test server gets a fresh database there), and stops
# it again. kontor-e2e only for the package set: its browser tests do not run in a plain
# `cargo test`, and the set is scripts/test.sh's, so the tests built there are reused.
#
#   scripts/test-postgres.sh                  the whole suite, two test binaries at a time
#                                             (scripts/test_lanes.py --every), slowest first
#   scripts/test-postgres.sh --test NAME ...  extra arguments go to cargo test
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d /tmp/kontor-pgsuite.XXXXXX)
trap 'bash scripts/pg.sh stop "$dir"' EXIT
url=$(bash scripts/pg.sh start "$dir")
if [ $# -eq 0 ]; then
  KONTOR_TEST_POSTGRES="$url" python3 scripts/test_lanes.py 2 kontor-server --with kontor-e2e \
    --every write_props_api mail_api inbox_api crash_safety hostile_files_api scale_out \
    purchase_import einvoice_api migrate_to sign_in_api stateless_api account_api
else
  KONTOR_TEST_POSTGRES="$url" cargo test -p kontor-server -p kontor-e2e "$@"
fi
