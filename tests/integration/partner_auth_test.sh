#!/usr/bin/env bash
# Partner authentication on the wire (<auth> in the profile): HTTP Basic with
# a PBKDF2-hashed password and an IP allow-list, over curl. A request that
# fails gets 401 (with WWW-Authenticate) or 403 before anything is decrypted
# or answered from the store; nothing is booked and no key is made.
source "$(dirname "$0")/lib.sh"
C="$REPO/partners/certs"
db="$WORK/edihub.db"
hash=$(printf 's3cret-pw\n' | "$EDIHUB" hash-password)
[[ $hash == pbkdf2-sha256\$100000\$* ]] || fail "hash-password: $hash"
profiles() {  # profiles DIR AUTH-XML...: acme's profile with these <auth> elements
  mkdir -p "$1"
  cp -r "$REPO/partners/certs" "$1/"
  local extra
  extra=$(printf '%s\\n' "${@:2}")
  sed "s|</partner>|$extra</partner>|" "$REPO/partners/acme.xml" >"$1/acme.xml"
}
serve() {  # serve PARTNERS-DIR
  gateway_config "$WORK/edihub.xml" '<listen address="127.0.0.1" port="0"/>'
  sed -i "s|<partners dir=\"[^\"]*\"/>|<partners dir=\"$1\"/>|" "$WORK/edihub.xml"
  start_server "$WORK/edihub.xml"
}
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
post_as4() {  # post_as4 CAPTURE OUT [curl options]: the HTTP status
  local ct
  ct=$(head -1 "$1" | sed 's/^Content-Type: //' | tr -d '\r')
  tail -c +$(($(head -1 "$1" | wc -c) + 3)) "$1" >"$WORK/body"
  curl -s -D "$2.headers" -o "$2" -w '%{http_code}' -X POST --data-binary @"$WORK/body" -H "Content-Type: $ct" \
    "${@:3}" "http://127.0.0.1:$port/as4"
}

# --- HTTP Basic.
profiles "$WORK/basic" "<auth basic-user=\"acme\" basic-password-hash=\"$hash\"/>"
serve "$WORK/basic"
check_eq "AS4 without credentials" 401 "$(post_as4 "$REPO/samples/as4/swa-856.as4" "$WORK/r1")"
grep -qi '^WWW-Authenticate: Basic realm="edihub"' "$WORK/r1.headers" || fail "no WWW-Authenticate: $(cat "$WORK/r1.headers")"
check_eq "401 text" "partner acme must authenticate (HTTP Basic)" "$(cat "$WORK/r1")"
check_eq "AS4 wrong password" 401 "$(post_as4 "$REPO/samples/as4/swa-856.as4" "$WORK/r2" -u acme:wrong)"
check_eq "wrong password text" "wrong user or password for partner acme" "$(cat "$WORK/r2")"
check_eq "AS4 wrong user" 401 "$(post_as4 "$REPO/samples/as4/swa-856.as4" "$WORK/r3" -u other:s3cret-pw)"
check_eq "nothing booked, no key" "0 0" "$(sql "$db" "SELECT (SELECT count(*) FROM shipment_notices), (SELECT count(*) FROM idempotency_keys)" | tr '|' ' ')"
# Before any decryption: a message encrypted for someone else is refused for its credentials first.
check_eq "encrypted, no credentials" 401 "$(post_as4 "$REPO/samples/as4/broken-wss-unknown-key.as4" "$WORK/r4")"
check_eq "encrypted, credentials: now the decryption error" 500 \
  "$(post_as4 "$REPO/samples/as4/broken-wss-unknown-key.as4" "$WORK/r5" -u acme:s3cret-pw)"
grep -q 'errorCode="EBMS:0102"' "$WORK/r5" || fail "r5: $(head -c 300 "$WORK/r5")"
check_eq "AS4 right credentials" 200 "$(post_as4 "$REPO/samples/as4/swa-856.as4" "$WORK/r6" -u acme:s3cret-pw)"
grep -q '<eb:Receipt>' "$WORK/r6" || fail "r6: $(head -c 300 "$WORK/r6")"
check_eq "again (the verified credentials are remembered)" 200 \
  "$(post_as4 "$REPO/samples/as4/swa-856.as4" "$WORK/r7" -u acme:s3cret-pw)"
cmp -s "$WORK/r6" "$WORK/r7" || fail "the retransmission's Receipt differs"
# A retransmission without credentials gets no stored Receipt.
check_eq "retransmission without credentials" 401 "$(post_as4 "$REPO/samples/as4/swa-856.as4" "$WORK/r8")"
# AS2: refused from the headers alone, the body never read.
{ printf 'Content-Type: application/edi-x12\r\n\r\n'; cat "$REPO/samples/edi/x12-810-004010.edi"; } >"$WORK/e"
openssl cms -sign -binary -md sha256 -signer "$C/acme.crt" -inkey "$C/acme.key" -in "$WORK/e" |
  openssl cms -encrypt -binary -aes256 -out "$WORK/m" "$C/edihub.crt"
