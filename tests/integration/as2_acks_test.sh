#!/usr/bin/env bash
# Functional acknowledgments back to the partner over AS2, received by a
# partner server made with the npm package libas2 (tests/interop/libas2/
# partner.js): it decrypts and verifies what edihub sends and answers a
# signed MDN, sync or async; `openssl cms` decrypts and verifies the bytes
# edihub kept. Then the faults: a 500 first, a wrong MIC, a bad signature, a
# hanging partner, a partner down: each ends retried or failed for the
# operator, never a second copy under a new Message-ID.
source "$(dirname "$0")/lib.sh"
NODE_DIR="$REPO/tests/interop/libas2"
if [[ ! -d "$NODE_DIR/node_modules/libas2" ]]; then
  (cd "$NODE_DIR" && npm ci --no-audit --no-fund --silent) || { echo "npm ci failed"; exit 1; }
fi
C="$REPO/partners/certs"
db="$WORK/edihub.db"
free_port() { node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close() })'; }
mkdir -p "$WORK/partners" "$WORK/received"
cp -r "$REPO/partners/certs" "$REPO/partners/staedi.xml" "$WORK/partners/"
partner_port=$(free_port)
gateway_port=$(free_port)
(cd "$NODE_DIR" && exec node partner.js "$partner_port" "$C" "$WORK/received") >"$WORK/partner.out" 2>&1 &
partner=$!
server=""
trap 'kill $server $partner 2>/dev/null; wait $server $partner 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT

# profile MODE [ACK-ATTRIBUTES]: acme sends to the libas2 partner at /as2/MODE.
profile() {
  sed -e "s|<as2 id=\"ACMESUPPLY\"/>|<as2 id=\"ACMESUPPLY\" url=\"http://127.0.0.1:$1/as2/$2\" key-transport=\"rsa-oaep\"/>|" \
      -e "s|</partner>|  <acknowledgments ${3:-}/>\n</partner>|" "$REPO/partners/acme.xml" >"$WORK/partners/acme.xml"
}
serve() {  # serve MODE [ACK-ATTRIBUTES] [PARTNER-PORT]: (re)starts the gateway for that partner behaviour
  [[ -n $server ]] && { kill -TERM "$server"; wait "$server" 2>/dev/null; }
  profile "${3:-$partner_port}" "$1" "${2:-}"
  gateway_config "$WORK/edihub.xml" "<listen address=\"127.0.0.1\" port=\"$gateway_port\" public-url=\"http://127.0.0.1:$gateway_port/as2\"/>" \
    '<outbox first-retry-seconds="1" max-attempts="4" timeout-seconds="2"/>'
  sed -i "s|<partners dir=\"[^\"]*\"/>|<partners dir=\"$WORK/partners\"/>|" "$WORK/edihub.xml"
  start_server "$WORK/edihub.xml"
}
send() {  # send N: the Nth new X12 810 from acme, signed and encrypted by openssl; prints its ISA13
  local n=$1 ctl
  ctl=$(printf '%09d' $((600 + n)))
  { printf 'Content-Type: application/edi-x12\r\n\r\n'
    sed -e "s/000000201/$ctl/g" -e "s/INV-88301/INV-ACK$n/" "$REPO/samples/edi/x12-810-004010.edi"; } >"$WORK/e$n"
  openssl cms -sign -binary -md sha256 -signer "$C/acme.crt" -inkey "$C/acme.key" -in "$WORK/e$n" |
    openssl cms -encrypt -binary -aes256 -out "$WORK/m$n" "$C/edihub.crt"
  awk 'b{print} /^\r?$/{b=1}' "$WORK/m$n" >"$WORK/b$n"
  curl -s -o /dev/null -X POST --data-binary @"$WORK/b$n" \
    -H "Content-Type: $(sed -n 's/^Content-Type: //p' "$WORK/m$n" | head -1 | tr -d '\r')" \
    -H "Content-Transfer-Encoding: base64" -H "AS2-From: ACMESUPPLY" -H "AS2-To: EDIHUB" -H "Message-ID: <ack-test-$n@acme.example>" \
    "http://127.0.0.1:$port/as2"
  echo "$ctl"
}
# ack_row ISA13 COLUMN: the outbox row of the 997 for that interchange.
ack_row() { sql "$db" "SELECT $2 FROM outbox WHERE kind = '997' AND reference = 'x12:ACMESUPPLY:$1'"; }
state_is() { [[ $(ack_row "$1" state) == "$2" ]]; }
attempts_reach() { (($(ack_row "$1" attempts || true) + 0 >= $2)); }
wait_state() {  # wait_state ISA13 STATE: until the row is in STATE (60 s at most); prints its state
  eventually 60 state_is "$1" "$2"
  ack_row "$1" state
}

