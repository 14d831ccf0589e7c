#!/usr/bin/env bash
# What a message may act on follows from who was authenticated on the wire:
# over the real server, as a hostile partner would try it. widgetco (signed
# AS2, its own certificate) sends interchanges in acme's name over AS2 and
# AS4, X12 and EDIFACT; acme addresses one to another hub; a VAN sends for
# acme, as its profile allows; copies that prove no sender try to poison
# acme's keys; forged async MDNs try to settle outbox rows; a capture's
# credentials and its recorded partner. After each refusal the genuine
# partner's own message goes through: nothing of its was burnt.
source "$(dirname "$0")/lib.sh"
C="$REPO/partners/certs"
P="$WORK/partners"
db="$WORK/edihub.db"
mkdir -p "$P/certs" "$WORK/acks-acme" "$WORK/acks-van"
cp "$C"/* "$P/certs/"
for who in widgetco van; do
  openssl req -x509 -newkey rsa:2048 -nodes -keyout "$P/certs/$who.key" -out "$P/certs/$who.crt" -days 30 \
    -subj "/CN=$who" 2>/dev/null
done
van_hash=$(printf 'van-password-1\n' | "$EDIHUB" hash-password)
sed "s|</partner>|  <acknowledgments via=\"dir\" dir=\"$WORK/acks-acme\"/>\n</partner>|" "$REPO/partners/acme.xml" >"$P/acme.xml"
cat >"$P/widgetco.xml" <<EOF
<partner id="widgetco">
  <x12 qualifier="ZZ" id="WIDGETCO"/>
  <edifact id="4000000000017" qualifier="14"/>
  <as2 id="WIDGETCO" url="http://127.0.0.1:9/as2"/>
  <as4 party-id="WIDGETCO" type="urn:oasis:names:tc:ebcore:partyid-type:unregistered"/>
  <certificate use="signing" file="certs/widgetco.crt"/>
  <certificate use="encryption" file="certs/widgetco.crt"/>
  <security require-signature="true"/>
  <security protocol="as4" require-signature="false"/>
  <acknowledgments via="as2" mdn="async"/>
  <documents webhook="http://127.0.0.1:9/erp"/>
</partner>
EOF
cat >"$P/van.xml" <<EOF
<partner id="van">
  <x12 qualifier="ZZ" id="VANHUB"/>
  <as2 id="VANHUB"/>
  <certificate use="signing" file="certs/van.crt"/>
  <sends-for partner="acme"/>
  <auth basic-user="van" basic-password-hash="$van_hash"/>
  <acknowledgments via="dir" dir="$WORK/acks-van"/>
</partner>
EOF
gateway_config "$WORK/edihub.xml" '<listen address="127.0.0.1" port="0" public-url="http://127.0.0.1:1/as2"/>' \
  '<outbox first-retry-seconds="3600" max-attempts="3" timeout-seconds="2"/>' \
  '<edi><x12 qualifier="ZZ" id="EDIHUB"/><edifact id="5400000000009" qualifier="14"/></edi>'
sed -i "s|<partners dir=\"[^\"]*\"/>|<partners dir=\"$P\"/>|" "$WORK/edihub.xml"
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
start_server "$WORK/edihub.xml"

# as2_msg NAME EDI TYPE [CERT KEY]: the EDI signed by CERT (none: unsigned) and
# encrypted to us, as $WORK/NAME.body with its Content-Type in $WORK/NAME.ct.
as2_msg() {
  { printf 'Content-Type: %s\r\n\r\n' "$3"; cat "$2"; } >"$WORK/$1.entity"
  if [[ $# -ge 5 ]]; then
    openssl cms -sign -binary -md sha256 -signer "$4" -inkey "$5" -in "$WORK/$1.entity" -out "$WORK/$1.signed"
  else
    cp "$WORK/$1.entity" "$WORK/$1.signed"
  fi
  openssl cms -encrypt -binary -aes256 -in "$WORK/$1.signed" -out "$WORK/$1.eml" "$C/edihub.crt"
  awk 'b{print} /^\r?$/{b=1}' "$WORK/$1.eml" >"$WORK/$1.body"
  sed -n 's/^Content-Type: //p' "$WORK/$1.eml" | head -1 | tr -d '\r' >"$WORK/$1.ct"
}
# as2_post NAME AS2-FROM MESSAGE-ID OUT [curl options]: the HTTP status.
as2_post() {
  curl -s -D "$4.headers" -o "$4" -w '%{http_code}' -X POST --data-binary @"$WORK/$1.body" \
    -H "Content-Type: $(cat "$WORK/$1.ct")" -H "Content-Transfer-Encoding: base64" -H "AS2-From: $2" \
    -H "AS2-To: EDIHUB" -H "Message-ID: $3" \
    -H "Disposition-Notification-Options: signed-receipt-protocol=optional, pkcs7-signature; signed-receipt-micalg=optional, sha-256" \
    "${@:5}" "http://127.0.0.1:$port/as2"
}
# report OUT: the MDN's report, which must verify against our certificate.
report() {
  { grep -i '^Content-Type:' "$1.headers" | tr -d '\r'; printf '\n'; cat "$1"; } >"$1.eml"
  openssl cms -verify -in "$1.eml" -CAfile "$C/edihub.crt" -purpose any 2>/dev/null ||
    fail "$1: the MDN does not verify against our certificate"
}
disposition() { report "$1" | grep -a '^Disposition:' | tr -d '\r'; }
# as4_post FILE OUT: a legacy capture (Content-Type line, blank line, body) posted to /as4.
as4_post() {
  local ct
  ct=$(head -1 "$1" | sed 's/^Content-Type: //' | tr -d '\r')
  tail -c +$(($(head -1 "$1" | wc -c) + 3)) "$1" >"$WORK/as4.body"
  curl -s -o "$2" -w '%{http_code}' -X POST --data-binary @"$WORK/as4.body" -H "Content-Type: $ct" \
    "http://127.0.0.1:$port/as4"
}
x12_810() {  # x12_810 OUT CONTROL INVOICE [SENDER15] [RECEIVER15]: acme's sample 810, renumbered
  sed -e "s/000000201/$2/g" -e "s/INV-88301/$3/" -e "s/\*ZZ\*ACMESUPPLY     \*/*ZZ*${4:-ACMESUPPLY     }*/" \
    -e "s/\*ZZ\*EDIHUB         \*/*ZZ*${5:-EDIHUB         }*/" "$REPO/samples/edi/x12-810-004010.edi" >"$1"
}
W="$P/certs/widgetco"
A="$C/acme"

