#!/usr/bin/env bash
# Runs the server's API test suite on PostgreSQL (issue 16 § 5): starts a throwaway
# cluster (scripts/pg.sh), runs `cargo test -p kontor-server -p kontor-e2e` with
# KONTOR_TEST_POSTGRES set to it (each test server gets a fresh database there), and stops
# it again. kontor-e2e only for the package set: its browser tests do not run in a plain
# `cargo test`, and the set is scripts/test.sh's, so the tests built there are reused.
#
#   scripts/test-postgres.sh                  the whole suite
#   scripts/test-postgres.sh --test NAME ...  extra arguments go to cargo test
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d /tmp/kontor-pgsuite.XXXXXX)
trap 'bash scripts/pg.sh stop "$dir"' EXIT
url=$(bash scripts/pg.sh start "$dir")
KONTOR_TEST_POSTGRES="$url" cargo test -p kontor-server -p kontor-e2e "$@"
