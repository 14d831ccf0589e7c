#!/usr/bin/env bash
# The store contract tests and the gate's rules (tests/unit/store_test.cpp,
# gate_test.cpp, intake_test.cpp) on PostgreSQL: the same suite as on SQLite,
# each test on a database of its own in a private cluster.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/pg.sh"
trap 'pg_stop; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
pg_start
EDIHUB_TEST_PG="$PG_SERVER" "$STORE_TEST" 2>&1 | tail -25
status=${PIPESTATUS[0]}
((status == 0)) || fail "the store contract on PostgreSQL (exit $status)"
finish
