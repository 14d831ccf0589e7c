#!/usr/bin/env bash
# `edihub serve` as an AS2 partner meets it: messages signed and encrypted by
# `openssl cms` (an independent implementation), posted with curl; MDNs
# verified by openssl; retransmissions answered with the same bytes; 20
# simultaneous posts of one message booked once.
source "$(dirname "$0")/lib.sh"
C="$REPO/partners/certs"
db="$WORK/edihub.db"
gateway_config "$WORK/edihub.xml" '<listen address="127.0.0.1" port="0"/>' \
  '<limits max-body-bytes="2000000" threads="8" queue="64"/>'
start_server "$WORK/edihub.xml"
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
url="http://127.0.0.1:$port/as2"
check_eq "healthz" ok "$(curl -s "http://127.0.0.1:$port/healthz")"

# make_message FILE NAME [sign] [encrypt]: an S/MIME message made by openssl.
make_message() {
  local file=$1 name=$2 sign=${3:-sign} encrypt=${4:-encrypt}
  local cur="$WORK/$name.entity"
  { printf 'Content-Type: application/edi-x12\r\n\r\n'; cat "$file"; } >"$cur"
  if [[ $sign == sign ]]; then
    openssl cms -sign -binary -md sha256 -signer "$C/acme.crt" -inkey "$C/acme.key" -in "$cur" -out "$cur.s"
    cur="$cur.s"
  fi
  if [[ $encrypt == encrypt ]]; then
    openssl cms -encrypt -binary -aes256 -in "$cur" -out "$cur.e" "$C/edihub.crt"
    cur="$cur.e"
  fi
  cp "$cur" "$WORK/$name.eml"
}
# post NAME MESSAGE-ID OUT: the message's MIME headers become HTTP headers.
post() {
  local eml="$WORK/$1.eml" ct cte
  ct=$(sed -n 's/^Content-Type: //p' "$eml" | head -1 | tr -d '\r')
  cte=$(sed -n 's/^Content-Transfer-Encoding: //p' "$eml" | head -1 | tr -d '\r')
  awk 'b{print} /^\r?$/{b=1}' "$eml" >"$3.body"
  curl -s -D "$3.headers" -o "$3" -X POST --data-binary @"$3.body" -H "Content-Type: $ct" \
    ${cte:+-H "Content-Transfer-Encoding: $cte"} -H "AS2-From: ACMESUPPLY" -H "AS2-To: EDIHUB" \
    -H "Message-ID: $2" -H "AS2-Version: 1.2" \
    -H "Disposition-Notification-Options: signed-receipt-protocol=optional, pkcs7-signature; signed-receipt-micalg=optional, ${MICALG:-sha-256}" \
    "$url"
}
# mdn_digest OUT: the digest our MDN's signature was made with (the SignerInfo,
# read by openssl), and the micalg its Content-Type announces.
mdn_digest() {
  { grep -i '^Content-Type:' "$1.headers" | tr -d '\r'; printf '\n'; cat "$1"; } >"$1.eml"
  echo "$(openssl cms -cmsout -print -in "$1.eml" 2>/dev/null | grep -A1 'digestAlgorithm:' | sed -n 's/.*algorithm: \([a-z0-9]*\).*/\1/p' | head -1)" \
    "$(grep -i '^Content-Type:' "$1.headers" | sed -n 's/.*micalg="\{0,1\}\([a-z0-9-]*\).*/\1/p')"
}
# The MDN as a MIME message, verified by openssl: its report on stdout.
mdn_report() {
  { grep -i '^Content-Type:' "$1.headers" | tr -d '\r'; printf '\n'; cat "$1"; } >"$1.eml"
  openssl cms -verify -in "$1.eml" -CAfile "$C/edihub.crt" -purpose any 2>/dev/null
}

make_message "$REPO/samples/edi/x12-810-004010.edi" m1
post m1 "<m1@acme.example>" "$WORK/r1"
report=$(mdn_report "$WORK/r1") || fail "openssl cannot verify the MDN"
grep -q '^Disposition: automatic-action/MDN-sent-automatically; processed' <<<"$report" || fail "m1 MDN: $report"
grep -q '^Original-Message-ID: <m1@acme.example>' <<<"$report" || fail "m1 Original-Message-ID"
mic=$(openssl dgst -sha256 -binary "$WORK/m1.entity" | openssl base64 -A)
grep -q "^Received-Content-MIC: $mic, sha-256" <<<"$report" || fail "m1 MIC: $(grep MIC <<<"$report"), expected $mic"
check_eq "invoice booked" 1 "$(sql "$db" "SELECT count(*) FROM invoices WHERE invoice_number = 'INV-88301'")"
# The MDN is signed with the digest it announces, the one the partner asked for
# (openssl cms -verify accepts any digest: the SignerInfo is read here).
check_eq "the MDN's signature digest and its micalg (sha-256 asked)" "sha256 sha-256" "$(mdn_digest "$WORK/r1")"