# Sync MDN.
serve sync
ctl=$(send 1)
check_eq "sync: delivered" delivered "$(wait_state "$ctl" delivered)"
mid=$(ack_row "$ctl" message_id)
safe=$(tr -c 'A-Za-z0-9.@\n-' '_' <<<"$mid")
[[ -f "$WORK/received/$safe.edi" ]] || fail "sync: libas2 did not keep the content: $(ls "$WORK/received") $(cat "$WORK/received/errors.log" 2>/dev/null | head -3)"
# (libas2 hands its application the part with the CRLF of the delimiter that follows it.)
check_eq "sync: libas2 read our 997 as we queued it" "$(ack_row "$ctl" "hex(body)")0D0A" "$(od -An -tx1 -v "$WORK/received/$safe.edi" | tr -d ' \n' | tr a-f A-F)"
grep -q "^ST\*997\*" "$WORK/received/$safe.edi" || fail "sync: not a 997: $(head -c 300 "$WORK/received/$safe.edi")"
grep -q "^ISA\*00\*          \*00\*          \*ZZ\*EDIHUB         \*ZZ\*ACMESUPPLY     \*" "$WORK/received/$safe.edi" ||
  fail "sync: the 997 is not addressed from EDIHUB to ACMESUPPLY"
# The MIC libas2 computed is the one edihub expected (it compared it to accept the MDN), and openssl agrees.
sql "$db" "SELECT writefile('$WORK/ack.body', body) FROM outbox WHERE message_id = '$mid'" >/dev/null
{ printf 'Content-Type: application/edi-x12\r\nContent-Transfer-Encoding: binary\r\n\r\n'; cat "$WORK/ack.body"; } >"$WORK/ack.entity"
mic=$(openssl dgst -sha256 -binary "$WORK/ack.entity" | openssl base64 -A)
check_eq "sync: libas2's MIC algorithm" sha-256 "$(cut -d, -f2 "$WORK/received/$safe.mic" | tr -d ' ' | tr A-Z a-z)"
check_eq "sync: libas2's MIC value" "$mic" "$(cut -d, -f1 "$WORK/received/$safe.mic")"
# openssl decrypts (with the partner's key) and verifies (against our certificate) the bytes edihub kept and sent.
sql "$db" "SELECT writefile('$WORK/ack.der', prepared) FROM outbox WHERE message_id = '$mid'" >/dev/null
openssl cms -decrypt -inform DER -in "$WORK/ack.der" -recip "$C/acme.crt" -inkey "$C/acme.key" -out "$WORK/ack.signed" 2>"$WORK/err" ||
  fail "openssl cannot decrypt what edihub sent: $(cat "$WORK/err")"
# (openssl's S/MIME reader rewrites bare LFs, which X12 has: the two parts are split here and verified detached.)
node -e '
  const fs = require("fs"), [signed, content, sig] = process.argv.slice(1)
  const b = fs.readFileSync(signed, "latin1"), boundary = "--" + /boundary="([^"]+)"/.exec(b)[1]
  const parts = b.split("\r\n" + boundary)  // the header block, the content, the signature, "--"
  fs.writeFileSync(content, parts[1].slice(2), "latin1")
  fs.writeFileSync(sig, Buffer.from(parts[2].split("\r\n\r\n")[1], "base64"))' "$WORK/ack.signed" "$WORK/ack.part" "$WORK/ack.p7s"
