#!/usr/bin/env bash
# src/crypto/cms against `openssl cms` (an independent implementation): what
# openssl encrypts and signs, edihub decrypts and verifies, in every variant
# AS2 partners use; what edihub signs, openssl verifies.
set -u
TOOL=${CMS_TOOL:?path to cms_tool}
CERTS=$(cd "$(dirname "$0")/../../partners/certs" && pwd)
REPO=$(cd "$(dirname "$0")/../.." && pwd)
W=$(mktemp -d /tmp/edihub-cms-XXXXXX)
trap 'rm -rf "$W"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The payload: a MIME entity holding an X12 file, with CRLF line ends.
{ printf 'Content-Type: application/edi-x12\r\n\r\n'; cat "$REPO/samples/edi/x12-810-004010.edi"; } >"$W/entity"

# Encryption: key transport RSA PKCS#1 v1.5 and OAEP; AES-CBC, AES-GCM, 3DES.
for cipher in aes128 aes192 aes256 des3 aes-128-gcm aes-256-gcm; do
  for padding in pkcs1 oaep; do
    keyopt=()
    [[ $padding == oaep ]] && keyopt=(-keyopt rsa_padding_mode:oaep)
    if ! openssl cms -encrypt -binary "-$cipher" -in "$W/entity" -outform DER -out "$W/enc.der" \
      -recip "$CERTS/edihub.crt" "${keyopt[@]}" 2>"$W/err"; then
      fail "openssl could not encrypt with $cipher/$padding: $(head -1 "$W/err")"
      continue
    fi
    "$TOOL" decrypt "$W/enc.der" "$CERTS/edihub.crt" "$CERTS/edihub.key" >"$W/dec" 2>"$W/err" ||
      fail "decrypt $cipher/$padding: $(cat "$W/err")"
    cmp -s "$W/dec" "$W/entity" || fail "decrypt $cipher/$padding: content differs"
  done
done
# Addressed to someone else: decryption-failed, named.
openssl cms -encrypt -binary -aes256 -in "$W/entity" -outform DER -out "$W/enc.der" "$CERTS/acme.crt"
if "$TOOL" decrypt "$W/enc.der" "$CERTS/edihub.crt" "$CERTS/edihub.key" >/dev/null 2>"$W/err"; then
  fail "decrypted a message addressed to another certificate"
fi
grep -q '^decryption-failed: not addressed to any of our 1 certificates' "$W/err" || fail "error text: $(cat "$W/err")"

# Signatures: detached, SHA-1/2, PKCS#1 v1.5 and PSS, verified against the pinned partner cert.
for md in sha1 sha224 sha256 sha384 sha512; do
  for padding in pkcs1 pss; do
    keyopt=()
    [[ $padding == pss ]] && keyopt=(-keyopt rsa_padding_mode:pss)
    openssl cms -sign -binary -md "$md" -in "$W/entity" -signer "$CERTS/acme.crt" -inkey "$CERTS/acme.key" \
      "${keyopt[@]}" -outform DER -out "$W/sig.der" 2>"$W/err" || { fail "openssl sign $md/$padding: $(head -1 "$W/err")"; continue; }
    out=$("$TOOL" verify "$W/entity" "$W/sig.der" "$CERTS/acme.crt" 2>&1) || fail "verify $md/$padding: $out"
    [[ $out == *"CN=ACMESUPPLY digest=$md" ]] || fail "verify $md/$padding said: $out"
  done
done
# One changed byte: integrity-check-failed. Another signer: authentication-failed.
openssl cms -sign -binary -md sha256 -in "$W/entity" -signer "$CERTS/acme.crt" -inkey "$CERTS/acme.key" \
  -outform DER -out "$W/sig.der"
sed 's/INV-88301/INV-88302/' "$W/entity" >"$W/tampered"
out=$("$TOOL" verify "$W/tampered" "$W/sig.der" "$CERTS/acme.crt" 2>&1) && fail "a tampered entity verified"
[[ $out == integrity-check-failed:* ]] || fail "tampered: $out"
out=$("$TOOL" verify "$W/entity" "$W/sig.der" "$CERTS/edihub.crt" 2>&1) && fail "verified with the wrong pinned certificate"
[[ $out == "authentication-failed: signed by a certificate this partner does not list" ]] || fail "wrong signer: $out"
# The same without the signer's certificate in the message (-nocerts).
openssl cms -sign -binary -nocerts -md sha256 -in "$W/entity" -signer "$CERTS/acme.crt" -inkey "$CERTS/acme.key" \
  -outform DER -out "$W/sig-nocerts.der"
out=$("$TOOL" verify "$W/entity" "$W/sig-nocerts.der" "$CERTS/acme.crt" 2>&1) || fail "-nocerts, pinned cert: $out"
out=$("$TOOL" verify "$W/entity" "$W/sig-nocerts.der" "$CERTS/edihub.crt" 2>&1) && fail "-nocerts verified with the wrong cert"
[[ $out == "authentication-failed: signed by a certificate this partner does not list" ]] || fail "-nocerts wrong signer: $out"
# Rollover: any listed certificate may have signed.
out=$("$TOOL" verify "$W/entity" "$W/sig.der" "$CERTS/edihub.crt" "$CERTS/acme.crt" 2>&1) || fail "rollover list: $out"

