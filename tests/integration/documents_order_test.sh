#!/usr/bin/env bash
# The back office receives the versions of one document in the order edihub
# booked them. An invoice, its replacement and its cancellation are queued
# while the gateway is down; the ERP (tests/integration/webhook_sink.js)
# answers 500 to the original's first delivery only. The replacement and the
# cancellation wait for the original's retry instead of overtaking it, and a
# document of another number is not held by them.
source "$(dirname "$0")/lib.sh"
db="$WORK/edihub.db"
mkdir -p "$WORK/partners" "$WORK/erp" "$WORK/in"
cp -r "$REPO/partners/certs" "$WORK/partners/"
FAIL_FIRST=INV-ORD-1:20240315:original node "$REPO/tests/integration/webhook_sink.js" "$WORK/erp" >"$WORK/erp.out" 2>&1 &
sink=$!
server=""
trap 'kill $server $sink 2>/dev/null; wait 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
eventually 10 grep -q "^port" "$WORK/erp.out" || { echo "FAIL: the ERP sink did not start: $(cat "$WORK/erp.out")"; exit 1; }
erp_port=$(sed -n 's/^port //p' "$WORK/erp.out")
sed "s|</partner>|  <documents webhook=\"http://127.0.0.1:$erp_port/erp/documents\"/>\n  <acknowledgments via=\"dir\" dir=\"$WORK/acks\"/>\n</partner>|" \
  "$REPO/partners/acme.xml" >"$WORK/partners/acme.xml"
gateway_config "$WORK/edihub.xml" '<listen address="127.0.0.1" port="0"/>' \
  '<outbox first-retry-seconds="2" max-attempts="5" timeout-seconds="2" workers="4"/>'
sed -i "s|<partners dir=\"[^\"]*\"/>|<partners dir=\"$WORK/partners\"/>|" "$WORK/edihub.xml"

# invoice FILE CONTROL NUMBER BIG01 [PURPOSE]: an X12 810 in its own interchange.
invoice() {
  sed -e "s/000000201/$2/g" -e "s/^BIG\*20240315\*INV-88301\*20240305\*PO45001234~/BIG*$4*$3*20240305*PO45001234${5:+****$5}~/" \
    "$REPO/samples/edi/x12-810-004010.edi" >"$1"
}
invoice "$WORK/in/1.edi" 000000301 INV-ORD-1 20240315
invoice "$WORK/in/2.edi" 000000302 INV-ORD-1 20240320 05
invoice "$WORK/in/3.edi" 000000303 INV-ORD-1 20240325 01
invoice "$WORK/in/4.edi" 000000304 INV-ORD-2 20240315
for f in 1 2 3 4; do
  "$EDIHUB" replay --db "sqlite:$db" --partners "$WORK/partners" "$WORK/in/$f.edi" >/dev/null 2>"$WORK/replay.err" || fail "replay $f: $(cat "$WORK/replay.err")"
done
check_eq "four events queued" 4 "$(sql "$db" "SELECT count(*) FROM outbox WHERE kind = 'document'")"
check_eq "the versions of INV-ORD-1 share their order key" 3 \
  "$(sql "$db" "SELECT count(*) FROM outbox WHERE kind = 'document' AND order_key = 'invoice:acme:INV-ORD-1'")"

start_server "$WORK/edihub.xml"
delivered() { [[ $(sql "$db" "SELECT count(*) FROM outbox WHERE kind = 'document' AND state = 'delivered'") == 4 ]]; }
eventually 60 delivered ||
  fail "not all delivered: $(sql "$db" "SELECT id, order_key, state, attempts, last_error FROM outbox WHERE kind = 'document'")"
log="$WORK/erp/requests.log"
check_eq "the ERP saw INV-ORD-1's versions in booking order, the original retried once" \
  "500 invoice:acme:INV-ORD-1:20240315:original
200 invoice:acme:INV-ORD-1:20240315:original
200 invoice:acme:INV-ORD-1:20240320:replace
200 invoice:acme:INV-ORD-1:20240325:cancel" "$(grep 'INV-ORD-1:' "$log" | cut -d' ' -f1,2)"
# INV-ORD-2 is another document: delivered at once, not after INV-ORD-1's retry.
retried_original=$(grep -n '^200 invoice:acme:INV-ORD-1:20240315:original' "$log" | cut -d: -f1)
other=$(grep -n '^200 invoice:acme:INV-ORD-2:' "$log" | head -1 | cut -d: -f1)
((other < retried_original)) || fail "INV-ORD-2 waited for INV-ORD-1's retry: $(cat "$log")"
finish
