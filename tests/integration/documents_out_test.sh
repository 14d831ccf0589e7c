#!/usr/bin/env bash
# Booked documents on to the back office: every document version reaches the
# ERP's webhook (tests/integration/webhook_sink.js) once, under an
# Idempotency-Key that names the version and stays the same across retries
# and a kill -9 of the gateway; a replacement and a cancellation are new
# versions; a replayed interchange and an older version are no event.
# Acknowledgments go to a directory meanwhile (atomic drops, one per interchange).
source "$(dirname "$0")/lib.sh"
db="$WORK/edihub.db"
mkdir -p "$WORK/partners" "$WORK/erp" "$WORK/originals" "$WORK/later"
cp -r "$REPO/partners/certs" "$REPO/partners/staedi.xml" "$WORK/partners/"
# 50 ms per accepted delivery: the 60 retries take longer than one poll below,
# even on a loaded machine (they once all landed between two polls, and the kill
# tested nothing).
node "$REPO/tests/integration/webhook_sink.js" "$WORK/erp" 50 >"$WORK/erp.out" 2>&1 &
sink=$!
server=""
trap 'kill -9 $server 2>/dev/null; kill $sink 2>/dev/null; wait 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
for _ in $(seq 1 100); do grep -q "^port" "$WORK/erp.out" && break; sleep 0.05; done
erp_port=$(sed -n 's/^port //p' "$WORK/erp.out")
sed "s|</partner>|  <documents webhook=\"http://127.0.0.1:$erp_port/erp/documents\"/>\n  <acknowledgments via=\"dir\" dir=\"$WORK/acks\"/>\n</partner>|" \
  "$REPO/partners/acme.xml" >"$WORK/partners/acme.xml"
gateway_config "$WORK/edihub.xml" '<listen address="127.0.0.1" port="0"/>' \
  '<outbox first-retry-seconds="1" max-attempts="8" timeout-seconds="2" workers="4"/>'
sed -i "s|<partners dir=\"[^\"]*\"/>|<partners dir=\"$WORK/partners\"/>|" "$WORK/edihub.xml"

# invoice FILE CONTROL NUMBER BIG01 [PURPOSE]: an X12 810 in its own interchange.
invoice() {
  sed -e "s/000000201/$2/g" -e "s/^BIG\*20240315\*INV-88301\*20240305\*PO45001234~/BIG*$4*$3*20240305*PO45001234${5:+****$5}~/" \
    "$REPO/samples/edi/x12-810-004010.edi" >"$1"
}
for i in $(seq 1 60); do invoice "$WORK/originals/$i.edi" "$(printf '%09d' $((700 + i)))" "INV-W$i" 20240315; done
for i in $(seq 1 10); do invoice "$WORK/later/r$i.edi" "$(printf '%09d' $((800 + i)))" "INV-W$i" 20240320 05; done
for i in $(seq 11 15); do invoice "$WORK/later/c$i.edi" "$(printf '%09d' $((900 + i)))" "INV-W$i" 20240325 01; done
invoice "$WORK/later/same-version.edi" 000000999 INV-W20 20240315  # a new interchange, a version already booked
replay() { "$EDIHUB" replay --db "sqlite:$db" --partners "$WORK/partners" "$@" >/dev/null; }
replay "$WORK/originals" || fail "replay of the originals"
check_eq "originals: one event each, queued with the booking" 60 "$(sql "$db" "SELECT count(*) FROM outbox WHERE kind = 'document'")"

# Delivery, killed -9 part-way.
start_server "$WORK/edihub.xml"
for _ in $(seq 1 400); do
  (( $(sql "$db" "SELECT count(*) FROM outbox WHERE kind = 'document' AND state = 'delivered'") >= 15 )) && break
  sleep 0.05
done
kill -9 "$server"; wait "$server" 2>/dev/null
delivered_before=$(sql "$db" "SELECT count(*) FROM outbox WHERE kind = 'document' AND state = 'delivered'")
(( delivered_before < 60 )) || fail "the kill came after everything was delivered: nothing tested"

# While it is down: replacements, cancellations, the originals again, a version already booked.
replay "$WORK/later" || fail "replay of the later versions"
replay "$WORK/originals"
check_eq "later versions: one event each, nothing for duplicates or a version already booked" 75 \
  "$(sql "$db" "SELECT count(*) FROM outbox WHERE kind = 'document'")"

