#!/usr/bin/env bash
# The receive pipeline's defects (issue 9), each as a partner meets it over
# HTTP: a failure whose cause the operator fixed is processed on the next
# retransmission; the MIC is over what the signature covered; a partner
# asking for a signed MDN the gateway cannot sign gets a permanent answer,
# not 503 forever; poison and conflicts are answered from what is stored
# (no fresh signature, no decryption); a SOAP header the gateway does not
# process is a MustUnderstand fault, never a Receipt.
source "$(dirname "$0")/lib.sh"
C="$REPO/partners/certs"
db="$WORK/edihub.db"
mkdir -p "$WORK/partners"
cp -r "$REPO/partners/certs" "$WORK/partners/"
cp "$REPO/partners/acme.xml" "$REPO/partners/staedi.xml" "$WORK/partners/"
# A signing certificate the profile does not list yet.
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$WORK/partners/certs/acme-2027.key" \
  -out "$WORK/partners/certs/acme-2027.crt" -days 30 -subj "/O=ACME Supply/CN=ACMESUPPLY-2027" 2>/dev/null
config() {  # config IDENTITY-LINES...: a gateway config on the scratch partners
  {
    echo "<edihub>"
    printf '  %s\n' "$@"
    echo "  <listen address=\"127.0.0.1\" port=\"0\"/>"
    echo "  <store uri=\"sqlite:$db\"/>"
    echo "  <partners dir=\"$WORK/partners\"/>"
    echo "  <gate wait-seconds=\"2\"/>"
    echo "</edihub>"
  } >"$WORK/edihub.xml"
}
ours="<identity as2-id=\"EDIHUB\" cert=\"$C/edihub.crt\" key=\"$C/edihub.key\"/>"
config "$ours"
stop_server() { kill -TERM "$server" 2>/dev/null; wait "$server" 2>/dev/null; }
trap 'stop_server; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT

# make NAME EDI SIGNER_CERT SIGNER_KEY [lf]: signed by SIGNER, encrypted to us.
make() {
  local name=$1 edi=$2 cert=$3 key=$4 lf=${5:-}
  { printf 'Content-Type: application/edi-x12\r\n\r\n'; sed 's/\r*$/\r/' "$edi"; } >"$WORK/$name.entity"
  openssl cms -sign -md sha256 -signer "$cert" -inkey "$key" -in "$WORK/$name.entity" -out "$WORK/$name.signed"
  # openssl writes the S/MIME structure with CRLF; a careless sender delivers bare LF.
  [[ $lf == lf ]] && sed -i 's/\r$//' "$WORK/$name.signed"
  openssl cms -encrypt -binary -aes256 -in "$WORK/$name.signed" -out "$WORK/$name.eml" "$C/edihub.crt"
  awk 'b{print} /^\r?$/{b=1}' "$WORK/$name.eml" >"$WORK/$name.body"
}
# post NAME MESSAGE-ID OUT [OPTIONS]: the HTTP status; headers in OUT.headers.
post() {
  local ct
  ct=$(sed -n 's/^Content-Type: //p' "$WORK/$1.eml" | head -1 | tr -d '\r')
  curl -s -D "$3.headers" -o "$3" -w '%{http_code}' -X POST --data-binary @"$WORK/$1.body" -H "Content-Type: $ct" \
    -H "Content-Transfer-Encoding: base64" -H "AS2-From: ACMESUPPLY" -H "AS2-To: EDIHUB" -H "Message-ID: $2" \
    -H "Disposition-Notification-Options: ${4:-signed-receipt-protocol=optional, pkcs7-signature; signed-receipt-micalg=optional, sha-256}" \
    "http://127.0.0.1:$port/as2"
}
report() {  # the MDN's report: a signed one must verify (no fallback to its unverified text), an unsigned one as is
  { grep -i '^Content-Type:' "$1.headers" | tr -d '\r'; printf '\n'; cat "$1"; } >"$1.eml"
  if grep -qi '^Content-Type: multipart/signed' "$1.headers"; then
    openssl cms -verify -in "$1.eml" -CAfile "$C/edihub.crt" -purpose any 2>/dev/null ||
      fail "$1: the signed MDN does not verify against our certificate"
  else
    cat "$1"
  fi
}
disposition() { report "$1" | grep -a '^Disposition:' | tr -d '\r'; }