# What edihub signs (MDNs), openssl verifies.
for md in sha1 sha256 sha512; do
  "$TOOL" sign "$W/entity" "$CERTS/edihub.crt" "$CERTS/edihub.key" "$md" >"$W/ours.der" || fail "sign $md"
  openssl cms -verify -binary -inform DER -in "$W/ours.der" -content "$W/entity" -CAfile "$CERTS/edihub.crt" \
    -purpose any -out /dev/null 2>"$W/err" || fail "openssl rejects our $md signature: $(cat "$W/err")"
done

# Compressed-data (RFC 3274, zlib): inflated with zlib, bounded.
"$TOOL" zlib-cms "$W/entity" >"$W/z.der"
openssl cms -cmsout -inform DER -in "$W/z.der" -print -noout >"$W/z.txt" 2>&1 || fail "openssl cannot read our compressed-data"
grep -q 'id-smime-ct-compressedData' "$W/z.txt" || fail "not compressed-data: $(head -3 "$W/z.txt")"
"$TOOL" decompress "$W/z.der" >"$W/unz" || fail "decompress"
cmp -s "$W/unz" "$W/entity" || fail "decompressed content differs"
head -c 200 "$W/z.der" >"$W/z-short.der"
"$TOOL" decompress "$W/z-short.der" >/dev/null 2>&1 && fail "a truncated compressed-data was accepted"

# MIC (RFC 4130 7.3.1) against openssl dgst.
expected=$(openssl dgst -sha256 -binary "$W/entity" | openssl base64 -A)
[[ $("$TOOL" mic "$W/entity" sha-256) == "$expected" ]] || fail "MIC sha-256"
expected=$(openssl dgst -sha1 -binary "$W/entity" | openssl base64 -A)
[[ $("$TOOL" mic "$W/entity" sha1) == "$expected" ]] || fail "MIC sha1"

# AS2 unwrapping of whole S/MIME messages made by openssl: signed, encrypted,
# signed then encrypted, encrypted then signed, compressed inside a signature;
# base64 transfer encoding as openssl writes it.
X12="$REPO/samples/edi/x12-810-004010.edi"
sign() { openssl cms -sign -binary -md sha256 -signer "$CERTS/acme.crt" -inkey "$CERTS/acme.key" -in "$1" -out "$2"; }
encrypt() { openssl cms -encrypt -binary -aes256 -in "$1" -out "$2" "$CERTS/edihub.crt"; }
unwrap() {  # unwrap MESSAGE -> facts line; payload in $W/payload
  "$TOOL" unwrap "$1" "$CERTS/edihub.crt" "$CERTS/edihub.key" "$CERTS/acme.crt" sha-256 "$W/payload" 2>"$W/err"
}
sign "$W/entity" "$W/signed.eml"
encrypt "$W/entity" "$W/encrypted.eml"
encrypt "$W/signed.eml" "$W/signed-encrypted.eml"
sign "$W/encrypted.eml" "$W/encrypted-signed.eml"
{ printf 'Content-Type: application/pkcs7-mime; smime-type=compressed-data; name=smime.p7z\r\nContent-Transfer-Encoding: base64\r\n\r\n'
  "$TOOL" zlib-cms "$W/entity" | openssl base64; } >"$W/compressed.eml"
sign "$W/compressed.eml" "$W/compressed-signed.eml"
for m in signed encrypted signed-encrypted encrypted-signed compressed-signed; do
  facts=$(unwrap "$W/$m.eml") || { fail "unwrap $m: $(cat "$W/err")"; continue; }
  cmp -s "$W/payload" "$X12" || fail "unwrap $m: payload differs from the X12 file"
  [[ $facts == content_type=application/edi-x12* ]] || fail "unwrap $m: $facts"
  case $m in
    signed) [[ $facts == *" encrypted=0 signed=1 compressed=0 "* ]] || fail "$m flags: $facts" ;;
    encrypted) [[ $facts == *" encrypted=1 signed=0 compressed=0 "* ]] || fail "$m flags: $facts" ;;
    signed-encrypted | encrypted-signed) [[ $facts == *" encrypted=1 signed=1 compressed=0 "* ]] || fail "$m flags: $facts" ;;
    compressed-signed) [[ $facts == *" encrypted=0 signed=1 compressed=1 "* ]] || fail "$m flags: $facts" ;;
  esac
