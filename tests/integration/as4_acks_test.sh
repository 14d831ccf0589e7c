#!/usr/bin/env bash
# Functional acknowledgments back to the partner over AS4: X12 interchanges
# arrive by AS4, their 997s go back as UserMessages to an AS4 partner
# (tests/interop/as4/partner.js) that reads them with an XML parser that is
# not ours and answers eb:Receipt or eb:Error. Checked: one MessageId per
# acknowledgment, fixed at enqueue and reused on a retry; the payload the
# partner took is the acknowledgment edihub stored (gzip with compress="true");
# the Receipt kept; an eb:Error, a Receipt for another message, a hanging or
# absent partner each end retried or failed with a reason, never resent under
# a new MessageId.
source "$(dirname "$0")/lib.sh"
NODE_DIR="$REPO/tests/interop/as4"
if [[ ! -d "$NODE_DIR/node_modules/@xmldom/xmldom" ]]; then
  (cd "$NODE_DIR" && npm ci --no-audit --no-fund --silent) || { echo "npm ci failed"; exit 1; }
fi
db="$WORK/edihub.db"
free_port() { node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close() })'; }
mkdir -p "$WORK/partners" "$WORK/received"
cp -r "$REPO/partners/certs" "$REPO/partners/staedi.xml" "$WORK/partners/"
partner_port=$(free_port)
gateway_port=$(free_port)
(cd "$NODE_DIR" && exec node partner.js "$partner_port" "$WORK/received") >"$WORK/partner.out" 2>&1 &
partner=$!
server=""
trap 'kill $server $partner 2>/dev/null; wait $server $partner 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT

# serve MODE [AS4-ATTRIBUTES] [PARTNER-PORT]: (re)starts the gateway with acme's
# AS4 endpoint at /as4/MODE; the first retry FIRST_RETRY seconds (1) after a failure.
serve() {
  [[ -n $server ]] && { kill -TERM "$server"; wait "$server" 2>/dev/null; }
  sed -e "s|<as4 party-id=\"ACMESUPPLY\" |<as4 party-id=\"ACMESUPPLY\" url=\"http://127.0.0.1:${3:-$partner_port}/as4/$1\" ${2:+$2 }|" \
    -e "s|use=\"signing\" file=\"certs/acme.crt\"|use=\"signing\" file=\"certs/${ACME_SIGNING:-acme.crt}\"|" \
    "$REPO/partners/acme.xml" >"$WORK/partners/acme.xml"
  gateway_config "$WORK/edihub.xml" "<listen address=\"127.0.0.1\" port=\"$gateway_port\"/>" \
    "<outbox first-retry-seconds=\"${FIRST_RETRY:-1}\" max-attempts=\"3\" timeout-seconds=\"2\"/>"
  sed -i "s|<partners dir=\"[^\"]*\"/>|<partners dir=\"$WORK/partners\"/>|" "$WORK/edihub.xml"
  start_server "$WORK/edihub.xml"
}
send() {  # send N: the Nth AS4 message from acme, an 856 with its own ISA13; prints the ISA13
  local ctl
  ctl=$(printf '%09d' $((900 + $1)))
  sed -e "s/000000802/$ctl/g" -e "s/as4-sample-856-802/as4-ack-$1/g" -e "s/SHP20240312802/SHP-AS4-$1/g" \
    "$REPO/samples/as4/swa-856.as4" >"$WORK/m$1"
  tail -c +$(($(head -1 "$WORK/m$1" | wc -c) + 3)) "$WORK/m$1" >"$WORK/m$1.body"
  curl -s -o "$WORK/r$1" -X POST --data-binary @"$WORK/m$1.body" \
    -H "Content-Type: $(head -1 "$WORK/m$1" | sed 's/^Content-Type: //' | tr -d '\r')" "http://127.0.0.1:$port/as4"
  echo "$ctl"
}
ack_row() { sql "$db" "SELECT $2 FROM outbox WHERE kind = '997' AND reference = 'x12:ACMESUPPLY:$1'"; }
state_is() { [[ $(ack_row "$1" state) == "$2" ]]; }
attempts_reach() { (($(ack_row "$1" attempts || true) + 0 >= $2)); }
wait_state() {  # wait_state ISA13 STATE: until the row is in STATE (60 s at most); prints its state
  eventually 60 state_is "$1" "$2"
  ack_row "$1" state
}
sent_count() { grep -c " $1 " "$WORK/received/log" 2>/dev/null || true; }

