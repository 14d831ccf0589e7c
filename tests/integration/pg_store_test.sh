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

# One document by its key (what the foreign key check of every line runs, and
# the version lookup) is found through the primary key, also while the table
# has no statistics: an index on (partner_id, source) once won that tie, and
# each line's check walked every document of the partner.
for t in invoices:invoice_number shipment_notices:document_number orders:order_number order_responses:response_number; do
  table=${t%%:*} column=${t#*:}
  plan=$(pg_sql "SET plan_cache_mode = force_generic_plan;
    PREPARE one_$table(text, text) AS SELECT 1 FROM ONLY $table x WHERE partner_id = \$1 AND $column = \$2 FOR KEY SHARE OF x;
    EXPLAIN (COSTS OFF) EXECUTE one_$table('acme', 'INV-ARRAY')")
  check_eq "$table: the index for one document by its key" "${table}_pkey" \
    "$(grep -o 'Index Scan using [a-z_]*' <<<"$plan" | awk '{print $4}')"
done

# A document's lines refer to it (migration 8: statement triggers, not a
# foreign key): a line of no document is refused, a document with lines keeps
# its key, deleting a document deletes its lines.
psql_error() { psql -X -A -t -q -h 127.0.0.1 -p "$PG_PORT" -U edihub -d edihub -c "$1" 2>&1 >/dev/null | head -1; }
check_eq "a line of no invoice" \
  'ERROR:  a line of table "invoice_lines" names no row of "invoices" (partner_id, invoice_number, credit_note)' \
  "$(psql_error "INSERT INTO invoice_lines (partner_id, invoice_number, position, line_number, quantity, amount_minor)
    VALUES ('acme', 'INV-NONE', 1, 1, '1', 100)")"
check_eq "lines of one statement, one of no invoice" \
  'ERROR:  a line of table "invoice_lines" names no row of "invoices" (partner_id, invoice_number, credit_note)' \
  "$(psql_error "INSERT INTO invoice_lines (partner_id, invoice_number, position, line_number, quantity, amount_minor)
    VALUES ('acme', 'INV-ARRAY', 90, 1, '1', 100), ('acme', 'INV-NONE', 1, 1, '1', 100)")"
check_eq "a line moved to no invoice" \
  'ERROR:  a line of table "invoice_lines" names no row of "invoices" (partner_id, invoice_number, credit_note)' \
  "$(psql_error "UPDATE invoice_lines SET invoice_number = 'INV-NONE' WHERE invoice_number = 'INV-ARRAY' AND position = 1")"
check_eq "an invoice with lines keeps its number" \
  'ERROR:  a row of table "invoices" that has lines in "invoice_lines" keeps its key (partner_id, invoice_number, credit_note)' \
  "$(psql_error "UPDATE invoices SET invoice_number = 'INV-MOVED' WHERE invoice_number = 'INV-ARRAY'")"
check_eq "the refusals left the lines as they were" "3" \
  "$(pg_sql "SELECT count(*) FROM invoice_lines WHERE invoice_number = 'INV-ARRAY'")"
check_eq "an update that keeps the key" "" "$(psql_error "UPDATE invoices SET versions = versions WHERE invoice_number = 'INV-ARRAY'")"
pg_sql "DELETE FROM invoices WHERE invoice_number = 'INV-ARRAY'" >/dev/null
check_eq "deleting an invoice deletes its lines" "0" \
  "$(pg_sql "SELECT count(*) FROM invoice_lines WHERE invoice_number = 'INV-ARRAY'")"
check_eq "the four line tables, linked" "4 0" \
  "$(pg_sql "SELECT count(*) FILTER (WHERE tgname = 'edihub_lines_added'),
    (SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND conrelid::regclass::text LIKE '%_lines')
    FROM pg_trigger" | tr '|' ' ')"
finish
