#!/usr/bin/env bash
# `edihub replay` as an operator uses it: outcomes, JSON lines, exit codes,
# duplicates that change no business row, rejected files, unknown senders.
source "$(dirname "$0")/lib.sh"
db="$WORK/edihub.db"
cd "$REPO"

out=$("$EDIHUB" replay --db "sqlite:$db" --json samples/edi/x12-810-004010.edi samples/edi/edifact-invoic-d96a.edi)
check_eq "first replay exit" 0 $?
check_eq "processed lines" 2 "$(grep -c '"outcome":"processed"' <<<"$out")"
grep -q '"file":"samples/edi/x12-810-004010.edi","partner":"acme","message_id":"x12:ACMESUPPLY:000000201","outcome":"processed","documents":1' <<<"$out" ||
  fail "JSON line for the 810: $out"
check_eq "invoices after first replay" 3 "$(sql "$db" 'SELECT count(*) FROM invoices')"
before=$(sql "$db" 'SELECT group_concat(invoice_number || updated_at) FROM invoices')

out=$("$EDIHUB" replay --db "sqlite:$db" --json samples/edi/x12-810-004010.edi samples/edi/edifact-invoic-d96a.edi)
check_eq "second replay exit" 0 $?
check_eq "duplicate lines" 2 "$(grep -c '"outcome":"duplicate"' <<<"$out")"
check_eq "business rows unchanged" "$before" "$(sql "$db" 'SELECT group_concat(invoice_number || updated_at) FROM invoices')"
check_eq "acks stored once per interchange" 2 "$(sql "$db" "SELECT count(*) FROM idempotency_keys WHERE length(receipt_body) > 0")"
# Acknowledgments have no destination yet: they are the keys' receipts, not outbox rows nobody takes.
check_eq "no undeliverable outbox rows" 0 "$(sql "$db" 'SELECT count(*) FROM outbox')"

# A broken file: rejected, exit 1, its negative acknowledgment kept for retransmissions.
"$EDIHUB" replay --db "sqlite:$db" samples/edi/broken-x12-se-count.edi >"$WORK/out" 2>&1
check_eq "rejected exit" 1 $?
grep -q 'rejected x12:ACMESUPPLY:000000901 (partner acme): SE01_COUNT: SE01 is' "$WORK/out" || fail "rejected line: $(cat "$WORK/out")"
check_eq "failed key" failed "$(sql "$db" "SELECT state FROM idempotency_keys WHERE message_id = 'x12:ACMESUPPLY:000000901'")"

# Same control number, different content: conflict, exit 1, nothing booked.
sed 's/INV-88301/INV-CHANGED/' samples/edi/x12-810-004010.edi >"$WORK/changed.edi"
"$EDIHUB" replay --db "sqlite:$db" "$WORK/changed.edi" >"$WORK/out" 2>&1
check_eq "conflict exit" 1 $?
grep -q 'conflict x12:ACMESUPPLY:000000201' "$WORK/out" || fail "conflict line: $(cat "$WORK/out")"
check_eq "no INV-CHANGED" 0 "$(sql "$db" "SELECT count(*) FROM invoices WHERE invoice_number = 'INV-CHANGED'")"

# A credit note numbered and dated as the invoice (BIG07 CR), in a new
# interchange: a document of its own, not an older version of the invoice.
sed -e 's/000000201/000000202/g' -e 's/^BIG\*20240315\*INV-88301\*20240305\*PO45001234~/BIG*20240315*INV-88301*20240305*PO45001234***CR~/' \
  samples/edi/x12-810-004010.edi >"$WORK/credit.edi"
out=$("$EDIHUB" replay --db "sqlite:$db" --json "$WORK/credit.edi")
check_eq "credit note exit" 0 $?
grep -q '"outcome":"processed","documents":1' <<<"$out" || fail "credit note JSON line: $out"
check_eq "the invoice and the credit note numbered alike" "0|1" \
  "$(sql "$db" "SELECT group_concat(credit_note, '|') FROM (SELECT credit_note FROM invoices WHERE invoice_number = 'INV-88301' ORDER BY credit_note)")"
check_eq "each with its lines" "$(( 2 * $(sql "$db" "SELECT count(*) FROM invoice_lines WHERE invoice_number = 'INV-88301' AND credit_note = 0") ))" \
  "$(sql "$db" "SELECT count(*) FROM invoice_lines WHERE invoice_number = 'INV-88301'")"

# Unknown sender: rejected with the id named.
sed 's/ACMESUPPLY     /STRANGER       /' samples/edi/x12-856-004010.edi >"$WORK/stranger.edi"
"$EDIHUB" replay --db "sqlite:$db" "$WORK/stranger.edi" >"$WORK/out" 2>&1
check_eq "unknown sender exit" 1 $?
grep -q 'unknown sender ZZ:STRANGER' "$WORK/out" || fail "unknown sender line: $(cat "$WORK/out")"

# A directory: its regular files, sorted; the message log has one row per result.
mkdir -p "$WORK/dir"
cp samples/edi/x12-856-004010.edi samples/edi/two-interchanges.edi "$WORK/dir/"
out=$("$EDIHUB" replay --db "sqlite:$db" --json "$WORK/dir")
check_eq "directory exit" 0 $?
check_eq "directory results" 3 "$(wc -l <<<"$out")"
check_eq "shipment notices" 2 "$(sql "$db" 'SELECT count(*) FROM shipment_notices')"