awk 'b{print} /^\r?$/{b=1}' "$WORK/m" >"$WORK/m.body"
as2() {
  curl -s -o "$WORK/as2.out" -w '%{http_code}' -X POST --data-binary @"$WORK/m.body" "$@" \
    -H "Content-Type: $(sed -n 's/^Content-Type: //p' "$WORK/m" | head -1 | tr -d '\r')" \
    -H "Content-Transfer-Encoding: base64" -H "AS2-From: ACMESUPPLY" -H "AS2-To: EDIHUB" \
    -H "Message-ID: <auth-1@acme.example>" "http://127.0.0.1:$port/as2"
}
check_eq "AS2 without credentials" 401 "$(as2)"
check_eq "AS2 with credentials" 200 "$(as2 -u acme:s3cret-pw)"
grep -q 'processed' "$WORK/as2.out" || fail "AS2: $(head -c 300 "$WORK/as2.out")"
# An async MDN posted to /as2 by the partner is held to the same <auth>.
mdn() {
  printf -- '--b\r\nContent-Type: message/disposition-notification\r\n\r\nOriginal-Message-ID: <ack-1@edihub>\r\nDisposition: automatic-action/MDN-sent-automatically; processed\r\n\r\n--b--\r\n' |
    curl -s -o "$WORK/mdn.out" -w '%{http_code}' -X POST --data-binary @- "$@" \
      -H 'Content-Type: multipart/report; report-type=disposition-notification; boundary="b"' \
      -H "AS2-From: ACMESUPPLY" -H "AS2-To: EDIHUB" -H "Message-ID: <mdn-1@acme.example>" "http://127.0.0.1:$port/as2"
}
check_eq "async MDN without credentials" 401 "$(mdn)"
check_eq "async MDN without credentials: text" "partner acme must authenticate (HTTP Basic)" "$(cat "$WORK/mdn.out")"
check_eq "async MDN with credentials: read, and refused as unsigned (acme signs)" 403 "$(mdn -u acme:s3cret-pw)"
check_eq "both MDNs logged" 2 "$(sql_eventually "$db" 2 "SELECT count(*) FROM messages WHERE transport_id = '<mdn-1@acme.example>'")"
check_eq "the MDNs in the log: refused, then read" "rejected|partner acme must authenticate (HTTP Basic);rejected|the MDN is not signed: partner 'acme' must sign its MDNs (nothing was settled);" \
  "$(sql "$db" "SELECT outcome, detail FROM messages WHERE transport_id = '<mdn-1@acme.example>' ORDER BY id" | tr '\n' ';')"
kill -TERM "$server"; wait "$server"

# --- IP allow-list: 127.0.0.1 is not in 192.0.2.0/24, then it is in 127.0.0.0/8.
profiles "$WORK/ip-no" '<auth allow-ip="192.0.2.0/24"/>' '<auth allow-ip="2001:db8::/32"/>'
serve "$WORK/ip-no"
check_eq "address not allowed" 403 "$(post_as4 "$REPO/samples/as4/swa-gzip-810.as4" "$WORK/r9")"
check_eq "403 text" "this address may not send for partner acme" "$(cat "$WORK/r9")"
kill -TERM "$server"; wait "$server"
profiles "$WORK/ip-yes" '<auth allow-ip="192.0.2.0/24"/>' '<auth allow-ip="127.0.0.0/8"/>'
serve "$WORK/ip-yes"
check_eq "address allowed" 200 "$(post_as4 "$REPO/samples/as4/swa-gzip-810.as4" "$WORK/r10")"
kill -TERM "$server"; wait "$server"

# A profile with a clear-text password or a bad network does not load.
profiles "$WORK/bad" '<auth basic-user="acme" basic-password-hash="s3cret-pw"/>'
"$EDIHUB" certs --partners "$WORK/bad" >/dev/null 2>"$WORK/bad.err"
grep -q "<auth basic-password-hash> must be what \`edihub hash-password\` prints" "$WORK/bad.err" ||
  fail "clear-text password: $(cat "$WORK/bad.err")"
profiles "$WORK/bad2" '<auth allow-ip="10.0.0.0/33"/>'
"$EDIHUB" certs --partners "$WORK/bad2" >/dev/null 2>"$WORK/bad2.err"
grep -q "<auth allow-ip> must be an address or a CIDR network (192.0.2.0/24, 2001:db8::/32), not '10.0.0.0/33'" \
  "$WORK/bad2.err" || fail "bad CIDR: $(cat "$WORK/bad2.err")"
finish