start_server "$WORK/edihub.xml"

# Defect 1: signed with a certificate the profile does not list yet.
make d1 "$REPO/samples/edi/x12-810-004010.edi" "$WORK/partners/certs/acme-2027.crt" "$WORK/partners/certs/acme-2027.key"
post d1 "<d1@acme.example>" "$WORK/r1a" >/dev/null
check_eq "d1 before the fix" "Disposition: automatic-action/MDN-sent-automatically; processed/error: authentication-failed" "$(disposition "$WORK/r1a")"
# The operator adds the certificate and restarts; the partner resends the same bytes.
stop_server
sed -i 's|<certificate use="signing" file="certs/acme.crt"/>|&\n  <certificate use="signing" file="certs/acme-2027.crt"/>|' "$WORK/partners/acme.xml"
start_server "$WORK/edihub.xml"
post d1 "<d1@acme.example>" "$WORK/r1b" >/dev/null
check_eq "d1 after the fix" "Disposition: automatic-action/MDN-sent-automatically; processed" "$(disposition "$WORK/r1b")"
check_eq "d1 booked" 1 "$(sql "$db" "SELECT count(*) FROM invoices WHERE invoice_number = 'INV-88301'")"
post d1 "<d1@acme.example>" "$WORK/r1c" >/dev/null
cmp -s "$WORK/r1b" "$WORK/r1c" || fail "d1: the retransmission after the fix did not get the new MDN byte for byte"

# Defect 2: signed over CRLF, delivered with bare LF: the MIC is over what the signature covered.
make d2 "$REPO/samples/edi/x12-856-004010.edi" "$C/acme.crt" "$C/acme.key" lf
post d2 "<d2@acme.example>" "$WORK/r2" >/dev/null
check_eq "d2 disposition" "Disposition: automatic-action/MDN-sent-automatically; processed" "$(disposition "$WORK/r2")"
mic=$(openssl dgst -sha256 -binary "$WORK/d2.entity" | openssl base64 -A)
check_eq "d2 MIC (over the CRLF form that was signed)" "Received-Content-MIC: $mic, sha-256" \
  "$(report "$WORK/r2" | grep -a '^Received-Content-MIC:' | tr -d '\r')"

# Defect 6: a poisoned message is answered from the store: the same bytes,
# whatever arrives, without decrypting (garbage arrives here) or signing anew.
# Only copies the partner signed count (an EDI content type holding no
# interchange here); copies that prove no sender never fail a key (identity_test.sh).
printf 'this is not an interchange\r\n' >"$WORK/not-edi.edi"
make d6 "$WORK/not-edi.edi" "$C/acme.crt" "$C/acme.key"
sed -i '/acme-2027/d' "$WORK/partners/acme.xml"
stop_server
start_server "$WORK/edihub.xml"
for i in 1 2 3 4 5; do post d6 "<d6@acme.example>" "$WORK/r6.$i" >/dev/null; done
check_eq "d6 failures" 5 "$(sql "$db" "SELECT failures FROM idempotency_keys WHERE message_id = 'as2:<d6@acme.example>'")"
head -c 3000 /dev/urandom | base64 >"$WORK/garbage.body"
cp "$WORK/d6.eml" "$WORK/garbage.eml"
post garbage "<d6@acme.example>" "$WORK/r6.poison" >/dev/null
cmp -s "$WORK/r6.5" "$WORK/r6.poison" || fail "d6: poison was not answered with the stored MDN byte for byte"
check_eq "d6 logged poison" 1 "$(sql_eventually "$db" 1 "SELECT count(*) FROM messages WHERE transport_id = '<d6@acme.example>' AND outcome = 'poison'")"
# A conflict (the Message-ID of d2 with other content), sent twice byte for byte: one answer, stored once.
make c1 "$REPO/samples/edi/x12-810-005010.edi" "$C/acme.crt" "$C/acme.key"
post c1 "<d2@acme.example>" "$WORK/r6.c1" >/dev/null
post c1 "<d2@acme.example>" "$WORK/r6.c2" >/dev/null
check_eq "conflict disposition" "Disposition: automatic-action/MDN-sent-automatically; processed/error: unexpected-processing-error" "$(disposition "$WORK/r6.c1")"
cmp -s "$WORK/r6.c1" "$WORK/r6.c2" || fail "conflict: the second copy got a freshly signed MDN"
check_eq "conflict answers stored" 1 "$(sql "$db" "SELECT count(*) FROM conflict_receipts WHERE message_id = 'as2:<d2@acme.example>'")"