done
# Signed in text mode (openssl canonicalises LF to CRLF for the signature but
# sends the bare LFs): verified against the canonical form.
printf 'Content-Type: application/edi-x12\n\n' >"$W/lf-entity"
tr -d '\r' <"$X12" >>"$W/lf-entity"
openssl cms -sign -md sha256 -signer "$CERTS/acme.crt" -inkey "$CERTS/acme.key" -in "$W/lf-entity" -out "$W/crlf-signed.eml"
sed 's/\r$//' "$W/crlf-signed.eml" >"$W/lf-signed.eml"  # a transport that dropped the CRs
grep -q $'\r' "$W/lf-signed.eml" && fail "test setup: CRs left"
facts=$(unwrap "$W/lf-signed.eml") || fail "LF-only signed message: $(cat "$W/err")"
[[ $facts == *" signed=1 "* ]] || fail "LF-only signed facts: $facts"
# MIC of an encrypted, unsigned message: over the decrypted entity (RFC 4130 7.3.1).
facts=$(unwrap "$W/encrypted.eml")
expected=$(openssl dgst -sha256 -binary "$W/entity" | openssl base64 -A)
[[ $facts == *"mic=$expected, sha-256" ]] || fail "encrypted MIC: $facts, expected $expected"
# MIC of a signed message: over the signed part, headers included, as openssl wrote it.
openssl cms -sign -binary -md sha256 -signer "$CERTS/acme.crt" -inkey "$CERTS/acme.key" -in "$W/entity" \
  -outform DER -out "$W/detached.der"
facts=$(unwrap "$W/signed.eml")
[[ $facts == *"mic=$expected, sha-256" ]] || fail "signed MIC: $facts, expected $expected"
# Failures name their disposition modifier.
sed 's/INV-88301/INV-88399/' "$W/signed.eml" >"$W/tampered.eml"
out=$(unwrap "$W/tampered.eml") && fail "tampered message unwrapped"
[[ $out == disposition=integrity-check-failed ]] || fail "tampered: $out"
openssl cms -encrypt -binary -aes256 -in "$W/entity" -out "$W/not-ours.eml" "$CERTS/acme.crt"
out=$(unwrap "$W/not-ours.eml") && fail "message for another certificate unwrapped"
[[ $out == disposition=decryption-failed ]] || fail "not ours: $out"
openssl cms -sign -binary -md sha256 -signer "$CERTS/edihub.crt" -inkey "$CERTS/edihub.key" -in "$W/entity" -out "$W/stranger.eml"
out=$(unwrap "$W/stranger.eml") && fail "message signed by a stranger unwrapped"
[[ $out == disposition=authentication-failed ]] || fail "stranger: $out"
{ printf 'Content-Type: application/pkcs7-mime; smime-type=compressed-data\r\nContent-Transfer-Encoding: base64\r\n\r\n'
  head -c 150 "$W/z.der" | openssl base64; } >"$W/bad-zlib.eml"
out=$(unwrap "$W/bad-zlib.eml") && fail "broken compressed-data unwrapped"
[[ $out == disposition=decompression-failed ]] || fail "bad zlib: $out"

# MDNs: a signed one verifies with openssl and with our own unwrap (as the
# partner would check it); the report carries the RFC 8098 fields.
"$TOOL" mdn "$CERTS/edihub.crt" "$CERTS/edihub.key" \
  "signed-receipt-protocol=optional, pkcs7-signature; signed-receipt-micalg=optional, sha-256, sha1" - >"$W/mdn.eml"
grep -q '^Content-Type: multipart/signed; protocol="application/pkcs7-signature"; micalg=sha-256;' "$W/mdn.eml" ||
  fail "signed MDN content type: $(grep Content-Type "$W/mdn.eml" | head -1)"
openssl cms -verify -in "$W/mdn.eml" -CAfile "$CERTS/edihub.crt" -purpose any -out "$W/report" 2>"$W/err" ||
  fail "openssl cannot verify our signed MDN: $(cat "$W/err")"
grep -q '^Disposition: automatic-action/MDN-sent-automatically; processed' "$W/report" || fail "MDN disposition: $(cat "$W/report")"
grep -q '^Received-Content-MIC: 7v7F++Fq/ZBXemxwOD1GvbtHRcXb2BjmWHjbvPx1P7c=, sha-256' "$W/report" || fail "MDN MIC"
grep -q '^Original-Message-ID: <test-1@acme.example>' "$W/report" || fail "MDN Original-Message-ID"
"$TOOL" unwrap "$W/mdn.eml" "$CERTS/edihub.crt" "$CERTS/edihub.key" "$CERTS/edihub.crt" sha-256 "$W/mdn-payload" >"$W/facts" 2>"$W/err" ||
  fail "our unwrap rejects our signed MDN: $(cat "$W/err")"
grep -q 'content_type=multipart/report; report-type=disposition-notification; boundary="[^"]*" encrypted=0 signed=1' "$W/facts" || fail "MDN as unwrapped: $(cat "$W/facts")"
# Unsigned when not asked; the error modifier in the disposition.
"$TOOL" mdn "$CERTS/edihub.crt" "$CERTS/edihub.key" "" decryption-failed >"$W/mdn-error.eml"
grep -q '^Content-Type: multipart/report; report-type=disposition-notification;' "$W/mdn-error.eml" || fail "unsigned MDN type"
grep -q '^Disposition: automatic-action/MDN-sent-automatically; processed/error: decryption-failed' "$W/mdn-error.eml" ||
  fail "error MDN disposition"

if ((failures > 0)); then
  echo "$failures check(s) failed"
  exit 1
fi
