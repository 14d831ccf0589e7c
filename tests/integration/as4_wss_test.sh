#!/usr/bin/env bash
# Signed and encrypted AS4 (WS-Security, eDelivery AS4 profile) on `edihub
# serve`. The messages are signed and encrypted by software that is not ours:
# the JDK's XML Signature (Apache Santuario inside Java 17) and javax.crypto,
# driven by tests/interop/as4/WssPeer.java, which also verifies our signed
# Receipts; xmlsec1 verifies them too. The partner profile requires a
# signature. Checked: signer named by BinarySecurityToken, issuer/serial and
# SKI; signed + encrypted, signed + gzip + encrypted: receipted and booked; a
# retransmission gets the stored Receipt byte for byte; 20 simultaneous posts
# book once; a conflict's error is signed; and each broken message gets its
# exact EBMS error: tampered attachment, tampered eb:Messaging, wrong signer,
# signature wrapping, an algorithm the policy does not allow, parts left
# unsigned, no signature, a key for another certificate, a changed ciphertext.
source "$(dirname "$0")/lib.sh"
source "$REPO/tests/interop/as4/wss.sh"
C="$REPO/partners/certs"
db="$WORK/edihub.db"
command -v javac >/dev/null || { echo "javac is not installed (tools/setup installs it)"; exit 1; }

# acme's profile, with AS4 signatures required.
mkdir -p "$WORK/partners" "$WORK/java"
cp -r "$REPO/partners/certs" "$WORK/partners/"
sed 's|<security protocol="as4" require-signature="false"|<security protocol="as4" require-signature="true"|' \
  "$REPO/partners/acme.xml" >"$WORK/partners/acme.xml"
grep -q 'protocol="as4" require-signature="true"' "$WORK/partners/acme.xml" || fail "could not require AS4 signatures"
gateway_config "$WORK/edihub.xml" '<listen address="127.0.0.1" port="0"/>'
sed -i "s|<partners dir=\"[^\"]*\"/>|<partners dir=\"$WORK/partners\"/>|" "$WORK/edihub.xml"
start_server "$WORK/edihub.xml"
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
url="http://127.0.0.1:$port/as4"

javac -d "$WORK/java" "$REPO/tests/interop/as4/WssPeer.java" || fail "javac WssPeer"
openssl pkcs8 -topk8 -nocrypt -outform DER -in "$C/acme.key" -out "$WORK/acme.pk8"
openssl pkcs8 -topk8 -nocrypt -outform DER -in "$C/edihub.key" -out "$WORK/edihub.pk8"

envelope() { wss_envelope "wss-$1@acme.example" "payload-$1@acme.example" "${2:-}"; }
n=0
make_signed() {  # make_signed ID KEY CERT [WssPeer options]: $WORK/ID.xml signed, $WORK/ID.edi its payload
  local id=$1 key=$2 cert=$3 payload
  shift 3
  n=$((n + 1))
  sed -e "s/000000201/$(printf '%09d' $((700 + n)))/g" -e "s/INV-88301/INV-WSS-$id/" \
    "$REPO/samples/edi/x12-810-004010.edi" >"$WORK/$id.edi"
  envelope "$id" "${GZIP_PAYLOAD:-}" >"$WORK/$id.unsigned.xml"
  payload="$WORK/$id.edi"
  if [[ -n "${GZIP_PAYLOAD:-}" ]]; then  # the AS4 compression feature: gzip, then sign, then encrypt
    gzip -c "$WORK/$id.edi" >"$WORK/$id.edi.gz"
    payload="$WORK/$id.edi.gz"
  fi
  java -cp "$WORK/java" WssPeer sign "$WORK/$id.unsigned.xml" "$WORK/$id.xml" "$key" "$cert" "$@" \
    "payload-$id@acme.example=$payload" || fail "WssPeer sign $id"
}
swa_body() { wss_swa "$WORK/$1.xml" "${2:-$WORK/$1.edi}" >"$WORK/$1.body"; }  # swa_body ID [PAYLOAD]: $WORK/ID.body
post_body() {  # post_body ID OUT: posts $WORK/ID.body; prints the HTTP status
  curl -s -o "$2" -w '%{http_code}' -X POST --data-binary @"$WORK/$1.body" -H "Content-Type: $wss_content_type" "$url"
}
post_signed() {  # post_signed ID OUT [PAYLOAD]: builds and posts; prints the HTTP status
  swa_body "$1" "${3:-}"
  post_body "$1" "$2"
}
expect_error() {  # expect_error ID CODE DESCRIPTION-START
  check_eq "$1: status" 500 "$(post_signed "$1" "$WORK/$1.answer" "${4:-}")"
  grep -q "errorCode=\"$2\" severity=\"failure\"" "$WORK/$1.answer" || fail "$1: $(head -c 700 "$WORK/$1.answer")"
  grep -q "<eb:Description xml:lang=\"en\">$3" "$WORK/$1.answer" ||
    fail "$1: description $(grep -o '<eb:Description[^<]*' "$WORK/$1.answer")"
  check_eq "$1: nothing booked" 0 "$(sql "$db" "SELECT count(*) FROM invoices WHERE invoice_number = 'INV-WSS-$1'")"
}
receipted() {  # receipted ID [PAYLOAD]: 200, a signed eb:Receipt for it that the JDK verifies, its invoice booked once
  check_eq "$1: status" 200 "$(post_signed "$1" "$WORK/$1.answer" "${2:-}")"
  grep -q "<eb:RefToMessageId>wss-$1@acme.example</eb:RefToMessageId></eb:MessageInfo><eb:Receipt><ebbp:NonRepudiationInformation" \
    "$WORK/$1.answer" || fail "$1: no signed Receipt: $(head -c 700 "$WORK/$1.answer")"
  java -cp "$WORK/java" WssPeer verify "$WORK/$1.answer" "$C/edihub.crt" "$WORK/$1.xml" >"$WORK/$1.verified" ||
    fail "$1: the JDK does not accept our Receipt"
  check_eq "$1: booked" 1 "$(sql "$db" "SELECT count(*) FROM invoices WHERE invoice_number = 'INV-WSS-$1'")"
}