# Retransmission: the same MDN, byte for byte (headers too, but Date).
post m1 "<m1@acme.example>" "$WORK/r1b"
cmp -s "$WORK/r1" "$WORK/r1b" || fail "retransmission MDN body differs"
check_eq "retransmission headers" "$(grep -v '^Date' "$WORK/r1.headers")" "$(grep -v '^Date' "$WORK/r1b.headers")"
check_eq "no second booking" 1 "$(sql "$db" "SELECT count(*) FROM invoices")"

# The same interchange in a new AS2 message: positive MDN, no second booking, logged duplicate.
make_message "$REPO/samples/edi/x12-810-004010.edi" m1again
post m1again "<m1-again@acme.example>" "$WORK/r2"
disposition=$(mdn_report "$WORK/r2" | grep '^Disposition:' | tr -d '\r')
check_eq "resent interchange MDN" "Disposition: automatic-action/MDN-sent-automatically; processed" "$disposition"
check_eq "still one invoice" 1 "$(sql "$db" "SELECT count(*) FROM invoices")"
check_eq "interchange logged duplicate" 1 "$(sql "$db" "SELECT count(*) FROM messages WHERE transport_id = '<m1-again@acme.example>' AND outcome = 'duplicate'")"

# Errors: each with its disposition modifier.
make_message "$REPO/samples/edi/x12-856-004010.edi" plain nosign noencrypt
post plain "<plain@acme.example>" "$WORK/r3"
grep -q 'processed/error: insufficient-message-security' <(mdn_report "$WORK/r3") || fail "unsigned message: $(cat "$WORK/r3" | head -c 600)"
openssl cms -encrypt -binary -aes256 -in "$WORK/m1.entity" -out "$WORK/notours.eml" "$C/acme.crt"
post notours "<notours@acme.example>" "$WORK/r4"
grep -q 'processed/error: decryption-failed' <(mdn_report "$WORK/r4") || fail "not ours"
# Same Message-ID, other content: an error MDN, no effect.
make_message "$REPO/samples/edi/x12-856-004010.edi" other
post other "<m1@acme.example>" "$WORK/r5"
grep -q 'processed/error: unexpected-processing-error' <(mdn_report "$WORK/r5") || fail "conflict MDN"
check_eq "no shipment from the conflict" 0 "$(sql "$db" "SELECT count(*) FROM shipment_notices")"

# HTTP errors.
code=$(curl -s -o /dev/null -w '%{http_code}' -X POST --data-binary x -H "AS2-To: EDIHUB" "$url")
check_eq "missing AS2-From" 400 "$code"
code=$(curl -s -o /dev/null -w '%{http_code}' -X POST --data-binary x -H "AS2-From: NOBODY" -H "AS2-To: EDIHUB" \
  -H "Message-ID: <x>" -H "Content-Type: application/edi-x12" "$url")
check_eq "unknown partner" 403 "$code"
# Malformed HTTP, too many headers, a header too long: 400 (POCO's request parser limits).
exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'GARBAGE\r\n\r\n' >&3
check_eq "malformed request line" "HTTP/1.1 400 Bad Request" "$(timeout 5 head -1 <&3 | tr -d '\r')"
exec 3<&-
many=()
for i in $(seq 1 120); do many+=(-H "X-H$i: v"); done
check_eq "120 headers" 400 "$(curl -s -o /dev/null -w '%{http_code}' "${many[@]}" -X POST --data x "$url")"
check_eq "a 9000-byte header" 400 "$(curl -s -o /dev/null -w '%{http_code}' -H "X-Long: $(head -c 9000 /dev/zero | tr '\0' a)" -X POST --data x "$url")"
head -c 2100000 /dev/zero >"$WORK/big"
code=$(curl -s -o /dev/null -w '%{http_code}' -X POST --data-binary @"$WORK/big" -H "AS2-From: ACMESUPPLY" "$url")
check_eq "too large" 413 "$code"

# 20 simultaneous posts of one new message: one booking, one MDN for all (or 503 then the MDN).
make_message "$REPO/samples/edi/x12-856-005010.edi" burst
posts=()
for i in $(seq 1 20); do
  post burst "<burst@acme.example>" "$WORK/b$i" &
  posts+=($!)
done
wait "${posts[@]}"
for i in $(seq 1 20); do
  if grep -q '^HTTP/1.1 503' "$WORK/b$i.headers"; then post burst "<burst@acme.example>" "$WORK/b$i"; fi
  cmp -s "$WORK/b1" "$WORK/b$i" || fail "post $i got a different MDN"
done
check_eq "burst: shipment notices booked once" 2 "$(sql "$db" "SELECT count(*) FROM shipment_notices")"
check_eq "burst: one transport key" 1 "$(sql "$db" "SELECT count(*) FROM idempotency_keys WHERE message_id = 'as2:<burst@acme.example>'")"