# Usage and store errors.
"$EDIHUB" replay --db "sqlite:$db" >/dev/null 2>&1
check_eq "no PATH" 2 $?
"$EDIHUB" replay --db "sqlite:$db" --lease soon samples/edi/x12-856-004010.edi >/dev/null 2>&1
check_eq "bad duration" 2 $?
"$EDIHUB" replay --db "sqlite:/proc/nope/x.db" samples/edi/x12-856-004010.edi >/dev/null 2>"$WORK/err"
check_eq "store unavailable" 3 $?

# File-system trouble is a named error with an exit code, never a crash:
# a symlink loop in a replayed directory, in the partners directory, or given itself.
mkdir -p "$WORK/loopy" "$WORK/loopy-partners"
ln -s loop "$WORK/loopy/loop"
"$EDIHUB" replay --db "sqlite:$db" "$WORK/loopy" >/dev/null 2>"$WORK/err"
check_eq "symlink loop in a replayed directory: exit" 2 $?
grep -q "loopy/loop: .*Too many levels of symbolic links" "$WORK/err" || fail "loop message: $(cat "$WORK/err")"
ln -s loop.xml "$WORK/loopy-partners/loop.xml"
"$EDIHUB" replay --db "sqlite:$db" --partners "$WORK/loopy-partners" samples/edi/x12-856-004010.edi >/dev/null 2>"$WORK/err"
check_eq "symlink loop in the partners directory: exit" 2 $?
grep -q "loop.xml" "$WORK/err" || fail "partners loop message: $(cat "$WORK/err")"
gateway_config "$WORK/loopy.xml" '<listen address="127.0.0.1" port="0"/>'
sed -i "s|<partners dir=\"[^\"]*\"/>|<partners dir=\"$WORK/loopy-partners\"/>|" "$WORK/loopy.xml"
timeout 10 "$EDIHUB" serve --config "$WORK/loopy.xml" >/dev/null 2>"$WORK/err"
check_eq "serve with a looping partners directory: exit" 2 $?
grep -q "loop.xml" "$WORK/err" || fail "serve loop message: $(cat "$WORK/err")"

# A failed interchange replayed: processed again each time (the cause may have been
# fixed) until it has failed 5 times; then poison, decided by the gate's claim in
# the transaction (a replayed file has no quicker look-up before it).
sed 's/000000901/000000994/g' samples/edi/broken-x12-se-count.edi >"$WORK/poison.edi"
for i in 1 2 3 4 5; do
  "$EDIHUB" replay --db "sqlite:$db" --json "$WORK/poison.edi" >"$WORK/poison.$i" 2>/dev/null
  check_eq "failed interchange, replay $i" rejected "$(sed -n 's/.*"outcome":"\([a-z-]*\)".*/\1/p' "$WORK/poison.$i")"
done
"$EDIHUB" replay --db "sqlite:$db" --json "$WORK/poison.edi" >"$WORK/poison.6" 2>/dev/null
check_eq "the 6th replay: poison" poison "$(sed -n 's/.*"outcome":"\([a-z-]*\)".*/\1/p' "$WORK/poison.6")"
grep -q '"detail":"failed 5 times: answered with the stored negative acknowledgment"' "$WORK/poison.6" ||
  fail "poison detail: $(cat "$WORK/poison.6")"
check_eq "poison: the key's failures" 5 "$(sql "$db" "SELECT failures FROM idempotency_keys WHERE message_id = 'x12:ACMESUPPLY:000000994'")"

# A replay queues acknowledgments that only an outbox worker sends: it says so, and
# `edihub outbox run` delivers them from this process (no server running).
mkdir -p "$WORK/ack-partners"
cp -r "$REPO/partners/certs" "$WORK/ack-partners/"
sed "s|</partner>|<acknowledgments via=\"dir\" dir=\"$WORK/acks\"/></partner>|" "$REPO/partners/acme.xml" >"$WORK/ack-partners/acme.xml"
gateway_config "$WORK/acks.xml"
sed -i -e "s|<partners dir=\"[^\"]*\"/>|<partners dir=\"$WORK/ack-partners\"/>|" -e "s|$WORK/edihub.db|$WORK/acks.db|" "$WORK/acks.xml"
"$EDIHUB" replay --config "$WORK/acks.xml" samples/edi/x12-810-005010.edi >/dev/null 2>"$WORK/err"
check_eq "replay with --config: the config's store" 1 "$(sql "$WORK/acks.db" "SELECT count(*) FROM invoices")"
check_eq "replay says who delivers what it queued" \
  "edihub replay: 1 outbox row is queued (acknowledgments to partners, documents to the back office): a running \`edihub serve\` on this store delivers them, or \`edihub outbox run --config $WORK/acks.xml\` now" \
  "$(cat "$WORK/err")"
check_eq "nothing delivered yet" 0 "$(ls "$WORK/acks" 2>/dev/null | wc -l)"
"$EDIHUB" outbox run --config "$WORK/acks.xml" >"$WORK/run.out" 2>&1
check_eq "outbox run: exit" 0 $?
check_eq "outbox run: what it did" "outbox run: 1 delivered, 0 sent (their MDNs come to a running edihub serve), 0 to retry later, 0 failed" \
  "$(grep '^outbox run' "$WORK/run.out")"
grep -q '^ST\*999\*' "$WORK"/acks/*.999 || fail "the 999 in the directory: $(ls "$WORK/acks")"
check_eq "the row delivered" delivered "$(sql "$WORK/acks.db" "SELECT state FROM outbox")"

# status reports what is there.
status=$("$EDIHUB" status --db "sqlite:$db" --json)
grep -q '"partner":"acme","protocol":"x12","state":"completed"' <<<"$status" || fail "status: $status"
# (4 invoices and the credit note numbered as one of them)
grep -q '"invoices":5' <<<"$status" || fail "status rows: $status"
finish
