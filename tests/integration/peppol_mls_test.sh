#!/usr/bin/env bash
# The Message Level Status edihub (C3) sends each sending access point (C2)
# that has an mls-url: a UBL ApplicationResponse in an SBD, over Peppol AS4,
# signed by our AP key and encrypted to the AP's certificate, through the
# outbox. The AP is the JDK peer (tests/interop/as4/WssPeer.java serve):
# independent software decrypts it, verifies our signature over every part,
# and answers a signed Receipt that edihub checks (our CA's trust, the seat's
# CN, our references repeated). Checked: AP for a booked invoice, RE with the
# rule named for one that breaks BR-CO-15 (not booked, the transport
# receipted), no second MLS for the same document under a new MessageId,
# none for FAILURE_ONLY senders when accepted, an AP without an mls-url
# still answered on the AS4 level, the partner's eb:Error failing the row,
# and kill -9 while an MLS is in flight: one MLS per document, under the one
# MessageId its row was given.
source "$(dirname "$0")/lib.sh"
source "$REPO/tests/interop/peppol/pki.sh"
source "$REPO/tests/interop/peppol/peppol.sh"
peppol_test_setup

peer=""
start_peer() {  # start_peer OUTDIR [options]: the AP POP000123 receiving our MLS; sets $peer, $peer_port
  local out=$1
  shift
  mkdir -p "$out"
  java -cp "$WORK/java" WssPeer serve 0 "$P/POP000123.pk8" "$P/POP000123.crt" "$P/POP000999.crt" "$out" "$@" \
    >"$out.log" 2>&1 &
  peer=$!
  peer_port=""
  for _ in $(seq 1 200); do
    peer_port=$(sed -n 's/.*WssPeer serving on 127.0.0.1:\([0-9]*\).*/\1/p' "$out.log")
    [[ -n $peer_port ]] && return 0
    sleep 0.05
  done
  echo "FAIL: WssPeer serve did not start: $(cat "$out.log")"
  exit 1
}
configure() {  # configure PEER_PORT
  mkdir -p "$WORK/partners"
  cat >"$WORK/partners/peppol.xml" <<XML
<partner id="peppol">
  <peppol seat="*"/>
  <peppol seat="POP000123" mls-url="http://127.0.0.1:$1/as4" mls-certificate="$P/POP000123.crt"/>
</partner>
XML
  cat >"$WORK/edihub.xml" <<XML
<edihub>
  <identity cert="$P/POP000999.crt" key="$P/POP000999.key"/>
  <store uri="sqlite:$db"/>
  <partners dir="$WORK/partners"/>
  <listen address="127.0.0.1" port="0"/>
  <outbox first-retry-seconds="1" max-attempts="6" timeout-seconds="10" workers="2"/>
  <peppol seat="POP000999" country="NO">
    <participant id="$ours" country="NO"/>
    <ap-ca file="$P/ap-ca.crt"/>
    <crl file="$P/ap-ca.crl"/>
  </peppol>
</edihub>
XML
}
new_peer() {  # new_peer OUTDIR [options]: the AP restarted so, and the profile pointing at it
  kill "$peer"
  wait "$peer" 2>/dev/null
  start_peer "$@"
  configure "$peer_port"
}
restart_server() {  # the gateway stopped and started again on its config as it is now
  kill -TERM "$server"
  wait "$server" 2>/dev/null
  start_server "$WORK/edihub.xml"
  url="http://127.0.0.1:$port/as4"
}
mls_rows() { sql "$db" "SELECT count(*) FROM outbox WHERE kind = 'mls' $1"; }
mls_rows_are() { [[ $(mls_rows "$1") == "$2" ]]; }  # mls_rows_are CONDITION COUNT
# What the MLS rows and the peer look like, for a wait that gave up.
mls_report() {
  echo "now $(($(date +%s%3N))) ms; MLS rows (id|state|attempts|next_attempt_at|last_error):"
  sql "$db" "SELECT id, state, attempts, next_attempt_at, substr(COALESCE(last_error, ''), 1, 300) FROM outbox WHERE kind = 'mls' ORDER BY id"
  local log
  for log in "$WORK"/peer*.log "$WORK"/peer*/received.log; do
    [[ -f $log ]] && echo "--- $log" && tail -5 "$log"
  done
  echo "--- gateway"
  tail -5 "$WORK/server.out"
}
wait_delivered() {  # wait_delivered N: until N MLS rows are delivered (20 s), else says what it saw
  for _ in $(seq 1 400); do (($(mls_rows "AND state = 'delivered'") >= $1)) && return; sleep 0.05; done
  fail "fewer than $1 MLS rows delivered after 20 s: $(mls_report)"
}
number() { sed -i "0,/<cbc:ID>[^<]*</s//<cbc:ID>$2</" "$WORK/$1.sbd"; }
mls_of() {  # mls_of INSTANCE: the ApplicationResponse files the peer kept for that document
  grep -l "<cbc:ID>instance-$1</cbc:ID>" "$WORK/peer"/*.1 2>/dev/null
}

start_peer "$WORK/peer"
configure "$peer_port"
start_server "$WORK/edihub.xml"
trap 'kill -9 $server 2>/dev/null; kill $peer 2>/dev/null; wait 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
url="http://127.0.0.1:$port/as4"

# --- AP: the invoice is booked, and its MLS says so.
sbd accepted invoice.xml
number accepted MLS-ACCEPTED
make_peppol accepted "$WORK/accepted.sbd" POP000123
receipted accepted
wait_delivered 1
check_eq "accepted: the MLS row delivered" 1 "$(mls_rows "AND state = 'delivered' AND reference LIKE '%instance-accepted'")"
file=$(mls_of accepted)
[[ -n $file ]] || fail "accepted: the peer kept no MLS for it: $(cat "$WORK/peer/received.log" 2>/dev/null)"
if [[ -n $file ]]; then
  grep -q '<cbc:ResponseCode>AP</cbc:ResponseCode>' "$file" || fail "accepted: not AP: $(head -c 1500 "$file")"
  grep -q '<cbc:EndpointID schemeID="0242">000999</cbc:EndpointID>' "$file" || fail "accepted: not from our SPID"
  grep -q '<cbc:EndpointID schemeID="0242">000123</cbc:EndpointID>' "$file" || fail "accepted: not to the AP's SPID"
  grep -q 'ApplicationResponse-2::ApplicationResponse##urn:peppol:edec:mls:1.0::2.1' "$file" ||
    fail "accepted: the SBDH does not name the MLS document type"
fi
grep -q ' ok 1 payload(s); signed by C=NO, O=Test AP, CN=POP000999; 1 of 1 attachment(s) decrypted' "$WORK/peer/received.log" ||
  fail "the peer did not accept our MLS as signed and encrypted: $(cat "$WORK/peer/received.log")"
grep -q '<eb:Receipt>' <(sql "$db" "SELECT receipt FROM outbox WHERE kind = 'mls' LIMIT 1") ||
  fail "the AP's Receipt was not kept: $(sql "$db" "SELECT last_error FROM outbox WHERE kind = 'mls'")"

# The same document again under a new MessageId: a Receipt, no booking, no second MLS.
cp "$WORK/accepted.sbd" "$WORK/again.sbd"
make_peppol again "$WORK/again.sbd" POP000123
receipted again
sleep 1
check_eq "again: one MLS for the document" 1 "$(mls_rows "AND reference LIKE '%instance-accepted'")"

# --- AB: with a back office (<documents>) the booked document's delivery to the end user is not yet confirmed.
sed -i "s|<peppol seat=\"\*\"/>|<peppol seat=\"*\"/><documents dir=\"$WORK/documents\"/>|" "$WORK/partners/peppol.xml"
restart_server
sbd handed invoice.xml
number handed MLS-HANDED
make_peppol handed "$WORK/handed.sbd" POP000123
receipted handed
wait_delivered 2
file=$(mls_of handed)
[[ -n $file ]] && grep -q '<cbc:ResponseCode>AB</cbc:ResponseCode>' "$file" || fail "handed: no AB MLS"

# --- RE: the totals do not add up; the transport is receipted, nothing booked, the MLS names the rule.
sbd refused broken-totals.xml -e "0,/<cbc:ID>[^<]*</s//<cbc:ID>MLS-REFUSED</"
make_peppol refused "$WORK/refused.sbd" POP000123
receipted refused
check_eq "refused: not booked" 0 "$(sql "$db" "SELECT count(*) FROM invoices WHERE invoice_number = 'MLS-REFUSED'")"
check_eq "refused: its key failed" failed \
  "$(sql "$db" "SELECT state FROM idempotency_keys WHERE message_id LIKE '%instance-refused'")"
wait_delivered 3
file=$(mls_of refused)
[[ -n $file ]] || fail "refused: the peer kept no MLS for it"
if [[ -n $file ]]; then
  grep -q '<cbc:ResponseCode>RE</cbc:ResponseCode>' "$file" || fail "refused: not RE: $(head -c 1500 "$file")"
  grep -q '<cbc:StatusReasonCode>BV</cbc:StatusReasonCode>' "$file" || fail "refused: no BV reason"
  grep -q 'BR-CO-15' "$file" || fail "refused: the rule is not named"
fi

# --- An AP without an mls-url: refusals on the AS4 level, as before.
sbd other broken-totals.xml -e "0,/<cbc:ID>[^<]*</s//<cbc:ID>MLS-OTHER</"
make_peppol other "$WORK/other.sbd" POP000127
refused other EBMS:0004 "the document breaks BR-CO-15"
check_eq "other: no MLS" 0 "$(mls_rows "AND reference LIKE '%instance-other'")"

# --- FAILURE_ONLY: an accepted document gets no MLS.
sbd quiet invoice.xml -e "s|<\([a-z:]*\)BusinessScope>|&<\1Scope><\1Type>MLS_TYPE</\1Type><\1InstanceIdentifier>FAILURE_ONLY</\1InstanceIdentifier></\1Scope>|"
number quiet MLS-QUIET
grep -q 'FAILURE_ONLY' "$WORK/quiet.sbd" || fail "could not ask for FAILURE_ONLY"
make_peppol quiet "$WORK/quiet.sbd" POP000123
receipted quiet
check_eq "quiet: booked" 1 "$(sql "$db" "SELECT count(*) FROM invoices WHERE invoice_number = 'MLS-QUIET'")"
check_eq "quiet: no MLS" 0 "$(mls_rows "AND reference LIKE '%instance-quiet'")"

# --- The AP answers an eb:Error: the row fails with its words.
new_peer "$WORK/peer-error" --error
restart_server
sbd errored invoice.xml
number errored MLS-ERRORED
make_peppol errored "$WORK/errored.sbd" POP000123
receipted errored
eventually 30 mls_rows_are "AND state = 'failed'" 1 || fail "errored: no failed MLS row after 30 s: $(mls_report)"
check_eq "errored: the row failed" 1 "$(mls_rows "AND state = 'failed' AND reference LIKE '%instance-errored'")"
sql "$db" "SELECT last_error FROM outbox WHERE kind = 'mls' AND state = 'failed'" | grep -q 'the partner answered EBMS:0004' ||
  fail "errored: $(sql "$db" "SELECT last_error FROM outbox WHERE kind = 'mls' AND state = 'failed'")"

# --- kill -9 while the MLS is in flight (the AP holds its answer 4 s), then a restart.
new_peer "$WORK/peer-slow" --delay-ms 4000
restart_server
sbd killed invoice.xml
number killed MLS-KILLED
make_peppol killed "$WORK/killed.sbd" POP000123
receipted killed
eventually 30 grep -q . "$WORK/peer-slow/received.log" 2>/dev/null ||
  fail "killed: the slow peer received nothing in 30 s: $(mls_report)"
kill -9 "$server"
wait "$server" 2>/dev/null
check_eq "killed: in flight at the kill" in-flight \
  "$(sql "$db" "SELECT state FROM outbox WHERE kind = 'mls' AND reference LIKE '%instance-killed'")"
new_peer "$WORK/peer-slow" --delay-ms 10
start_server "$WORK/edihub.xml"
# Leased for one attempt + 10 s from before the kill (about 20 s), then sent again.
eventually 90 mls_rows_are "AND state = 'delivered' AND reference LIKE '%instance-killed'" 1 ||
  fail "killed: not delivered 90 s after the restart: $(mls_report)"
check_eq "killed: delivered after the restart" 1 \
  "$(mls_rows "AND state = 'delivered' AND reference LIKE '%instance-killed'")"
check_eq "killed: one MLS row for the document" 1 "$(mls_rows "AND reference LIKE '%instance-killed'")"
row_id=$(sql "$db" "SELECT substr(message_id, 2, length(message_id) - 2) FROM outbox WHERE kind = 'mls' AND reference LIKE '%instance-killed'")
check_eq "killed: the peer saw one MessageId, the row's" "$row_id" \
  "$(cut -d' ' -f1 "$WORK/peer-slow/received.log" | sort -u)"
finish