# The rows in flight at the kill are leased for one attempt (2 s) + 10 s, then sent again.
start_server "$WORK/edihub.xml"
all_delivered() { [[ $(sql "$db" "SELECT count(*) FROM outbox WHERE state = 'delivered'") == 151 ]]; }
eventually 90 all_delivered
check_eq "all 75 events and 76 acknowledgments delivered after the restart" 151 \
  "$(sql "$db" "SELECT count(*) FROM outbox WHERE state = 'delivered'")"
log="$WORK/erp/requests.log"
# The ERP deduplicates by Idempotency-Key: it has each version once. A row
# the ERP accepted just before the kill, not yet recorded, comes again under
# its key: at most one per delivery worker.
check_eq "the ERP has every version" 75 "$(grep '^200 ' "$log" | cut -d' ' -f2 | sort -u | wc -l)"
again=$(( $(grep -c '^200 ' "$log") - 75 ))
(( again <= 4 )) || fail "$again versions were accepted twice: more than the 4 rows in flight at the kill"
check_eq "distinct Idempotency-Keys" 75 "$(cut -d' ' -f2 "$log" | sort -u | wc -l)"
check_eq "one body per key, on every retry and after the restart" 75 "$(cut -d' ' -f2,3 "$log" | sort -u | wc -l)"
check_eq "the keys are the outbox's" "$(sql "$db" "SELECT message_id FROM outbox WHERE kind = 'document'" | LC_ALL=C sort)" \
  "$(grep '^200 ' "$log" | cut -d' ' -f2 | LC_ALL=C sort -u)"
# The key's form (it may be among the rows accepted twice around the kill: counted distinct).
check_eq "a version's key" 1 "$(grep '^200 ' "$log" | cut -d' ' -f2 | sort -u | grep -cx 'invoice:acme:INV-W3:20240315:original')"
check_eq "a replacement is a new key" 1 "$(grep -c '^200 invoice:acme:INV-W3:20240320:replace ' "$log")"
check_eq "a cancellation is a new key" 1 "$(grep -c '^200 invoice:acme:INV-W12:20240325:cancel ' "$log")"
body=$(grep -l '"id":"invoice:acme:INV-W3:20240320:replace"' "$WORK"/erp/*.json | head -1)
[[ -n $body ]] || fail "no body for the replacement"
grep -q '"applied":"replaced"' "$body" || fail "replacement body: $(cat "$body")"
grep -q '"source":"x12:ACMESUPPLY:000000803"' "$body" || fail "replacement source: $(cat "$body")"
grep -q '"total_minor":[0-9]' "$body" || fail "money as integer minor units: $(cat "$body")"
grep -q '"lines":\[{"line_number":1' "$body" || fail "the lines: $(cat "$body")"
# The whole message beside the booked fields: its canonical document, every segment with its names.
grep -q '"message":{"schema":"edihub-document/1","standard":"x12","version":"004010","type":"810","name":"Invoice"' "$body" ||
  fail "the canonical document: $(head -c 400 "$body")"
grep -q '{"tag":"TDS","position":[0-9]*,"name":"Total Monetary Value Summary","elements":\[{"position":1,"ref":"610"' "$body" ||
  fail "the canonical document's TDS: $(grep -o '"tag":"TDS".\{0,120\}' "$body")"
# Acknowledgments: one 997 file per interchange processed (75 + the one with a version already booked).
check_eq "acknowledgment files" 76 "$(ls "$WORK/acks" | grep -c '\.997$')"
check_eq "no temporary files left" 0 "$(ls -a "$WORK/acks" | grep -c '^\.tmp')"
grep -q "^ST\*997\*" "$WORK/acks/$(ls "$WORK/acks" | head -1)" || fail "not a 997: $(ls "$WORK/acks" | head -1)"

# The gateway's <documents> for a partner whose profile names none (the corpus partner), not for acme.
gateway_config "$WORK/default.xml" "<documents dir=\"$WORK/erp-drop\"/>" \
  '<edi><x12 qualifier="ZZ" id="RECEIVERISA"/></edi>'  # what the corpus file is addressed to
sed -i "s|<partners dir=\"[^\"]*\"/>|<partners dir=\"$WORK/partners\"/>|" "$WORK/default.xml"
replay --config "$WORK/default.xml" "$REPO/tests/corpus/staedi/x12_simple810.edi" || fail "replay with the gateway default"
check_eq "the gateway's default" "dir|$WORK/erp-drop" \
  "$(sql "$db" "SELECT DISTINCT channel || '|' || destination FROM outbox WHERE kind = 'document' AND partner_id = 'corpus'")"
finish