# A Receipt: delivered, once, under the MessageId fixed at enqueue.
serve receipt
c1=$(send 1)
grep -q '<eb:Receipt>' "$WORK/r1" || fail "the inbound message was not receipted: $(head -c 400 "$WORK/r1")"
check_eq "receipt: delivered" delivered "$(wait_state "$c1" delivered)"
id1=$(ack_row "$c1" message_id | tr -d '<>')
check_eq "receipt: one message for the ack" 1 "$(sent_count "$id1")"
check_eq "receipt: to the partner's party, as X12" "receipt $id1 ACMESUPPLY application/edi-x12" "$(grep " $id1 " "$WORK/received/log")"
[[ "$(ack_row "$c1" body)" == "$(cat "$WORK/received/$id1")" ]] || fail "the partner's payload is not the stored 997"
grep -q "^ST\*997\*" "$WORK/received/$id1" || fail "no 997 in what the partner took"
grep -q "AK1\*SH\*101" "$WORK/received/$id1" || fail "the 997 acknowledges the GS: $(cat "$WORK/received/$id1")"
ack_row "$c1" receipt | grep -q "<ebms:RefToMessageId>$id1</ebms:RefToMessageId></ebms:MessageInfo><ebms:Receipt>" ||
  fail "the partner's Receipt is not kept: $(ack_row "$c1" receipt | head -c 300)"

# Compressed: the partner gunzips it to the same 997.
serve receipt 'compress="true"'
c2=$(send 2)
check_eq "gzip: delivered" delivered "$(wait_state "$c2" delivered)"
id2=$(ack_row "$c2" message_id | tr -d '<>')
grep -q "^ST\*997\*" "$WORK/received/$id2" || fail "gzip: no 997 after gunzip: $(head -c 200 "$WORK/received/$id2" | od -c | head -3)"

# A 500 without a signal first: retried with the same MessageId, then delivered.
serve fail-first
c3=$(send 3)
check_eq "500 first: delivered" delivered "$(wait_state "$c3" delivered)"
id3=$(ack_row "$c3" message_id | tr -d '<>')
check_eq "500 first: the same MessageId twice" 2 "$(sent_count "$id3")"
check_eq "500 first: two attempts" 2 "$(ack_row "$c3" attempts)"

# An eb:Error: failed for the operator with the partner's code and words, not retried.
serve error
c4=$(send 4)
check_eq "eb:Error: failed" failed "$(wait_state "$c4" failed)"
check_eq "eb:Error: the reason" "the partner answered EBMS:0004 Other: no P-Mode for this service and action" \
  "$(ack_row "$c4" last_error)"
check_eq "eb:Error: sent once" 1 "$(sent_count "$(ack_row "$c4" message_id | tr -d '<>')")"

# A Receipt for another message: not ours, failed.
serve wrong-ref
c5=$(send 5)
check_eq "wrong ref: failed" failed "$(wait_state "$c5" failed)"
id5=$(ack_row "$c5" message_id | tr -d '<>')
check_eq "wrong ref: the reason" "the partner's signal refers to 'someone-else@partner.example', not '$id5'" \
  "$(ack_row "$c5" last_error)"

# Hanging, then absent: retried with the same bytes until the attempts run out.
# The retry comes 3 s after the timeout, time enough to restart the gateway
# towards the absent partner before it (a retry to the hanging one would be a
# second send there).
down_port=$(free_port)
FIRST_RETRY=3 serve hang
c6=$(send 6)
eventually 30 attempts_reach "$c6" 1 || fail "hang: no attempt within 30 s"
check_eq "hang: waiting for a retry" pending "$(ack_row "$c6" state)"
ack_row "$c6" last_error | grep -qi "timed out\|timeout" || fail "hang: $(ack_row "$c6" last_error)"
serve receipt "" "$down_port"
check_eq "down: failed after 3 attempts" failed "$(wait_state "$c6" failed)"
check_eq "down: attempts" 3 "$(ack_row "$c6" attempts)"
check_eq "hang + down: one MessageId, sent once to the hanging partner" 1 \
  "$(sent_count "$(ack_row "$c6" message_id | tr -d '<>')")"
