#!/usr/bin/env bash
# kill -9 a long replay at random points several times, then rerun it to
# completion: every interchange processed exactly once, nothing lost.
source "$(dirname "$0")/lib.sh"
files=${FILES:-150}
make_files "$WORK/in" 1 "$files"
db="$WORK/edihub.db"
interchanges=$((files * 2))
kills=0
for round in 1 2 3 4; do
  # Started directly, so that $! is the edihub process itself (not a subshell).
  "$EDIHUB" replay --db "sqlite:$db" --partners "$REPO/partners" --lease 1s --wait 5s --json "$WORK/in" \
    >>"$WORK/out" 2>>"$WORK/err" &
  pid=$!
  # Let it get some way in (a random number of results), then kill it mid-flight.
  target=$((RANDOM % (interchanges / 2) + round * 10))
  for _ in $(seq 1 400); do
    n=$(wc -l <"$WORK/out")
    if ((n >= target)) || ! kill -0 "$pid" 2>/dev/null; then break; fi
    sleep 0.01
  done
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  # 128 + SIGKILL: it died mid-run (a run that had finished is no kill).
  (($? == 137)) && kills=$((kills + 1))
done
# The last, complete run: leases of the killed runs (1 s) are taken over.
: >"$WORK/final"
"$EDIHUB" replay --db "sqlite:$db" --partners "$REPO/partners" --lease 1s --wait 5s --json "$WORK/in" \
  >"$WORK/final" 2>>"$WORK/err"
check_eq "final run exit" 0 $?
echo "killed $kills runs"
((kills >= 2)) || fail "expected to kill at least 2 runs, killed $kills"

check_eq "final results" "$interchanges" "$(wc -l <"$WORK/final")"
check_eq "final errors" 0 "$(grep -c '"outcome":"error"\|"outcome":"rejected"\|"outcome":"conflict"' "$WORK/final")"
check_eq "completed keys" "$interchanges" "$(sql "$db" "SELECT count(*) FROM idempotency_keys WHERE state = 'completed'")"
check_eq "invoices" $((files * 3)) "$(sql "$db" 'SELECT count(*) FROM invoices')"
check_eq "invoice lines" $((files * 6)) "$(sql "$db" 'SELECT count(*) FROM invoice_lines')"
# Each business run enqueues one acknowledgment in its own transaction: one per
# key means the handling committed exactly once per interchange.
check_eq "one stored ack per key" "$interchanges" "$(sql "$db" "SELECT count(*) FROM idempotency_keys WHERE length(receipt_body) > 0")"
# Every ack takes a control number in the transaction that commits it: a
# killed run's numbers rolled back with it, so no key was acknowledged twice.
check_eq "acks numbered" "$interchanges" "$(sql "$db" "SELECT sum(value) FROM sequences WHERE name LIKE 'ack:%'")"
# The message log (stdout of a killed run may end mid-line): never two
# processed rows for one key.
check_eq "keys processed twice in the log" "" \
  "$(sql "$db" "SELECT message_id FROM messages WHERE outcome = 'processed' GROUP BY message_id HAVING count(*) > 1")"
finish