# --- 1. widgetco signs an 810 whose ISA06 is acme's, over AS2.
x12_810 "$WORK/forged.edi" 000000201 INV-88301
as2_msg forged "$WORK/forged.edi" application/edi-x12 "$W.crt" "$W.key"
check_eq "forged X12 over AS2: status" 200 "$(as2_post forged WIDGETCO "<forge-1@widgetco.example>" "$WORK/r1")"
check_eq "forged X12 over AS2: the MDN says so" \
  "Disposition: automatic-action/MDN-sent-automatically; processed/error: authentication-failed" "$(disposition "$WORK/r1")"
report "$WORK/r1" | grep -aq "sender ZZ:ACMESUPPLY is not an id of partner 'widgetco' (ZZ:WIDGETCO) nor of a partner it sends for" ||
  fail "forged X12: the MDN's text: $(report "$WORK/r1" | grep -a 'could not' | head -2)"
check_eq "forged X12: nothing booked" 0 "$(sql "$db" "SELECT count(*) FROM invoices")"
check_eq "forged X12: no interchange key (acme's ISA13 not burnt)" 0 \
  "$(sql "$db" "SELECT count(*) FROM idempotency_keys WHERE message_id LIKE 'x12:%'")"
check_eq "forged X12: the transport key is widgetco's, failed" "widgetco|failed" \
  "$(sql "$db" "SELECT partner_id, state FROM idempotency_keys WHERE message_id = 'as2:<forge-1@widgetco.example>'")"
check_eq "forged X12: the interchange row is widgetco's, rejected" "widgetco|rejected" \
  "$(sql "$db" "SELECT partner_id, outcome FROM messages WHERE protocol = 'x12' AND transport_id = '<forge-1@widgetco.example>'")"
