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

# A document's lines go in as arrays (one statement): values with quotes,
# backslashes, commas and braces come back as they were.
sed -e 's/000000201/000000301/g' -e 's/INV-88301/INV-ARRAY/' -e 's/^IT1\*1\*24\*EA\*12.50\*\*UP\*012345678905/IT1*1*24*EA*12.50**UP*A"B\\C,{D} E/' \
  "$REPO/samples/edi/x12-810-004010.edi" >"$WORK/array.edi"
"$EDIHUB" replay --db "$PG_URI" --partners "$REPO/partners" "$WORK/array.edi" >/dev/null || fail "replay on PostgreSQL"
check_eq "a line's item id, as sent" 'A"B\C,{D} E' \
  "$(pg_sql "SELECT item_id FROM invoice_lines WHERE invoice_number = 'INV-ARRAY' AND position = 1")"
check_eq "the other lines, in order" "2|012345678912 3|012345678929" \
  "$(pg_sql "SELECT string_agg(line_number || '|' || COALESCE(NULLIF(item_id, ''), '-'), ' ' ORDER BY position) FROM invoice_lines WHERE invoice_number = 'INV-ARRAY' AND position > 1" | head -1)"
finish
