#!/usr/bin/env bash
# Mutual TLS on the partner listener: <auth client-cert> pins a partner's TLS
# client certificate (by its SHA-256). Over HTTPS with curl and with `openssl
# s_client` (a raw HTTP request on its own TLS connection): no certificate or
# another one gets 403 with a text naming what is wrong, before anything is
# decrypted, booked or keyed; the pinned one (either of a rollover's two) is
# processed; a partner without a pin needs none. The client certificates are
# self-signed and made here, as AS2 partners' usually are.
source "$(dirname "$0")/lib.sh"
C="$REPO/partners/certs"
db="$WORK/edihub.db"
cert() {  # cert NAME CN: a self-signed client certificate and key in $WORK/NAME.{crt,key}
  openssl req -x509 -newkey rsa:2048 -nodes -keyout "$WORK/$1.key" -out "$WORK/$1.crt" -days 30 \
    -subj "/O=acme demo/CN=$2" 2>/dev/null || fail "openssl req $1"
}
fingerprint() { openssl x509 -in "$1" -outform DER | sha256sum | cut -d' ' -f1; }
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$WORK/tls.key" -out "$WORK/tls.crt" -days 2 \
  -subj "/CN=127.0.0.1" -addext "subjectAltName=IP:127.0.0.1" 2>/dev/null
cert client "acme-client"
cert other "someone-else"
cert old "acme-client-2025"
cert new "acme-client-2026"