ta1=$(sql "$db" "SELECT body FROM outbox WHERE partner_id = 'widgetco' AND kind = 'ta1' ORDER BY id LIMIT 1")
[[ $ta1 == ISA\*00\*??????????\*00\*??????????\*ZZ\*EDIHUB\ \ \ \ \ \ \ \ \ \*ZZ\*WIDGETCO\ \ \ \ \ \ \ \** ]] ||
  fail "the TA1 goes from us to widgetco's own id: $(echo "$ta1" | head -1)"
echo "$ta1" | grep -q '^TA1\*000000201\*240315\*0800\*R\*006~$' || fail "TA1 006 (invalid sender id): $ta1"
check_eq "forged X12: the TA1 goes to widgetco's AS2 URL" "as2|http://127.0.0.1:9/as2" \
  "$(sql "$db" "SELECT channel || '|' || destination FROM outbox WHERE partner_id = 'widgetco' AND kind = 'ta1'")"
check_eq "nothing queued or written for acme" "0 0" \
  "$(sql "$db" "SELECT count(*) FROM outbox WHERE partner_id = 'acme'") $(ls "$WORK/acks-acme" | wc -l)"

# --- 2. The same over AS4: widgetco's UserMessage carrying acme's 856.
sed -e 's|>ACMESUPPLY</eb:PartyId>|>WIDGETCO</eb:PartyId>|' -e 's/as4-sample-856-802@acme.example/forge-2@widgetco.example/g' \
  "$REPO/samples/as4/swa-856.as4" >"$WORK/forged.as4"
check_eq "forged X12 over AS4: an EBMS error" 500 "$(as4_post "$WORK/forged.as4" "$WORK/r2")"
grep -q 'errorCode="EBMS:0003"' "$WORK/r2" || fail "forged AS4: $(head -c 400 "$WORK/r2")"
grep -q "sender ZZ:ACMESUPPLY is not an id of partner &apos;widgetco&apos;\|sender ZZ:ACMESUPPLY is not an id of partner 'widgetco'" "$WORK/r2" ||
  fail "forged AS4: the error's text: $(grep -o 'Description[^<]*<[^<]*' "$WORK/r2")"
check_eq "forged AS4: nothing booked, no interchange key" "0 0" \
  "$(sql "$db" "SELECT (SELECT count(*) FROM shipment_notices), (SELECT count(*) FROM idempotency_keys WHERE message_id LIKE 'x12:%')" | tr '|' ' ')"
check_eq "forged AS4: its TA1 006 to widgetco" 1 \
  "$(sql "$db" "SELECT count(*) FROM outbox WHERE partner_id = 'widgetco' AND kind = 'ta1' AND CAST(body AS TEXT) LIKE '%TA1*000000802*%*R*006~%'")"

# --- 3. EDIFACT: UNB 0004 is acme's, sent by widgetco.
as2_msg forged-edifact "$REPO/samples/edi/edifact-invoic-d96a.edi" application/edifact "$W.crt" "$W.key"
as2_post forged-edifact WIDGETCO "<forge-3@widgetco.example>" "$WORK/r3" >/dev/null
check_eq "forged EDIFACT: the MDN says so" \
  "Disposition: automatic-action/MDN-sent-automatically; processed/error: authentication-failed" "$(disposition "$WORK/r3")"
contrl=$(sql "$db" "SELECT body FROM outbox WHERE partner_id = 'widgetco' AND kind = 'contrl'")
echo "$contrl" | grep -q "^UNB+UNOC:3+5400000000009:14+4000000000017:14+" || fail "the CONTRL goes from us to widgetco: $contrl"
echo "$contrl" | grep -q "^UCI+INV0000042+5412345000013:14+5400000000009:14+4+23'$" || fail "CONTRL UCI 4 + 23: $contrl"
check_eq "forged EDIFACT: nothing booked" 0 "$(sql "$db" "SELECT count(*) FROM invoices")"

# --- 4. acme's genuine messages with the same control numbers go through.
as2_msg genuine "$WORK/forged.edi" application/edi-x12 "$A.crt" "$A.key"
as2_post genuine ACMESUPPLY "<genuine-1@acme.example>" "$WORK/r4" >/dev/null
check_eq "acme's own 810 (ISA13 000000201)" "Disposition: automatic-action/MDN-sent-automatically; processed" \
  "$(disposition "$WORK/r4")"