# --- Signed by the partner, its certificate named three ways.
make_signed bst "$WORK/acme.pk8" "$C/acme.crt"
grep -q 'Algorithm="http://docs.oasis-open.org/wss/oasis-wss-SwAProfile-1.1#Attachment-Content-Signature-Transform"' \
  "$WORK/bst.xml" || fail "the peer did not sign the attachment"
receipted bst
make_signed serial "$WORK/acme.pk8" "$C/acme.crt" --key-ref issuer-serial
receipted serial
make_signed ski "$WORK/acme.pk8" "$C/acme.crt" --key-ref ski
receipted ski
make_signed inclusive "$WORK/acme.pk8" "$C/acme.crt" --inclusive-namespaces S12,eb
grep -q 'InclusiveNamespaces' "$WORK/inclusive.xml" || fail "the peer wrote no InclusiveNamespaces"
receipted inclusive

# Signed, then encrypted for us (AES-128-GCM, RSA-OAEP SHA-256), with and without gzip.
make_signed encrypted "$WORK/acme.pk8" "$C/acme.crt" --encrypt "$C/edihub.crt"
grep -q 'xenc:EncryptedKey' "$WORK/encrypted.xml" || fail "the peer did not encrypt"
receipted encrypted "$WORK/encrypted.edi.enc"
GZIP_PAYLOAD=1 make_signed gzip-encrypted "$WORK/acme.pk8" "$C/acme.crt" --encrypt "$C/edihub.crt"
receipted gzip-encrypted "$WORK/gzip-encrypted.edi.gz.enc"

# xmlsec1, a third implementation, verifies our Receipt's signature too.
xmlsec1 --verify --pubkey-cert-pem "$C/edihub.crt" --enabled-key-data x509 --id-attr:Id Messaging \
  --id-attr:Id Body "$WORK/bst.answer" >"$WORK/xmlsec1.out" 2>&1 || fail "xmlsec1 --verify: $(cat "$WORK/xmlsec1.out")"
grep -q "^OK" "$WORK/xmlsec1.out" || fail "xmlsec1: $(cat "$WORK/xmlsec1.out")"

# Retransmission: the stored Receipt, byte for byte, nothing booked again.
check_eq "bst again: status" 200 "$(post_signed bst "$WORK/bst.again")"
cmp -s "$WORK/bst.answer" "$WORK/bst.again" || fail "the retransmitted Receipt differs"
check_eq "bst again: booked once" 1 "$(sql "$db" "SELECT count(*) FROM invoices WHERE invoice_number = 'INV-WSS-bst'")"

# 20 simultaneous posts of one signed message: one booking, identical Receipts.
make_signed burst "$WORK/acme.pk8" "$C/acme.crt"
swa_body burst
pids=()
for i in $(seq 1 20); do
  post_body burst "$WORK/burst.$i" >"$WORK/burst.$i.status" &
  pids+=($!)
done
wait "${pids[@]}"
check_eq "burst: booked once" 1 "$(sql "$db" "SELECT count(*) FROM invoices WHERE invoice_number = 'INV-WSS-burst'")"
check_eq "burst: all 200" 20 "$(for f in "$WORK"/burst.*.status; do cat "$f"; echo; done | grep -c '^200$')"
check_eq "burst: identical Receipts" 1 "$(md5sum "$WORK"/burst.{1..20} | cut -d' ' -f1 | sort -u | wc -l)"
grep -q '<eb:Receipt>' "$WORK/burst.1" || fail "burst: $(head -c 300 "$WORK/burst.1")"