# The operator fixes the URL and retries: the same bytes reach the partner.
serve receipt
"$EDIHUB" outbox retry "$(ack_row "$c6" id)" --db "sqlite:$db" >/dev/null || fail "outbox retry"
check_eq "retried by the operator: delivered" delivered "$(wait_state "$c6" delivered)"
check_eq "the same MessageId as before" 2 "$(sent_count "$(ack_row "$c6" message_id | tr -d '<>')")"

# Signed and encrypted (<as4 sign encrypt>): the JDK peer (WssPeer serve) as acme
# decrypts the 997, verifies our signature over every part and answers a signed
# Receipt, which edihub checks against acme's signing certificate.
command -v javac >/dev/null || { echo "javac is not installed (tools/setup installs it)"; exit 1; }
javac -d "$WORK/java" "$REPO/tests/interop/as4/WssPeer.java" || fail "javac WssPeer"
C="$REPO/partners/certs"
openssl pkcs8 -topk8 -nocrypt -outform DER -in "$C/acme.key" -out "$WORK/acme.pk8"
# Not in a $(...): the peer's pid must reach `peers`, so that the trap stops it
# (a peer left running outlives the test and holds what it inherited).
wss_peer() {  # wss_peer KEY CERT OUTDIR: the peer answering with KEY/CERT; sets $peer_port
  java -cp "$WORK/java" WssPeer serve 0 "$1" "$2" "$C/edihub.crt" "$3" >"$3.log" 2>&1 &
  peers+=($!)
  peer_port=""
  for _ in $(seq 1 200); do
    peer_port=$(sed -n 's/.*WssPeer serving on 127.0.0.1:\([0-9]*\).*/\1/p' "$3.log")
    [[ -n $peer_port ]] && return 0
    sleep 0.05
  done
  fail "WssPeer serve did not start: $(cat "$3.log")"
}
peers=()
trap 'kill $server $partner "${peers[@]}" 2>/dev/null; wait 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
mkdir -p "$WORK/wss" "$WORK/wss-wrong"
wss_peer "$WORK/acme.pk8" "$C/acme.crt" "$WORK/wss"
serve wss 'sign="true" encrypt="true"' "$peer_port"
c7=$(send 7)
check_eq "signed+encrypted: delivered" delivered "$(wait_state "$c7" delivered)"
id7=$(ack_row "$c7" message_id | tr -d '<>')
grep -q "^$id7 ok 1 payload(s); signed by .*CN=EDIHUB.*; 1 of 1 attachment(s) decrypted" "$WORK/wss/received.log" ||
  fail "signed+encrypted: the peer did not take it so: $(cat "$WORK/wss/received.log")"
[[ "$(ack_row "$c7" body)" == "$(cat "$WORK/wss/$id7.1")" ]] || fail "signed+encrypted: the peer's payload is not the 997"
ack_row "$c7" receipt | grep -q 'ebbp:NonRepudiationInformation' || fail "signed+encrypted: no signed Receipt kept"
# A Receipt signed by a certificate acme's profile does not list (it names another): not proof, failed.
wss_peer "$WORK/acme.pk8" "$C/acme.crt" "$WORK/wss-wrong"
ACME_SIGNING=edihub.crt serve wss 'sign="true" encrypt="true"' "$peer_port"
grep -q 'use="signing" file="certs/edihub.crt"' "$WORK/partners/acme.xml" || fail "could not change acme's signing certificate"
c8=$(send 8)
check_eq "wrong Receipt signer: failed" failed "$(wait_state "$c8" failed)"
ack_row "$c8" last_error | grep -q "the partner's Receipt is not signed as it must be (EBMS:0101): .*is not trusted: it is not one of partner 'acme''s signing certificates" ||
  fail "wrong Receipt signer: $(ack_row "$c8" last_error)"
finish