# Defect 5: a signed MDN requested, and the identity that signs cannot (its
# key is not the certificate's): permanent and loud, never 503 forever.
stop_server
config "<identity as2-id=\"EDIHUB\" cert=\"$C/edihub.crt\" key=\"$C/acme.key\"/>" "$ours"
start_server "$WORK/edihub.xml"
make d5 "$REPO/samples/edi/x12-856-005010.edi" "$C/acme.crt" "$C/acme.key"
check_eq "d5 required: status" 200 "$(post d5 "<d5@acme.example>" "$WORK/r5" "signed-receipt-protocol=required, pkcs7-signature; signed-receipt-micalg=required, sha-256")"
check_eq "d5 required: an unsigned error MDN" "Disposition: automatic-action/MDN-sent-automatically; processed/error: unexpected-processing-error" "$(disposition "$WORK/r5")"
check_eq "d5 key failed" failed "$(sql "$db" "SELECT state FROM idempotency_keys WHERE message_id = 'as2:<d5@acme.example>'")"
grep -q "\[error\] problem=\"configuration: partner 'acme' asks for a signed MDN but its identity cannot sign" "$WORK/server.out" ||
  fail "d5: no loud log line: $(tail -3 "$WORK/server.out")"
check_eq "d5 optional: status" 200 "$(post d5 "<d5-optional@acme.example>" "$WORK/r5o")"
check_eq "d5 optional: processed, unsigned" "Disposition: automatic-action/MDN-sent-automatically; processed" "$(disposition "$WORK/r5o")"
grep -qi '^Content-Type: multipart/report' "$WORK/r5o.headers" || fail "d5 optional: not an unsigned MDN"

# Defect 3: AS4 with a header block marked mustUnderstand that the gateway
# does not process (WS-Addressing; wsse:Security it processes since issue 12):
# a SOAP MustUnderstand fault, never a Receipt, nothing booked.
sed -e 's|<eb:Messaging S12:mustUnderstand="true">|<wsa:Action xmlns:wsa="http://www.w3.org/2005/08/addressing" S12:mustUnderstand="true">urn:example:deliver</wsa:Action>&|' \
  -e 's/as4-sample-856-802@acme.example/as4-d3@acme.example/g' -e 's/000000802/000000803/g' \
  "$REPO/samples/as4/swa-856.as4" >"$WORK/d3.as4"
grep -q wsa:Action "$WORK/d3.as4" || fail "d3: the test message has no wsa:Action header"
ct=$(head -1 "$WORK/d3.as4" | sed 's/^Content-Type: //' | tr -d '\r')
awk 'b{print} /^\r?$/{b=1}' "$WORK/d3.as4" >"$WORK/d3.body"
check_eq "d3 status" 500 "$(curl -s -o "$WORK/r3" -w '%{http_code}' -X POST --data-binary @"$WORK/d3.body" -H "Content-Type: $ct" "http://127.0.0.1:$port/as4")"
grep -q '<env:Value>env:MustUnderstand</env:Value>' "$WORK/r3" || fail "d3: not a MustUnderstand fault: $(head -c 400 "$WORK/r3")"
grep -q 'qname="h1:Action"' "$WORK/r3" || fail "d3: the fault does not name wsa:Action"
check_eq "d3 nothing booked" 0 "$(sql "$db" "SELECT count(*) FROM shipment_notices WHERE document_number = 'SHP20240312802'")"
check_eq "d3 no key" 0 "$(sql "$db" "SELECT count(*) FROM idempotency_keys WHERE message_id LIKE 'as4:%d3%'")"
finish
