#!/usr/bin/env bash
# AS2 captures (samples/as2, made by openssl) through `edihub replay`: the same
# receiver as the server, MDNs written out, duplicates on a second run; the
# server archives what it receives in the same format.
source "$(dirname "$0")/lib.sh"
db="$WORK/edihub.db"
cd "$REPO"
out=$("$EDIHUB" replay --db "sqlite:$db" --json --mdn-out "$WORK/mdn" samples/as2)
check_eq "exit (two captures are rejected on purpose)" 1 $?
grep -q '"file":"samples/as2/810-signed-encrypted.as2","partner":"acme","message_id":"as2:<sample-810-701@acme.example>","outcome":"processed"' <<<"$out" || fail "810: $out"
grep -q '"file":"samples/as2/desadv-signed-encrypted.as2".*"outcome":"processed"' <<<"$out" || fail "desadv"
grep -q '"file":"samples/as2/810-signed-only.as2".*"outcome":"rejected","documents":null,"detail":"insufficient-message-security' <<<"$out" || fail "signed only: $out"
grep -q '"file":"samples/as2/wrong-recipient.as2".*"outcome":"rejected".*is not this gateway' <<<"$out" || fail "wrong recipient"
check_eq "invoice" 1 "$(sql "$db" "SELECT count(*) FROM invoices WHERE invoice_number = 'INV-88701'")"
check_eq "despatch advice" 1 "$(sql "$db" "SELECT count(*) FROM shipment_notices WHERE document_number = 'DES587701'")"
# The MDN written out verifies with openssl and says processed.
{ sed -n 's/^\(Content-Type: .*\)\r$/\1/p' "$WORK/mdn/810-signed-encrypted.as2.mdn" | head -1; printf '\n'
  awk 'b{print} /^\r?$/{b=1}' "$WORK/mdn/810-signed-encrypted.as2.mdn"; } >"$WORK/mdn.eml"
openssl cms -verify -in "$WORK/mdn.eml" -CAfile partners/certs/edihub.crt -purpose any 2>/dev/null |
  grep -q 'Disposition: automatic-action/MDN-sent-automatically; processed' || fail "replayed MDN"
grep -q 'processed/error: insufficient-message-security' "$WORK/mdn/810-signed-only.as2.mdn" || fail "signed-only MDN"

out=$("$EDIHUB" replay --db "sqlite:$db" --json samples/as2/810-signed-encrypted.as2)
check_eq "second replay exit" 0 $?
grep -q '"outcome":"duplicate"' <<<"$out" || fail "second replay: $out"
check_eq "still one invoice" 1 "$(sql "$db" "SELECT count(*) FROM invoices WHERE invoice_number = 'INV-88701'")"
# Certificate rollover: with a new identity listed first, a message still
# encrypted to the old certificate decrypts (each identity is tried) and the
# MDN is signed with the new one.
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$WORK/new.key" -out "$WORK/new.crt" -days 2 \
  -subj "/O=edihub demo/CN=EDIHUB-2027" 2>/dev/null
cat >"$WORK/rollover.xml" <<XML
<edihub>
  <identity as2-id="EDIHUB" cert="$WORK/new.crt" key="$WORK/new.key"/>
  <identity as2-id="EDIHUB" cert="$REPO/partners/certs/edihub.crt" key="$REPO/partners/certs/edihub.key"/>
</edihub>
XML
out=$("$EDIHUB" replay --db "sqlite:$WORK/rollover.db" --config "$WORK/rollover.xml" --json --mdn-out "$WORK/mdn2" \
  samples/as2/desadv-signed-encrypted.as2)
grep -q '"outcome":"processed"' <<<"$out" || fail "rollover: $out"
{ sed -n 's/^\(Content-Type: .*\)\r$/\1/p' "$WORK/mdn2/desadv-signed-encrypted.as2.mdn" | head -1; printf '\n'
  awk 'b{print} /^\r?$/{b=1}' "$WORK/mdn2/desadv-signed-encrypted.as2.mdn"; } >"$WORK/mdn2.eml"
openssl cms -verify -in "$WORK/mdn2.eml" -CAfile "$WORK/new.crt" -purpose any >/dev/null 2>&1 ||
  fail "rollover MDN is not signed with the new identity"
finish