openssl cms -verify -binary -inform DER -in "$WORK/ack.p7s" -content "$WORK/ack.part" -CAfile "$C/edihub.crt" -purpose any \
  -out /dev/null 2>"$WORK/err" || fail "openssl cannot verify edihub's signature: $(cat "$WORK/err")"
cmp -s "$WORK/ack.part" "$WORK/ack.entity" || fail "the signed part is not the acknowledgment's entity"
check_eq "sync: one request for that Message-ID" 1 "$(grep -c " $mid " "$WORK/received/requests.log")"

# Async MDN, to our /as2.
serve async 'mdn="async"'
ctl=$(send 2)
check_eq "async: delivered by the MDN sent to /as2" delivered "$(wait_state "$ctl" delivered)"
check_eq "async: the MDN is kept" 1 "$(sql "$db" "SELECT count(*) FROM outbox WHERE reference = 'x12:ACMESUPPLY:$ctl' AND length(receipt) > 100")"

# A 500 first: retried, the same Message-ID, then delivered.
serve fail-first
ctl=$(send 3)
check_eq "500 first: delivered after a retry" delivered "$(wait_state "$ctl" delivered)"
mid=$(ack_row "$ctl" message_id)
check_eq "500 first: two requests, one Message-ID" 2 "$(grep -c " $mid " "$WORK/received/requests.log")"

# A well-signed MDN with another MIC: failed for the operator, with why.
serve wrong-mic
ctl=$(send 4)
check_eq "wrong MIC: failed" failed "$(wait_state "$ctl" failed)"
ack_row "$ctl" last_error | grep -q "Received-Content-MIC" || fail "wrong MIC: last error: $(ack_row "$ctl" last_error)"

# An MDN altered after signing: failed, the signature named.
serve bad-signature
ctl=$(send 5)
check_eq "bad signature: failed" failed "$(wait_state "$ctl" failed)"
ack_row "$ctl" last_error | grep -qi "signature" || fail "bad signature: last error: $(ack_row "$ctl" last_error)"

# A partner that never answers: the attempt times out and is retried, same identity.
serve hang
ctl=$(send 6)
eventually 30 attempts_reach "$ctl" 2 || fail "hang: not retried within 30 s ($(ack_row "$ctl" attempts) attempts)"
ack_row "$ctl" last_error | grep -qi "timeout\|timed out" || fail "hang: last error: $(ack_row "$ctl" last_error)"
mid=$(ack_row "$ctl" message_id)
check_eq "hang: every attempt under one Message-ID" "$(ack_row "$ctl" attempts)" "$(grep -c " $mid " "$WORK/received/requests.log")"

# A partner that is down: retried until the limit, then failed for the operator.
serve sync '' "$(free_port)"
ctl=$(send 7)
check_eq "down: failed after the retries" failed "$(wait_state "$ctl" failed)"
ack_row "$ctl" last_error | grep -qi "connect" || fail "down: last error: $(ack_row "$ctl" last_error)"
check_eq "down: attempts" 4 "$(ack_row "$ctl" attempts)"
# The operator retries it once the partner is back: delivered under the same Message-ID.
mid=$(ack_row "$ctl" message_id)
serve sync
"$EDIHUB" outbox retry "$(ack_row "$ctl" id)" --db "sqlite:$db" >/dev/null || fail "outbox retry"
check_eq "down: delivered after the operator's retry" delivered "$(wait_state "$ctl" delivered)"
check_eq "down, retried: the same Message-ID" "$mid" "$(ack_row "$ctl" message_id)"
check_eq "operator actions logged" 1 "$(sql "$db" "SELECT count(*) FROM messages WHERE protocol = 'outbox' AND detail LIKE 'operator retried%'")"
finish