# Every request that was decided is archived with its decision, in the same
# commit (duplicates of it point at nothing new); exported, it replays as a duplicate.
check_eq "decided messages without a capture" 0 "$(sql "$db" "SELECT count(*) FROM messages WHERE protocol = 'as2' AND partner_id IS NOT NULL AND outcome IN ('processed', 'rejected', 'conflict') AND capture_id IS NULL AND detail NOT LIKE 'not authenticated%'")"
# A copy that never proved its sender (unsigned, signed by another) is answered, never kept.
check_eq "unauthenticated copies: answered, not archived" "2 0" "$(sql "$db" "SELECT count(*), count(capture_id) FROM messages WHERE protocol = 'as2' AND detail LIKE 'not authenticated%'" | tr '|' ' ')"
check_eq "captures of the burst" 1 "$(sql "$db" "SELECT count(*) FROM captures WHERE message_id = 'as2:<burst@acme.example>'")"
# (the capture of m1 itself, not the conflicting one sent with the same Message-ID: the oldest)
first_id=$("$EDIHUB" archive list --db "sqlite:$db" --message-id 'as2:<m1@acme.example>' --json | tail -1 | sed 's/{"id":\([0-9]*\),.*/\1/')
first=$("$EDIHUB" archive export --db "sqlite:$db" --out "$WORK/exported" "$first_id")
check_eq "exported capture names its partner" "EDIHUB-CAPTURE partner=acme" "$(head -1 "$first" | tr -d '\r')"
sed -n 2p "$first" | grep -q '^POST /as2 HTTP/1.1' || fail "exported capture's request line: $(sed -n 2p "$first")"
out=$("$EDIHUB" replay --db "sqlite:$db" --partners "$REPO/partners" --json "$first")
grep -q '"outcome":"duplicate"' <<<"$out" || fail "replayed archive: $out"

# One reading of every message: a signed message whose Content-Type gives its
# boundary twice, and one whose signed part repeats its Content-Type, are refused
# (not read by their first value), nothing stored.
x12_amb() { sed -e "s/000000201/$1/g" -e "s/INV-88301/$2/" "$REPO/samples/edi/x12-810-004010.edi" >"$WORK/$3.edi"; }
x12_amb 000000731 INV-AMB1 amb1
make_message "$WORK/amb1.edi" amb1 sign nosign
sed -i '0,/^Content-Type: multipart\/signed;/s/^\(Content-Type: multipart\/signed;.*\)boundary="\([^"]*\)"/\1boundary="\2"; boundary="other"/' "$WORK/amb1.eml"
grep -q 'boundary="other"' "$WORK/amb1.eml" || fail "amb1: no second boundary: $(grep -m1 Content-Type "$WORK/amb1.eml")"
post amb1 "<amb1@acme.example>" "$WORK/ramb1"
grep -aq "processed/error: unexpected-processing-error" "$WORK/ramb1" || fail "amb1: $(head -c 600 "$WORK/ramb1")"
grep -aq "Content-Type parameter 'boundary' given twice" "$WORK/ramb1" || fail "amb1 text: $(grep -a 'could not' "$WORK/ramb1")"
x12_amb 000000732 INV-AMB2 amb2
{ printf 'Content-Type: application/edi-x12\r\nContent-Type: text/plain\r\n\r\n'; cat "$WORK/amb2.edi"; } >"$WORK/amb2.entity"
openssl cms -sign -binary -md sha256 -signer "$C/acme.crt" -inkey "$C/acme.key" -in "$WORK/amb2.entity" -out "$WORK/amb2.eml"
post amb2 "<amb2@acme.example>" "$WORK/ramb2"
grep -aq "MIME header 'Content-Type' given twice" "$WORK/ramb2" || fail "amb2: $(grep -a 'could not\|Disposition' "$WORK/ramb2")"
check_eq "ambiguous messages: nothing booked" 0 "$(sql "$db" "SELECT count(*) FROM invoices WHERE invoice_number IN ('INV-AMB1', 'INV-AMB2')")"

# sha-512 asked: sha-512 signed and announced.
x12_micalg() { sed -e "s/000000201/$1/g" -e "s/INV-88301/$2/" "$REPO/samples/edi/x12-810-004010.edi" >"$WORK/$3.edi"; }
x12_micalg 000000741 INV-MICALG m512
make_message "$WORK/m512.edi" m512
MICALG=sha-512 post m512 "<m512@acme.example>" "$WORK/r512"
check_eq "the MDN's signature digest and its micalg (sha-512 asked)" "sha512 sha-512" "$(mdn_digest "$WORK/r512")"

kill -TERM $server
wait $server
check_eq "graceful stop" 0 $?
grep -q 'edihub: stopped' "$WORK/server.out" || fail "no stop message"
trap '[[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
finish