# The same MessageId, signed, with other content: EBMS:0004, nothing booked, and
# the error is signed (its sender was authenticated) and verifies in the JDK.
sed 's/INV-WSS-bst/INV-WSS-other/' "$WORK/bst.edi" >"$WORK/other.edi"
java -cp "$WORK/java" WssPeer sign "$WORK/bst.unsigned.xml" "$WORK/conflict.xml" "$WORK/acme.pk8" "$C/acme.crt" \
  "payload-bst@acme.example=$WORK/other.edi" || fail "WssPeer sign conflict"
check_eq "conflict: status" 500 "$(post_signed conflict "$WORK/conflict.answer" "$WORK/other.edi")"
grep -q 'errorCode="EBMS:0004"' "$WORK/conflict.answer" || fail "conflict: $(head -c 500 "$WORK/conflict.answer")"
grep -q '<wsse:Security S12:mustUnderstand="true">' "$WORK/conflict.answer" || fail "conflict: the error is not signed"
xmlsec1 --verify --pubkey-cert-pem "$C/edihub.crt" --enabled-key-data x509 --id-attr:Id Messaging \
  --id-attr:Id Body "$WORK/conflict.answer" >/dev/null 2>&1 || fail "conflict: xmlsec1 does not verify the signed error"
check_eq "conflict: nothing booked" 0 "$(sql "$db" "SELECT count(*) FROM invoices WHERE invoice_number = 'INV-WSS-other'")"

# --- Broken messages.
make_signed tampered-payload "$WORK/acme.pk8" "$C/acme.crt"
sed 's/INV-WSS-tampered-payload/INV-WSS-tampered-payloaX/' "$WORK/tampered-payload.edi" >"$WORK/tampered-payload.changed"
expect_error tampered-payload EBMS:0101 \
  "the digest of 'cid:payload-tampered-payload@acme.example' does not match: that part changed after it was signed" \
  "$WORK/tampered-payload.changed"
make_signed tampered-messaging "$WORK/acme.pk8" "$C/acme.crt"
sed -i 's/conv-wss-tampered-messaging/conv-changed/' "$WORK/tampered-messaging.xml"
grep -q conv-changed "$WORK/tampered-messaging.xml" || fail "could not change eb:Messaging"
expect_error tampered-messaging EBMS:0101 "the digest of '#messaging' does not match"
make_signed wrong-signer "$WORK/edihub.pk8" "$C/edihub.crt"
expect_error wrong-signer EBMS:0101 "signed by a certificate this partner does not list (BinarySecurityToken"
make_signed wrapping "$WORK/acme.pk8" "$C/acme.crt"
sed -i 's|<S12:Header>|&<x:Wrapper xmlns:x="urn:example:wrapper" wsu:Id="messaging"/>|' "$WORK/wrapping.xml"
expect_error wrapping EBMS:0101 "the Id 'messaging' occurs twice (signature wrapping)"
make_signed sha1 "$WORK/acme.pk8" "$C/acme.crt" --sig-alg rsa-sha1
expect_error sha1 EBMS:0103 \
  "signature algorithm 'http://www.w3.org/2000/09/xmldsig#rsa-sha1' is not allowed by the policy"
make_signed unsigned-messaging "$WORK/acme.pk8" "$C/acme.crt" --skip messaging
expect_error unsigned-messaging EBMS:0103 "the signature does not cover the eb:Messaging header"
make_signed unsigned-attachment "$WORK/acme.pk8" "$C/acme.crt" --skip attachments
expect_error unsigned-attachment EBMS:0103 \
  "the signature does not cover the attachment cid:payload-unsigned-attachment@acme.example"
make_signed unknown-key "$WORK/acme.pk8" "$C/acme.crt" --encrypt "$C/acme.crt"
expect_error unknown-key EBMS:0102 "encrypted for a certificate that is not ours (issuer CN=ACMESUPPLY" \
  "$WORK/unknown-key.edi.enc"
make_signed tampered-ciphertext "$WORK/acme.pk8" "$C/acme.crt" --encrypt "$C/edihub.crt"
printf 'X' | dd of="$WORK/tampered-ciphertext.edi.enc" bs=1 seek=40 conv=notrunc 2>/dev/null
expect_error tampered-ciphertext EBMS:0102 \
  "the attachment cid:payload-tampered-ciphertext@acme.example does not decrypt (AES-128-GCM)" \
  "$WORK/tampered-ciphertext.edi.enc"
n=$((n + 1))
sed -e "s/000000201/$(printf '%09d' $((700 + n)))/g" -e "s/INV-88301/INV-WSS-unsigned/" \
  "$REPO/samples/edi/x12-810-004010.edi" >"$WORK/unsigned.edi"
envelope unsigned | sed 's|<wsse:Security S12:mustUnderstand="true"></wsse:Security>||' >"$WORK/unsigned.xml"
expect_error unsigned EBMS:0103 "the partner profile requires a signed message; there is no wsse:Security header"
finish