as2_msg genuine-edifact "$REPO/samples/edi/edifact-invoic-d96a.edi" application/edifact "$A.crt" "$A.key"
as2_post genuine-edifact ACMESUPPLY "<genuine-2@acme.example>" "$WORK/r5" >/dev/null
check_eq "acme's own INVOIC (UNB 0020 INV0000042)" "Disposition: automatic-action/MDN-sent-automatically; processed" \
  "$(disposition "$WORK/r5")"
check_eq "acme's own AS4 856" 200 "$(as4_post "$REPO/samples/as4/swa-856.as4" "$WORK/r6")"
check_eq "acme's documents booked under acme" "acme|3|1" \
  "$(sql "$db" "SELECT group_concat(DISTINCT partner_id), count(*), (SELECT count(*) FROM shipment_notices WHERE partner_id = 'acme') FROM invoices")"
check_eq "acme's keys completed" "completed|completed|completed" \
  "$(sql "$db" "SELECT group_concat(state, '|') FROM (SELECT state FROM idempotency_keys WHERE partner_id = 'acme' AND message_id IN ('x12:ACMESUPPLY:000000201', 'edifact:5412345000013:INV0000042', 'x12:ACMESUPPLY:000000802') ORDER BY message_id)")"

# --- 5. An interchange addressed to another hub.
x12_810 "$WORK/elsewhere.edi" 000000777 INV-ELSEWHERE ACMESUPPLY "SOMEOTHERHUB   "
as2_msg elsewhere "$WORK/elsewhere.edi" application/edi-x12 "$A.crt" "$A.key"
as2_post elsewhere ACMESUPPLY "<elsewhere-1@acme.example>" "$WORK/r7" >/dev/null
check_eq "addressed elsewhere: the MDN says so" \
  "Disposition: automatic-action/MDN-sent-automatically; processed/error: unexpected-processing-error" "$(disposition "$WORK/r7")"
report "$WORK/r7" | grep -aq "is addressed to ZZ:SOMEOTHERHUB, not to this gateway (ZZ:EDIHUB" ||
  fail "addressed elsewhere: the MDN's text: $(report "$WORK/r7" | grep -a 'could not' | head -2)"
check_eq "addressed elsewhere: not booked, no key" "0 0" \
  "$(sql "$db" "SELECT (SELECT count(*) FROM invoices WHERE invoice_number = 'INV-ELSEWHERE'), (SELECT count(*) FROM idempotency_keys WHERE message_id LIKE '%000000777')" | tr '|' ' ')"
