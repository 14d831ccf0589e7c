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
finish
