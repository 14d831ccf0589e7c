#!/usr/bin/env bash
# Receipts are kept for the receipt retention (<retention receipt-days>), keys
# for the key retention: after `edihub purge` dropped a receipt, a late
# retransmission is still a duplicate (nothing booked again) and gets a fresh
# receipt that says so: AS2 a new signed MDN "processed/warning:
# duplicate-document" with the MIC of what it sent, AS4 a new eb:Receipt, a
# replayed EDI file its acknowledgment built again under a new control number.
source "$(dirname "$0")/lib.sh"
C="$REPO/partners/certs"
db="$WORK/edihub.db"
mkdir -p "$WORK/partners"
cp -r "$REPO/partners/certs" "$REPO/partners/staedi.xml" "$WORK/partners/"
sed 's|<retention days="30"/>|<retention days="30" receipt-days="0"/>|' "$REPO/partners/acme.xml" >"$WORK/partners/acme.xml"
grep -q 'receipt-days="0"' "$WORK/partners/acme.xml" || { echo "acme.xml has no <retention days=\"30\"/> to change"; exit 1; }
gateway_config "$WORK/edihub.xml" '<listen address="127.0.0.1" port="0"/>'
sed -i "s|<partners dir=\"[^\"]*\"/>|<partners dir=\"$WORK/partners\"/>|" "$WORK/edihub.xml"
start_server "$WORK/edihub.xml"
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
url="http://127.0.0.1:$port"

# An AS2 message made by openssl, posted twice around a purge.
{ printf 'Content-Type: application/edi-x12\r\n\r\n'; cat "$REPO/samples/edi/x12-810-004010.edi"; } >"$WORK/e"
openssl cms -sign -binary -md sha256 -signer "$C/acme.crt" -inkey "$C/acme.key" -in "$WORK/e" |
  openssl cms -encrypt -binary -aes256 -out "$WORK/m" "$C/edihub.crt"
awk 'b{print} /^\r?$/{b=1}' "$WORK/m" >"$WORK/m.body"
post() {  # post OUT: the MDN in OUT, its headers in OUT.headers
  curl -s -D "$1.headers" -o "$1" -X POST --data-binary @"$WORK/m.body" \
    -H "Content-Type: $(sed -n 's/^Content-Type: //p' "$WORK/m" | head -1 | tr -d '\r')" \
    -H "Content-Transfer-Encoding: base64" -H "AS2-From: ACMESUPPLY" -H "AS2-To: EDIHUB" \
    -H "Message-ID: <retention-1@acme.example>" -H "AS2-Version: 1.2" \
    -H "Disposition-Notification-Options: signed-receipt-protocol=optional, pkcs7-signature; signed-receipt-micalg=optional, sha-256" \
    "$url/as2"
}
mdn_report() {  # mdn_report FILE: the MDN verified by openssl, its report
  { grep -i '^Content-Type:' "$1.headers" | tr -d '\r'; printf '\n'; cat "$1"; } >"$1.eml"
  openssl cms -verify -in "$1.eml" -CAfile "$C/edihub.crt" -purpose any 2>/dev/null
}
post "$WORK/r1"
mdn_report "$WORK/r1" >"$WORK/r1.report" || fail "first MDN does not verify"
grep -q 'Disposition: automatic-action/MDN-sent-automatically; processed' "$WORK/r1.report" || fail "first: $(cat "$WORK/r1.report")"
mic1=$(grep -i '^Received-Content-MIC' "$WORK/r1.report" | tr -d '\r')
post "$WORK/r2"
cmp -s "$WORK/r1" "$WORK/r2" || fail "within the receipt retention: not the stored MDN"

# An AS4 message too.
tail -c +$(($(head -1 "$REPO/samples/as4/swa-856.as4" | wc -c) + 3)) "$REPO/samples/as4/swa-856.as4" >"$WORK/as4.body"
as4_type=$(head -1 "$REPO/samples/as4/swa-856.as4" | sed 's/^Content-Type: //' | tr -d '\r')
post4() { curl -s -o "$1" -w '%{http_code}' -X POST --data-binary @"$WORK/as4.body" -H "Content-Type: $as4_type" "$url/as4"; }
check_eq "AS4 first" 200 "$(post4 "$WORK/a1")"

out=$("$EDIHUB" purge --db "sqlite:$db" --partners "$WORK/partners" --json)
grep -q '"receipts_dropped":4' <<<"$out" || fail "purge: $out"  # the AS2 and AS4 transport keys, their interchanges'
check_eq "keys kept" 4 "$(sql "$db" "SELECT count(*) FROM idempotency_keys WHERE partner_id = 'acme'")"

# AS2: a new signed MDN that says duplicate, with the same MIC; nothing booked again.
post "$WORK/r3"
mdn_report "$WORK/r3" >"$WORK/r3.report" || fail "the fresh MDN does not verify"
grep -q 'Disposition: automatic-action/MDN-sent-automatically; processed/warning: duplicate-document' "$WORK/r3.report" ||
  fail "fresh MDN: $(cat "$WORK/r3.report")"
check_eq "the fresh MDN's MIC" "$mic1" "$(grep -i '^Received-Content-MIC' "$WORK/r3.report" | tr -d '\r')"
check_eq "booked once" 1 "$(sql "$db" "SELECT count(*) FROM invoices WHERE invoice_number = 'INV-88301'")"
check_eq "logged as a duplicate" duplicate \
  "$(sql_eventually "$db" duplicate "SELECT outcome FROM messages WHERE transport_id = '<retention-1@acme.example>' ORDER BY id DESC LIMIT 1")"
post "$WORK/r4"
grep -q 'duplicate-document' "$WORK/r4" || fail "a second late retransmission: $(head -c 300 "$WORK/r4")"

# AS4: a new Receipt for the same MessageId.
check_eq "AS4 late" 200 "$(post4 "$WORK/a2")"
grep -q '<eb:RefToMessageId>as4-sample-856-802@acme.example</eb:RefToMessageId></eb:MessageInfo><eb:Receipt>' "$WORK/a2" ||
  fail "AS4 fresh receipt: $(head -c 500 "$WORK/a2")"
cmp -s "$WORK/a1" "$WORK/a2" && fail "AS4: the fresh Receipt is the old one"
check_eq "AS4 booked once" 1 "$(sql "$db" "SELECT count(*) FROM shipment_notices WHERE document_number = 'SHP20240312802'")"

# A replayed EDI file: a duplicate with its 997 built again.
replayed=$("$EDIHUB" replay --db "sqlite:$db" --partners "$WORK/partners" --json "$REPO/samples/edi/x12-810-004010.edi")
grep -q '"outcome":"duplicate"' <<<"$replayed" || fail "replay: $replayed"
grep -q 'built again' <<<"$replayed" || fail "replay detail: $replayed"
finish
