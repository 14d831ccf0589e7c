#!/usr/bin/env bash
# 8 `edihub replay` processes at once on the same files and database: exactly
# one processed outcome per interchange, all others duplicate, exact business
# row counts, no "database is locked".
source "$(dirname "$0")/lib.sh"
files=${FILES:-100}  # numbers; 2 files and 3 invoices each
make_files "$WORK/in" 1 "$files"
db="$WORK/edihub.db"
"$EDIHUB" status --db "sqlite:$db" >/dev/null  # create the schema once

pids=()
for w in 1 2 3 4 5 6 7 8; do
  "$EDIHUB" replay --db "sqlite:$db" --partners "$REPO/partners" --json "$WORK/in" \
    >"$WORK/out.$w" 2>"$WORK/err.$w" &
  pids+=($!)
done
for w in 1 2 3 4 5 6 7 8; do
  wait "${pids[$((w - 1))]}"
  check_eq "worker $w exit" 0 $?
done

interchanges=$((files * 2))
cat "$WORK"/out.* >"$WORK/all"
check_eq "results" $((interchanges * 8)) "$(wc -l <"$WORK/all")"
check_eq "processed" "$interchanges" "$(grep -c '"outcome":"processed"' "$WORK/all")"
check_eq "duplicate" $((interchanges * 7)) "$(grep -c '"outcome":"duplicate"' "$WORK/all")"
check_eq "keys with more than one processed" "" \
  "$(grep '"outcome":"processed"' "$WORK/all" | grep -o '"message_id":"[^"]*"' | sort | uniq -d)"
check_eq "invoices" $((files * 3)) "$(sql "$db" 'SELECT count(*) FROM invoices')"
check_eq "invoice lines" $((files * 6)) "$(sql "$db" 'SELECT count(*) FROM invoice_lines')"
check_eq "one stored ack per key" "$interchanges" "$(sql "$db" "SELECT count(*) FROM idempotency_keys WHERE length(receipt_body) > 0")"
# Every ack takes a control number in the committing transaction: one each.
check_eq "acks numbered" "$interchanges" "$(sql "$db" "SELECT sum(value) FROM sequences WHERE name LIKE 'ack:%'")"
check_eq "completed keys" "$interchanges" "$(sql "$db" "SELECT count(*) FROM idempotency_keys WHERE state = 'completed'")"
if grep -qi 'locked\|busy' "$WORK"/err.* "$WORK/all"; then
  fail "database is locked / busy seen: $(grep -hi 'locked\|busy' "$WORK"/err.* "$WORK/all" | head -3)"
fi
finish