ack=$(sql_eventually "$db" 1 "SELECT count(*) FROM outbox WHERE partner_id = 'acme' AND kind = 'ta1' AND state = 'delivered'")
check_eq "addressed elsewhere: its TA1 delivered to acme's directory" 1 "$ack"
ta1=$(cat "$WORK"/acks-acme/*.ta1 2>/dev/null)
echo "$ta1" | grep -q '^TA1\*000000777\*240315\*0800\*R\*009~$' || fail "TA1 009 (unknown receiver): $ta1"
[[ $ta1 == ISA\*00\*??????????\*00\*??????????\*ZZ\*EDIHUB\ \ \ \ \ \ \ \ \ \*ZZ\*ACMESUPPLY* ]] ||
  fail "the TA1 is in our name, not SOMEOTHERHUB's: $(echo "$ta1" | head -1)"

# --- 6. A VAN sends for acme, as its profile says; not for widgetco.
x12_810 "$WORK/van.edi" 000000555 INV-VAN1
as2_msg van "$WORK/van.edi" application/edi-x12 "$P/certs/van.crt" "$P/certs/van.key"
as2_post van VANHUB "<van-1@van.example>" "$WORK/r8" -u van:van-password-1 >/dev/null
check_eq "the VAN sends acme's 810" "Disposition: automatic-action/MDN-sent-automatically; processed" "$(disposition "$WORK/r8")"
check_eq "booked as acme's, keyed under acme" "acme|acme" \
  "$(sql "$db" "SELECT (SELECT partner_id FROM invoices WHERE invoice_number = 'INV-VAN1'), (SELECT partner_id FROM idempotency_keys WHERE message_id = 'x12:ACMESUPPLY:000000555')" | tr -d '\n')"
check_eq "its 997 goes back to the VAN" "van|dir" \
  "$(sql "$db" "SELECT partner_id || '|' || channel FROM outbox WHERE reference = 'x12:ACMESUPPLY:000000555' AND kind = '997'")"
x12_810 "$WORK/van-w.edi" 000000556 INV-VAN2 "WIDGETCO       "
as2_msg van-w "$WORK/van-w.edi" application/edi-x12 "$P/certs/van.crt" "$P/certs/van.key"
as2_post van-w VANHUB "<van-2@van.example>" "$WORK/r9" -u van:van-password-1 >/dev/null
check_eq "the VAN may not send widgetco's" \
  "Disposition: automatic-action/MDN-sent-automatically; processed/error: authentication-failed" "$(disposition "$WORK/r9")"

# --- 7. Copies that prove no sender never touch acme's key.
x12_810 "$WORK/nine.edi" 000000909 INV-NINE
as2_msg unsigned "$WORK/nine.edi" application/edi-x12
as2_msg wrong-signer "$WORK/nine.edi" application/edi-x12 "$W.crt" "$W.key"
for i in 1 2 3 4 5; do
  as2_post unsigned ACMESUPPLY "<genuine-9@acme.example>" "$WORK/u$i" >/dev/null
  as2_post wrong-signer ACMESUPPLY "<genuine-9@acme.example>" "$WORK/w$i" >/dev/null
done
check_eq "unsigned copy: answered" \
  "Disposition: automatic-action/MDN-sent-automatically; processed/error: insufficient-message-security" "$(disposition "$WORK/u5")"
check_eq "wrong signer: answered" \
  "Disposition: automatic-action/MDN-sent-automatically; processed/error: authentication-failed" "$(disposition "$WORK/w5")"
check_eq "ten unauthenticated copies: no key, no capture, ten log rows" "0 0 10" \
  "$(sql "$db" "SELECT count(*) FROM idempotency_keys WHERE message_id = 'as2:<genuine-9@acme.example>'") $(sql "$db" "SELECT count(*) FROM captures WHERE message_id = 'as2:<genuine-9@acme.example>'") $(sql_eventually "$db" 10 "SELECT count(*) FROM messages WHERE transport_id = '<genuine-9@acme.example>'")"
as2_msg nine "$WORK/nine.edi" application/edi-x12 "$A.crt" "$A.key"
as2_post nine ACMESUPPLY "<genuine-9@acme.example>" "$WORK/r10" >/dev/null
check_eq "then acme's genuine message with that Message-ID" \
  "Disposition: automatic-action/MDN-sent-automatically; processed" "$(disposition "$WORK/r10")"
check_eq "booked once" 1 "$(sql "$db" "SELECT count(*) FROM invoices WHERE invoice_number = 'INV-NINE'")"
# An unsigned copy of that processed Message-ID asking for an async MDN: no MDN is queued in acme's name.
as2_msg unsigned-other "$WORK/elsewhere.edi" application/edi-x12
check_eq "an unauthenticated copy asking for an async MDN" 403 \
  "$(as2_post unsigned-other ACMESUPPLY "<genuine-9@acme.example>" "$WORK/r11" -H "Receipt-Delivery-Option: http://127.0.0.1:9/mdn")"
check_eq "no MDN queued for acme" 0 "$(sql "$db" "SELECT count(*) FROM outbox WHERE kind = 'mdn'")"
check_eq "acme's key unchanged" "completed|1" \
  "$(sql "$db" "SELECT state, attempts FROM idempotency_keys WHERE message_id = 'as2:<genuine-9@acme.example>'")"

# --- 8. Forged async MDNs settle nothing.
ta1_id=$(sql "$db" "SELECT message_id FROM outbox WHERE partner_id = 'widgetco' AND kind = 'ta1' ORDER BY id LIMIT 1")
check_eq "widgetco's TA1 was posted (its URL is down): pending" "pending|1" \
  "$(sql_eventually "$db" "pending|1" "SELECT state, attempts FROM outbox WHERE message_id = '$ta1_id'")"
mdn_report() {  # mdn_report FILE ORIGINAL-MESSAGE-ID DISPOSITION MIC
  printf 'Content-Type: multipart/report; report-type=disposition-notification; boundary="r"\r\n\r\n--r\r\nContent-Type: text/plain\r\n\r\nreceived\r\n--r\r\nContent-Type: message/disposition-notification\r\n\r\nOriginal-Message-ID: %s\r\nDisposition: automatic-action/MDN-sent-automatically; %s\r\nReceived-Content-MIC: %s, sha-256\r\n\r\n--r--\r\n' \
    "$2" "$3" "$4" >"$1"
}
mdn_post() {  # mdn_post FILE [signed by CERT KEY]: posts the MDN as widgetco; the HTTP status
  local ct body="$WORK/mdn.body"
  if [[ $# -ge 3 ]]; then
    openssl cms -sign -md sha256 -signer "$2" -inkey "$3" -in "$1" -out "$1.signed"
    ct=$(sed -n 's/^Content-Type: //p' "$1.signed" | head -1 | tr -d '\r')
    awk 'b{print} /^\r?$/{b=1}' "$1.signed" >"$body"
  else
    ct=$(head -1 "$1" | sed 's/^Content-Type: //' | tr -d '\r')
    tail -c +$(($(head -1 "$1" | wc -c) + 3)) "$1" >"$body"
  fi
  curl -s -o "$WORK/mdn.out" -w '%{http_code}' -X POST --data-binary @"$body" -H "Content-Type: $ct" \
    -H "AS2-From: WIDGETCO" -H "AS2-To: EDIHUB" -H "Message-ID: <mdn-$RANDOM@widgetco.example>" "http://127.0.0.1:$port/as2"
}
mdn_report "$WORK/m1" "$ta1_id" processed AAAA
check_eq "an unsigned MDN for widgetco's TA1" 403 "$(mdn_post "$WORK/m1")"
check_eq "its text" "the MDN is not signed: partner 'widgetco' must sign its MDNs (nothing was settled)" "$(cat "$WORK/mdn.out")"
check_eq "an MDN signed by acme, not widgetco" 400 "$(mdn_post "$WORK/m1" "$A.crt" "$A.key")"
check_eq "the TA1 row untouched" "pending|1" "$(sql "$db" "SELECT state, attempts FROM outbox WHERE message_id = '$ta1_id'")"
# widgetco's own invoice: a document row to its webhook. A signed MDN naming it finds no AS2 row.
x12_810 "$WORK/w.edi" 000000301 INV-W1 "WIDGETCO       "
as2_msg w "$WORK/w.edi" application/edi-x12 "$W.crt" "$W.key"
as2_post w WIDGETCO "<w-1@widgetco.example>" "$WORK/r12" >/dev/null
check_eq "widgetco's own 810" "Disposition: automatic-action/MDN-sent-automatically; processed" "$(disposition "$WORK/r12")"
doc_id=$(sql "$db" "SELECT message_id FROM outbox WHERE partner_id = 'widgetco' AND kind = 'document'")
# Its webhook is down: one attempt made, the next in an hour.
doc_state=$(sql_eventually "$db" "pending|1" "SELECT state || '|' || attempts FROM outbox WHERE message_id = '$doc_id'")
mdn_report "$WORK/m2" "$doc_id" processed AAAA
check_eq "a signed MDN naming the webhook row" 200 "$(mdn_post "$WORK/m2" "$W.crt" "$W.key")"
check_eq "the webhook row untouched" "$doc_state" "$(sql "$db" "SELECT state || '|' || attempts FROM outbox WHERE message_id = '$doc_id'")"
check_eq "logged as matching no AS2 row" 1 \
  "$(sql_eventually "$db" 1 "SELECT count(*) FROM messages WHERE detail = 'no AS2 message sent to partner ''widgetco'' awaits an MDN for $doc_id'")"
# duplicate-document from widgetco itself, with a MIC that is not ours: not delivered.
mdn_report "$WORK/m3" "$ta1_id" "processed/warning: duplicate-document" AAAA
check_eq "a signed duplicate-document with another MIC" 200 "$(mdn_post "$WORK/m3" "$W.crt" "$W.key")"
check_eq "the TA1 row failed, not delivered" failed "$(sql "$db" "SELECT state FROM outbox WHERE message_id = '$ta1_id'")"
sql "$db" "SELECT last_error FROM outbox WHERE message_id = '$ta1_id'" | grep -q "Received-Content-MIC is 'AAAA" ||
  fail "why: $(sql "$db" "SELECT last_error FROM outbox WHERE message_id = '$ta1_id'")"

# --- 9. Captures: credentials redacted; an export names its partner, and replay holds it to that partner.
cap=$(sql "$db" "SELECT id FROM captures WHERE message_id = 'as2:<van-1@van.example>'")
sql "$db" "SELECT head FROM captures WHERE id = $cap" | grep -q '^Authorization: Basic \[redacted\]' ||
  fail "the stored head: $(sql "$db" "SELECT head FROM captures WHERE id = $cap")"
secret=$(printf 'van:van-password-1' | base64)
check_eq "no credential stored" 0 "$(sql "$db" "SELECT count(*) FROM captures WHERE instr(head, '$secret') > 0")"
# A capture stored before redaction existed is redacted when exported.
sql "$db" "UPDATE captures SET head = replace(head, 'Basic [redacted]', 'Basic $secret') WHERE id = $cap"
file=$("$EDIHUB" archive export --db "sqlite:$db" --out "$WORK/export" "$cap")
check_eq "the export names the partner" "EDIHUB-CAPTURE partner=van" "$(head -1 "$file" | tr -d '\r')"
grep -q "$secret" "$file" && fail "the exported capture holds the password"
wcap=$(sql "$db" "SELECT id FROM captures WHERE message_id = 'as2:<w-1@widgetco.example>'")
file=$("$EDIHUB" archive export --db "sqlite:$db" --out "$WORK/export" "$wcap")
sed -i 's/^AS2-From: WIDGETCO/AS2-From: ACMESUPPLY/' "$file"
"$EDIHUB" replay --db "sqlite:$db" --partners "$P" --config "$WORK/edihub.xml" --json "$file" >"$WORK/replay.out"
grep -q "\"outcome\":\"rejected\".*AS2-From 'ACMESUPPLY' is partner 'acme', not 'widgetco'" "$WORK/replay.out" ||
  fail "a capture of widgetco's with acme's headers: $(cat "$WORK/replay.out")"
# replay --partner: an EDI file of acme's, said to be widgetco's.
"$EDIHUB" replay --db "sqlite:$db" --partners "$P" --config "$WORK/edihub.xml" --partner widgetco --json \
  "$REPO/samples/edi/x12-856-004010.edi" >"$WORK/replay2.out"
grep -q '"partner":"widgetco",.*"outcome":"rejected",.*sender ZZ:ACMESUPPLY is not an id of partner' "$WORK/replay2.out" ||
  fail "replay --partner widgetco of acme's file: $(cat "$WORK/replay2.out")"
check_eq "not booked by the replay" 0 "$(sql "$db" "SELECT count(*) FROM shipment_notices WHERE document_number = 'SHP20240312001'")"

# --- 10. What the profiles say, at load.
grep -q "warning: .*widgetco.xml: partner 'widgetco' requires no AS4 signature and has no <auth>" "$WORK/server.out" ||
  fail "no warning for widgetco's unsigned AS4: $(grep warning "$WORK/server.out")"
mkdir -p "$WORK/twice"
cp "$P/acme.xml" "$WORK/twice/"
sed -e 's/id="widgetco"/id="other"/' -e 's/WIDGETCO/ACMESUPPLY-AS4/g' -e 's/4000000000017/4000000000024/' \
  -e 's|<as4 party-id="ACMESUPPLY-AS4"|<as4 party-id="ACMESUPPLY"|' -e '/certificate/d' "$P/widgetco.xml" >"$WORK/twice/other.xml"
"$EDIHUB" certs --partners "$WORK/twice" >/dev/null 2>"$WORK/twice.err"
grep -q "other.xml: AS4 party id 'ACMESUPPLY' (type urn:oasis:names:tc:ebcore:partyid-type:unregistered) also belongs to partner 'acme'" "$WORK/twice.err" ||
  fail "two profiles with one AS4 party id: $(cat "$WORK/twice.err")"
finish