# profiles DIR AUTH-XML...: acme pinned with these <auth> elements (client
# certificates copied to DIR/certs), and beta, another partner with no <auth>.
profiles() {
  mkdir -p "$1"
  cp -r "$C" "$1/"
  cp "$WORK"/*.crt "$1/certs/"
  local extra
  extra=$(printf '%s\\n' "${@:2}")
  sed "s|</partner>|$extra</partner>|" "$REPO/partners/acme.xml" >"$1/acme.xml"
  sed -e 's/id="acme"/id="beta"/' -e 's/ACMESUPPLY/BETASUPPLY/g' -e 's/5412345000013/5412345000099/' \
    "$REPO/partners/acme.xml" >"$1/beta.xml"
}
serve() {  # serve PARTNERS-DIR [tls|plain]
  if [[ ${2:-tls} == tls ]]; then
    gateway_config "$WORK/edihub.xml" \
      "<listen address=\"127.0.0.1\" port=\"0\"><tls cert=\"$WORK/tls.crt\" key=\"$WORK/tls.key\"/></listen>"
  else
    gateway_config "$WORK/edihub.xml" '<listen address="127.0.0.1" port="0"/>'
  fi
  sed -i "s|<partners dir=\"[^\"]*\"/>|<partners dir=\"$1\"/>|" "$WORK/edihub.xml"
  start_server "$WORK/edihub.xml"
}
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT

# message NAME AS2-FROM CONTROL: an 856 from AS2-FROM (its X12 id too), with
# its own control number, signed by acme's key and encrypted for edihub, in
# $WORK/NAME.body with its Content-Type in $WORK/NAME.ct.
message() {
  { printf 'Content-Type: application/edi-x12\r\n\r\n'
    sed -e "s/ACMESUPPLY/$2/g" -e "s/000000101/$3/g" "$REPO/samples/edi/x12-856-004010.edi"; } >"$WORK/$1.e"
  openssl cms -sign -binary -md sha256 -signer "$C/acme.crt" -inkey "$C/acme.key" -in "$WORK/$1.e" |
    openssl cms -encrypt -binary -aes256 -out "$WORK/$1.m" "$C/edihub.crt"
  awk 'b{print} /^\r?$/{b=1}' "$WORK/$1.m" >"$WORK/$1.body"
  sed -n 's/^Content-Type: //p' "$WORK/$1.m" | head -1 | tr -d '\r' >"$WORK/$1.ct"
}
# as2 NAME AS2-FROM OUT [curl options]: posts message NAME over HTTPS (or
# $scheme); prints the HTTP status. The answer is in OUT, its headers in OUT.headers.
scheme=https
as2() {
  curl -s --tlsv1.3 --cacert "$WORK/tls.crt" -D "$3.headers" -o "$3" -w '%{http_code}' -X POST \
    --data-binary @"$WORK/$1.body" -H "Content-Type: $(cat "$WORK/$1.ct")" \
    -H "Content-Transfer-Encoding: base64" -H "AS2-From: $2" -H "AS2-To: EDIHUB" -H "AS2-Version: 1.2" \
    -H "Message-ID: <$1@$2.example>" \
    -H "Disposition-Notification-Options: signed-receipt-protocol=optional, pkcs7-signature; signed-receipt-micalg=optional, sha-256" \
    "${@:4}" "$scheme://127.0.0.1:$port/as2"
}
# disposition OUT: the Disposition of the signed MDN in OUT, verified by openssl.
disposition() {
  { grep -i '^Content-Type:' "$1.headers" | tr -d '\r'; printf '\n'; cat "$1"; } >"$1.eml"
  openssl cms -verify -in "$1.eml" -CAfile "$C/edihub.crt" -purpose any 2>/dev/null | grep -a '^Disposition:' |
    tr -d '\r'
}
processed="Disposition: automatic-action/MDN-sent-automatically; processed"
# s_client NAME CERT OUT: message NAME as a raw HTTP/1.1 request written into
# `openssl s_client` over TLS 1.2 with CERT's certificate and key; the raw answer in OUT.
s_client() {
  local cert=(-cert "$WORK/$2.crt" -key "$WORK/$2.key")
  [[ $2 == - ]] && cert=()
  {
    printf 'POST /as2 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: %s\r\n' "$(cat "$WORK/$1.ct")"
    printf 'Content-Transfer-Encoding: base64\r\nAS2-From: ACMESUPPLY\r\nAS2-To: EDIHUB\r\nAS2-Version: 1.2\r\n'
    printf 'Message-ID: <%s@s-client.example>\r\nContent-Length: %d\r\n\r\n' "$1" "$(wc -c <"$WORK/$1.body")"
    cat "$WORK/$1.body"
  } | timeout 20 openssl s_client -quiet -nocommands -tls1_2 -connect "127.0.0.1:$port" -CAfile "$WORK/tls.crt" \
    -verify_return_error "${cert[@]}" "${@:4}" >"$3" 2>"$3.err"
}

# --- acme pins one certificate: the listener asks for one, the profile decides.
profiles "$WORK/p1" '<auth client-cert="certs/client.crt"/>'
serve "$WORK/p1"
# A profile pins one: the handshake asks every client for a certificate (without a pin it asks
# none: as2_tls_test.sh).
openssl s_client -msg -connect "127.0.0.1:$port" -CAfile "$WORK/tls.crt" </dev/null 2>&1 | grep -q CertificateRequest ||
  fail "the listener asked no client for a certificate although acme pins one"
message m1 ACMESUPPLY 000000201
# (1) No client certificate.
check_eq "no client certificate" 403 "$(as2 m1 ACMESUPPLY "$WORK/r1")"
check_eq "no client certificate: text" "partner acme must present its pinned TLS client certificate" "$(cat "$WORK/r1")"
# (2) Another self-signed certificate, its fingerprint named.
check_eq "another certificate" 403 "$(as2 m1 ACMESUPPLY "$WORK/r2" --cert "$WORK/other.crt" --key "$WORK/other.key")"
check_eq "another certificate: text" \
  "the TLS client certificate presented is not the one pinned for partner acme (sha256 $(fingerprint "$WORK/other.crt"))" \
  "$(cat "$WORK/r2")"
# A header cannot stand in for the certificate.
check_eq "a header naming the pin" 403 \
  "$(as2 m1 ACMESUPPLY "$WORK/r2h" -H "X-Client-Cert-SHA256: $(fingerprint "$WORK/client.crt")" \
    -H "X-SSL-Client-Cert: $(tr -d '\n' <"$WORK/client.crt")")"
# AS4 (the partner named by eb:From in the body): refused the same way.
as4() {  # as4 SAMPLE OUT [curl options]: a capture from samples/as4 posted; the HTTP status
  local f="$REPO/samples/as4/$1" ct
  ct=$(head -1 "$f" | sed 's/^Content-Type: //' | tr -d '\r')
  tail -c +$(($(head -1 "$f" | wc -c) + 3)) "$f" >"$WORK/as4.body"
  curl -s --tlsv1.3 --cacert "$WORK/tls.crt" -o "$2" -w '%{http_code}' -X POST --data-binary @"$WORK/as4.body" \
    -H "Content-Type: $ct" "${@:3}" "https://127.0.0.1:$port/as4"
}
check_eq "AS4 without a client certificate" 403 "$(as4 swa-856.as4 "$WORK/r3")"
check_eq "AS4: text" "partner acme must present its pinned TLS client certificate" "$(cat "$WORK/r3")"
# Before any decryption: a message encrypted for someone else is refused for its certificate first.
check_eq "AS4 encrypted for another key, another certificate" 403 \
  "$(as4 broken-wss-unknown-key.as4 "$WORK/r4" --cert "$WORK/other.crt" --key "$WORK/other.key")"
check_eq "refused: nothing booked, no key" "0 0" \
  "$(sql "$db" "SELECT (SELECT count(*) FROM shipment_notices), (SELECT count(*) FROM idempotency_keys)" | tr '|' ' ')"
check_eq "AS4 encrypted for another key, the pinned certificate: now the decryption error" 500 \
  "$(as4 broken-wss-unknown-key.as4 "$WORK/r4b" --cert "$WORK/client.crt" --key "$WORK/client.key")"
grep -q 'errorCode="EBMS:0102"' "$WORK/r4b" || fail "r4b: $(head -c 300 "$WORK/r4b")"
# (3) The pinned certificate: processed, a positive MDN.
check_eq "pinned certificate" 200 "$(as2 m1 ACMESUPPLY "$WORK/r5" --cert "$WORK/client.crt" --key "$WORK/client.key")"
check_eq "pinned certificate: MDN" "$processed" "$(disposition "$WORK/r5")"
check_eq "AS4 with the pinned certificate" 200 "$(as4 swa-856.as4 "$WORK/r6" --cert "$WORK/client.crt" --key "$WORK/client.key")"
grep -q '<eb:Receipt>' "$WORK/r6" || fail "AS4 Receipt: $(head -c 300 "$WORK/r6")"
# (5) openssl s_client over TLS 1.2 (curl above: TLS 1.3): the pinned certificate accepted, another refused.
message m2 ACMESUPPLY 000000202
s_client m2 client "$WORK/r7" -sess_out "$WORK/session"  # exits 1: the server closes without a close_notify
check_eq "s_client, pinned certificate: status line" "HTTP/1.1 200 OK" "$(head -1 "$WORK/r7" | tr -d '\r')"
grep -aq 'automatic-action/MDN-sent-automatically; processed' "$WORK/r7" || fail "s_client MDN: $(head -c 600 "$WORK/r7")"
# A resumed TLS session keeps the certificate of its full handshake (none sent on this connection).
message m6 ACMESUPPLY 000000206
s_client m6 - "$WORK/r7r" -sess_in "$WORK/session"
check_eq "s_client, resumed session: status line" "HTTP/1.1 200 OK" "$(head -1 "$WORK/r7r" | tr -d '\r')"
s_client m2 other "$WORK/r8"
check_eq "s_client, another certificate: status line" "HTTP/1.1 403 Forbidden" "$(head -1 "$WORK/r8" | tr -d '\r')"
grep -aq "not the one pinned for partner acme (sha256 $(fingerprint "$WORK/other.crt"))" "$WORK/r8" ||
  fail "s_client refusal: $(cat "$WORK/r8")"
# (6) beta has no pin: no certificate needed, and one it happens to present is ignored.
message b1 BETASUPPLY 000000301
check_eq "partner without a pin, no certificate" 200 "$(as2 b1 BETASUPPLY "$WORK/r9")"
check_eq "partner without a pin: MDN" "$processed" "$(disposition "$WORK/r9")"
message b2 BETASUPPLY 000000302
check_eq "partner without a pin, some certificate" 200 \
  "$(as2 b2 BETASUPPLY "$WORK/r10" --cert "$WORK/other.crt" --key "$WORK/other.key")"
check_eq "health needs no certificate" ok "$(curl -s --cacert "$WORK/tls.crt" "https://127.0.0.1:$port/healthz")"
processed_ids="as2:<b1@BETASUPPLY.example> as2:<b2@BETASUPPLY.example> as2:<m1@ACMESUPPLY.example> \
as2:<m2@s-client.example> as2:<m6@s-client.example> as4:as4-sample-856-802@acme.example"
check_eq "processed: acme's over curl (AS2, AS4) and s_client (two), beta's two" "$processed_ids" \
  "$(sql_eventually "$db" "$processed_ids" "SELECT group_concat(message_id, ' ') FROM (SELECT message_id
     FROM idempotency_keys WHERE state = 'completed' AND protocol IN ('as2', 'as4') ORDER BY message_id)")"
kill -TERM "$server"; wait "$server"

# --- (4) Rollover: two pins, the second one presented.
profiles "$WORK/p2" '<auth client-cert="certs/old.crt"/>' '<auth client-cert="certs/new.crt"/>'
serve "$WORK/p2"
message m3 ACMESUPPLY 000000203
check_eq "rollover, the new certificate" 200 "$(as2 m3 ACMESUPPLY "$WORK/r11" --cert "$WORK/new.crt" --key "$WORK/new.key")"
check_eq "rollover, the new certificate: MDN" "$processed" "$(disposition "$WORK/r11")"
message m4 ACMESUPPLY 000000204
check_eq "rollover, the old certificate" 200 "$(as2 m4 ACMESUPPLY "$WORK/r12" --cert "$WORK/old.crt" --key "$WORK/old.key")"
check_eq "rollover, a certificate no longer pinned" 403 \
  "$(as2 m4 ACMESUPPLY "$WORK/r13" --cert "$WORK/client.crt" --key "$WORK/client.key")"
kill -TERM "$server"; wait "$server"

# --- Plain HTTP to a partner with a pin: refused the same way.
serve "$WORK/p1" plain
scheme=http
message m5 ACMESUPPLY 000000205
check_eq "plain HTTP, pinned partner" 403 "$(as2 m5 ACMESUPPLY "$WORK/r14")"
check_eq "plain HTTP: text" "partner acme must present its pinned TLS client certificate" "$(cat "$WORK/r14")"
message b3 BETASUPPLY 000000303
check_eq "plain HTTP, partner without a pin" 200 "$(as2 b3 BETASUPPLY "$WORK/r15")"
kill -TERM "$server"; wait "$server"

# --- `edihub certs` lists the pins (expiry watched); a pin that does not load names its file.
"$EDIHUB" certs --partners "$WORK/p2" --warn-days 7 >"$WORK/certs.out" 2>&1 || fail "edihub certs: $(cat "$WORK/certs.out")"
check_eq "certs: the two pins" 2 \
  "$(grep -cE '^acme tls-client /O=acme demo/CN=acme-client-202[56] serial .* (29|30) days left' "$WORK/certs.out")"
"$EDIHUB" certs --partners "$WORK/p2" --warn-days 60 >/dev/null 2>&1 && fail "certs --warn-days 60: no warning for a 30-day pin"
profiles "$WORK/bad" '<auth client-cert="certs/missing.crt"/>'
"$EDIHUB" certs --partners "$WORK/bad" >/dev/null 2>"$WORK/bad.err" && fail "a missing pin loaded"
grep -q "acme.xml: <auth client-cert>: $WORK/bad/certs/missing.crt: cannot be read" "$WORK/bad.err" ||
  fail "missing pin: $(cat "$WORK/bad.err")"
profiles "$WORK/bad2" '<auth client-cert="certs/README.md"/>'
"$EDIHUB" certs --partners "$WORK/bad2" >/dev/null 2>"$WORK/bad2.err" && fail "a README as pin loaded"
grep -q "acme.xml: <auth client-cert>: $WORK/bad2/certs/README.md: not a PEM certificate" "$WORK/bad2.err" ||
  fail "not a certificate: $(cat "$WORK/bad2.err")"
finish
