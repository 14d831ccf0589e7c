#!/usr/bin/env bash
# Async MDNs: HTTP 200 at once, the signed MDN POSTed later by the outbox to
# the partner's Receipt-Delivery-Option URL, retried after a failure; URLs the
# profile does not allow are refused; a retransmission queues the same MDN again.
source "$(dirname "$0")/lib.sh"
C="$REPO/partners/certs"
db="$WORK/edihub.db"
mkdir -p "$WORK/sink"
FAIL_FIRST=1 node "$(dirname "$0")/mdn_sink.js" "$WORK/sink" >"$WORK/sink.out" &
sink=$!
gateway_config "$WORK/edihub.xml" '<listen address="127.0.0.1" port="0"/>' \
  '<outbox first-retry-seconds="1" max-attempts="5"/>' '<log format="json"/>'
start_server "$WORK/edihub.xml"
trap 'kill -TERM $server $sink 2>/dev/null; wait $server $sink 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
for _ in $(seq 1 200); do
  sink_port=$(sed -n 's/^port //p' "$WORK/sink.out")
  [[ -n $sink_port ]] && break
  sleep 0.05
done
[[ -n $sink_port ]] || { echo "sink did not start"; exit 1; }

{ printf 'Content-Type: application/edi-x12\r\n\r\n'; cat "$REPO/samples/edi/x12-810-004010.edi"; } >"$WORK/entity"
openssl cms -sign -binary -md sha256 -signer "$C/acme.crt" -inkey "$C/acme.key" -in "$WORK/entity" |
  openssl cms -encrypt -binary -aes256 -out "$WORK/msg.eml" "$C/edihub.crt"
ct=$(sed -n 's/^Content-Type: //p' "$WORK/msg.eml" | head -1 | tr -d '\r')
awk 'b{print} /^\r?$/{b=1}' "$WORK/msg.eml" >"$WORK/body"
post() {  # post URL OUT: the HTTP status
  curl -s -o "$2" -w '%{http_code}' -X POST --data-binary @"$WORK/body" -H "Content-Type: $ct" \
    -H "Content-Transfer-Encoding: base64" -H "AS2-From: ACMESUPPLY" -H "AS2-To: EDIHUB" \
    -H "Message-ID: <async-1@acme.example>" -H "Receipt-Delivery-Option: $1" \
    -H "Disposition-Notification-Options: signed-receipt-protocol=optional, pkcs7-signature; signed-receipt-micalg=optional, sha-256" \
    "http://127.0.0.1:$port/as2"
}
wait_for() {  # wait_for FILE: up to 15 s
  for _ in $(seq 1 300); do [[ -s $1 ]] && return 0; sleep 0.05; done
  return 1
}

check_eq "refused URL" 403 "$(post "http://10.1.2.3/mdn" "$WORK/r0")"
grep -q "is not allowed for partner 'acme'" "$WORK/r0" || fail "refusal text: $(cat "$WORK/r0")"

check_eq "async answer" 200 "$(post "http://127.0.0.1:$sink_port/mdn" "$WORK/r1")"
check_eq "async answer body" "" "$(cat "$WORK/r1")"
wait_for "$WORK/sink/1.body" || fail "no MDN delivered (the first attempt fails, the retry comes after 1 s)"
{ grep -i '^content-type:' "$WORK/sink/1.headers" | sed 's/^content-type/Content-Type/' | tr -d '\r'; printf '\n'; cat "$WORK/sink/1.body"; } >"$WORK/mdn.eml"
openssl cms -verify -in "$WORK/mdn.eml" -CAfile "$C/edihub.crt" -purpose any -out "$WORK/report" 2>/dev/null || fail "MDN does not verify"
grep -q '^Disposition: automatic-action/MDN-sent-automatically; processed' "$WORK/report" || fail "disposition"
grep -q '^Original-Message-ID: <async-1@acme.example>' "$WORK/report" || fail "original message id"
grep -qi '^as2-to: "ACMESUPPLY"' "$WORK/sink/1.headers" || fail "AS2 headers on the async MDN: $(cat "$WORK/sink/1.headers")"
# The sink writes the MDN before it answers; the gateway records the delivery after the answer.
check_eq "one failed attempt recorded, then delivered" "delivered|2" \
  "$(sql_eventually "$db" "delivered|2" "SELECT state || '|' || attempts FROM outbox WHERE kind = 'mdn'")"

# The retransmission: the same MDN, queued again.
check_eq "retransmission answer" 200 "$(post "http://127.0.0.1:$sink_port/mdn" "$WORK/r2")"
wait_for "$WORK/sink/2.body" || fail "retransmission MDN not delivered"
cmp -s "$WORK/sink/1.body" "$WORK/sink/2.body" || fail "retransmission MDN differs"
check_eq "booked once" 1 "$(sql "$db" 'SELECT count(*) FROM invoices')"
# <log format="json">: every log line is one JSON object (the start line aside).
grep -q '"event":{"protocol":"as2","partner":"acme","message_id":"<async-1@acme.example>","outcome":"processed"' "$WORK/server.out" ||
  fail "JSON log line: $(grep async-1 "$WORK/server.out" | head -2)"
grep -q '"event":{"outbox":"retry","kind":"mdn"' "$WORK/server.out" || fail "JSON outbox retry line"
bad=$(grep '^{' "$WORK/server.out" | while read -r line; do node -e 'JSON.parse(process.argv[1])' "$line" 2>/dev/null || echo "$line"; done)
check_eq "log lines that are not JSON" "" "$bad"
finish
