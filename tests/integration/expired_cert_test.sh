#!/usr/bin/env bash
# A partner signs with a certificate past its notAfter: refused by default
# (AS2: MDN authentication-failed, AS4: EBMS:0101) with the date and what to do;
# its current certificate keeps working (rollover); <security allow-expired="true">
# accepts the old one. The expired certificate is made here with `openssl ca`.
source "$(dirname "$0")/lib.sh"
C="$REPO/partners/certs"
db="$WORK/edihub.db"
mkdir -p "$WORK/ca" "$WORK/partners"
: >"$WORK/ca/index.txt"
echo 01 >"$WORK/ca/serial"
cat >"$WORK/ca/ca.cnf" <<CNF
[ ca ]
default_ca = d
[ d ]
database = $WORK/ca/index.txt
serial = $WORK/ca/serial
new_certs_dir = $WORK/ca
default_md = sha256
policy = p
[ p ]
commonName = supplied
CNF
openssl req -new -newkey rsa:2048 -nodes -keyout "$WORK/old.key" -out "$WORK/old.csr" -subj "/CN=ACMESUPPLY-2020" 2>/dev/null
openssl ca -batch -config "$WORK/ca/ca.cnf" -selfsign -keyfile "$WORK/old.key" -in "$WORK/old.csr" -out "$WORK/old.crt" \
  -startdate 20200101000000Z -enddate 20210101000000Z >/dev/null 2>&1 || fail "openssl ca"
openssl x509 -in "$WORK/old.crt" -noout -enddate | grep -q 'Jan  1 00:00:00 2021 GMT' || fail "the old certificate's date"
profile() {  # profile DIR [SECURITY-ATTRIBUTES]: acme signing with both its current and its 2020 certificate
  mkdir -p "$1"
  cp -r "$REPO/partners/certs" "$1/"
  cp "$WORK/old.crt" "$1/certs/acme-2020.crt"
  sed -e 's|<certificate use="signing" file="certs/acme.crt"/>|&\n  <certificate use="signing" file="certs/acme-2020.crt"/>|' \
    -e "s|<security require-signature=\"true\" require-encryption=\"true\"/>|<security require-signature=\"true\" require-encryption=\"true\" ${2:-}/>|" \
    "$REPO/partners/acme.xml" >"$1/acme.xml"
}
serve() {
  gateway_config "$WORK/edihub.xml" '<listen address="127.0.0.1" port="0"/>'
  sed -i "s|<partners dir=\"[^\"]*\"/>|<partners dir=\"$1\"/>|" "$WORK/edihub.xml"
  start_server "$WORK/edihub.xml"
}
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
n=0
as2() {  # as2 KEY CERT OUT: a new signed+encrypted 810 from acme; prints the HTTP status
  n=$((n + 1))
  { printf 'Content-Type: application/edi-x12\r\n\r\n'
    sed -e "s/000000201/$(printf '%09d' $((300 + n)))/g" -e "s/INV-88301/INV-X$n/" "$REPO/samples/edi/x12-810-004010.edi"; } >"$WORK/e$n"
  openssl cms -sign -binary -md sha256 -signer "$2" -inkey "$1" -in "$WORK/e$n" |
    openssl cms -encrypt -binary -aes256 -out "$WORK/m$n" "$C/edihub.crt"
  awk 'b{print} /^\r?$/{b=1}' "$WORK/m$n" >"$WORK/m$n.body"
  curl -s -o "$3" -w '%{http_code}' -X POST --data-binary @"$WORK/m$n.body" \
    -H "Content-Type: $(sed -n 's/^Content-Type: //p' "$WORK/m$n" | head -1 | tr -d '\r')" \
    -H "Content-Transfer-Encoding: base64" -H "AS2-From: ACMESUPPLY" -H "AS2-To: EDIHUB" \
    -H "Message-ID: <expired-$n@acme.example>" "http://127.0.0.1:$port/as2"
}

profile "$WORK/partners/strict"
serve "$WORK/partners/strict"
check_eq "AS2 signed by the expired certificate" 200 "$(as2 "$WORK/old.key" "$WORK/old.crt" "$WORK/r1")"
grep -q 'processed/error: authentication-failed' "$WORK/r1" || fail "r1: $(grep -a 'Disposition' "$WORK/r1")"
grep -q 'signed with a certificate that expired on 2021-01-01 (/CN=ACMESUPPLY-2020)' "$WORK/r1" ||
  fail "r1 text: $(grep -a -A3 'expired' "$WORK/r1" | head -5)"
check_eq "nothing booked" 0 "$(sql "$db" "SELECT count(*) FROM invoices")"
check_eq "AS2 signed by the current certificate (rollover)" 200 "$(as2 "$C/acme.key" "$C/acme.crt" "$WORK/r2")"
grep -q 'MDN-sent-automatically; processed' "$WORK/r2" && ! grep -q 'processed/error' "$WORK/r2" ||
  fail "r2: $(grep -a 'Disposition' "$WORK/r2")"
# AS4 through the JDK signer with the expired certificate.
if command -v javac >/dev/null; then
  source "$REPO/tests/interop/as4/wss.sh"
  javac -d "$WORK/java" "$REPO/tests/interop/as4/WssPeer.java"
  openssl pkcs8 -topk8 -nocrypt -outform DER -in "$WORK/old.key" -out "$WORK/old.pk8"
  sed -e 's/000000201/000000399/g' -e 's/INV-88301/INV-AS4-OLD/' "$REPO/samples/edi/x12-810-004010.edi" >"$WORK/p.edi"
  wss_envelope "old-1@acme.example" "p@acme.example" >"$WORK/env.xml"
  java -cp "$WORK/java" WssPeer sign "$WORK/env.xml" "$WORK/signed.xml" "$WORK/old.pk8" "$WORK/old.crt" \
    "p@acme.example=$WORK/p.edi" || fail "WssPeer"
  wss_swa "$WORK/signed.xml" "$WORK/p.edi" >"$WORK/as4.body"
  check_eq "AS4 signed by the expired certificate" 500 "$(curl -s -o "$WORK/r3" -w '%{http_code}' -X POST \
    --data-binary @"$WORK/as4.body" -H "Content-Type: $wss_content_type" "http://127.0.0.1:$port/as4")"
  grep -q 'errorCode="EBMS:0101"' "$WORK/r3" || fail "r3: $(head -c 400 "$WORK/r3")"
  grep -q 'signed with a certificate that expired on 2021-01-01' "$WORK/r3" || fail "r3 text"
  ! grep -q 'wsse:Security' "$WORK/r3" || fail "r3: an error to an unauthenticated message must not be signed"
fi
kill -TERM "$server"; wait "$server"

profile "$WORK/partners/lenient" 'allow-expired="true"'
serve "$WORK/partners/lenient"
check_eq "allow-expired: AS2 by the expired certificate" 200 "$(as2 "$WORK/old.key" "$WORK/old.crt" "$WORK/r4")"
grep -q 'MDN-sent-automatically; processed' "$WORK/r4" && ! grep -q 'processed/error' "$WORK/r4" ||
  fail "r4: $(grep -a 'Disposition' "$WORK/r4")"
finish
