#!/usr/bin/env bash
# Peppol access points' revocation by OCSP: `openssl ocsp` answers on
# loopback for the AP CA (tests/interop/peppol/pki.sh: POP000124 revoked),
# the gateway has <ocsp responder> and no CRL. Checked: a good certificate is
# accepted and its answer kept (a second message asks nothing); a revoked
# one gets EBMS:0101 naming OCSP; with the responder gone, a certificate not
# yet asked about is refused (unreachable="reject") and, on a gateway with
# unreachable="accept", accepted with a warning in the log; a certificate the
# responder does not know ("unknown") is refused; a responder that never
# answers refuses after timeout-ms; a timeout-ms outside 100-30000 stops serve.
source "$(dirname "$0")/lib.sh"
source "$REPO/tests/interop/peppol/pki.sh"
source "$REPO/tests/interop/peppol/peppol.sh"
peppol_test_setup
mkdir -p "$WORK/partners"
printf '<partner id="peppol"><peppol seat="*"/></partner>\n' >"$WORK/partners/peppol.xml"

# POP000128: issued by the AP CA, but not in the responder's copy of its
# database, so the responder answers "unknown" for it.
_pki_issue "$P" apca POP000128 v3_ap || { echo "FAIL: could not issue POP000128"; exit 1; }
grep -v '/CN=POP000128' "$P/apca/index.txt" >"$WORK/ocsp-index.txt"
# The responder: the AP CA's database, signed by the AP CA, answers valid 10 minutes.
ocsp_port=""
for _ in $(seq 1 20); do
  candidate=$((20000 + RANDOM % 30000))
  openssl ocsp -index "$WORK/ocsp-index.txt" -port "$candidate" -rsigner "$P/ap-ca.crt" \
    -rkey "$P/apca/ca.key" -CA "$P/ap-ca.crt" -nmin 10 >"$WORK/ocsp.out" 2>&1 &
  responder=$!
  sleep 0.5
  if kill -0 "$responder" 2>/dev/null; then ocsp_port=$candidate; break; fi
done
[[ -n $ocsp_port ]] || { echo "FAIL: openssl ocsp did not start: $(cat "$WORK/ocsp.out")"; exit 1; }

config() {  # config FILE UNREACHABLE
  cat >"$1" <<XML
<edihub>
  <identity cert="$P/POP000999.crt" key="$P/POP000999.key"/>
  <store uri="sqlite:$db"/>
  <partners dir="$WORK/partners"/>
  <listen address="127.0.0.1" port="0"/>
  <peppol seat="POP000999">
    <participant id="$ours"/>
    <ap-ca file="$P/ap-ca.crt"/>
    <ocsp responder="http://127.0.0.1:$ocsp_port" timeout-ms="1000" unreachable="$2"/>
  </peppol>
</edihub>
XML
}
config "$WORK/reject.xml" reject
start_server "$WORK/reject.xml"
trap 'kill -TERM $server $responder 2>/dev/null; wait $server 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
url="http://127.0.0.1:$port/as4"

number() { sed -i "0,/<cbc:ID>[^<]*</s//<cbc:ID>$2</" "$WORK/$1.sbd"; }
sbd good invoice.xml
number good OCSP-GOOD
make_peppol good "$WORK/good.sbd" POP000123
receipted good
check_eq "good: booked" 1 "$(sql "$db" "SELECT count(*) FROM invoices WHERE invoice_number = 'OCSP-GOOD'")"
sbd revoked invoice.xml
number revoked OCSP-REVOKED
make_peppol revoked "$WORK/revoked.sbd" POP000124
refused revoked EBMS:0101 \
  "the signer's certificate C=NO,O=Test AP,CN=POP000124 is not trusted: the certificate is revoked (OCSP: keyCompromise)"

# "unknown": refused, whatever unreachable says (it is an answer, not its absence).
sbd unknown invoice.xml
number unknown OCSP-UNKNOWN
make_peppol unknown "$WORK/unknown.sbd" POP000128
refused unknown EBMS:0101 \
  "the signer's certificate C=NO,O=Test AP,CN=POP000128 is not trusted: the OCSP responder does not know the certificate"
check_eq "unknown: nothing booked" 0 "$(sql "$db" "SELECT count(*) FROM invoices WHERE invoice_number = 'OCSP-UNKNOWN'")"

# The responder goes away: POP000123's answer is kept, POP000127 was never asked about.
kill "$responder"
wait "$responder" 2>/dev/null
sbd again invoice.xml
number again OCSP-AGAIN
make_peppol again "$WORK/again.sbd" POP000123
receipted again
sbd unasked invoice.xml
number unasked OCSP-UNASKED
make_peppol unasked "$WORK/unasked.sbd" POP000127
refused unasked EBMS:0101 \
  "the signer's certificate C=NO,O=Test AP,CN=POP000127 is not trusted: the OCSP responder http://127.0.0.1:$ocsp_port did not answer"
check_eq "unasked: nothing booked" 0 "$(sql "$db" "SELECT count(*) FROM invoices WHERE invoice_number = 'OCSP-UNASKED'")"

# unreachable="accept": the same message passes, and the log says why it was not checked.
kill -TERM "$server"
wait "$server" 2>/dev/null
config "$WORK/accept.xml" accept
start_server "$WORK/accept.xml"
url="http://127.0.0.1:$port/as4"
receipted unasked
check_eq "unasked, accepted: booked" 1 \
  "$(sql "$db" "SELECT count(*) FROM invoices WHERE invoice_number = 'OCSP-UNASKED'")"
grep -q 'ocsp.*unreachable' "$WORK/server.out" || fail "no warning for the unchecked certificate: $(tail -5 "$WORK/server.out")"

# A responder that takes the connection and never answers: refused once
# timeout-ms has passed (unreachable="reject"), not held for ever.
python3 -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(16)
print(s.getsockname()[1], flush=True)
held = []
while True:
    c, _ = s.accept(); held.append(c)
' >"$WORK/silent.port" &
silent=$!
trap 'kill -TERM $server $responder $silent 2>/dev/null; wait $server 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
for _ in $(seq 1 100); do [[ -s "$WORK/silent.port" ]] && break; sleep 0.05; done
[[ -s "$WORK/silent.port" ]] || fail "the silent responder did not start"
kill -TERM "$server"
wait "$server" 2>/dev/null
ocsp_port=$(cat "$WORK/silent.port")
config "$WORK/silent-gateway.xml" reject
sed -i 's|timeout-ms="1000"|timeout-ms="300"|' "$WORK/silent-gateway.xml"
start_server "$WORK/silent-gateway.xml"
url="http://127.0.0.1:$port/as4"
sbd silent invoice.xml
number silent OCSP-SILENT
make_peppol silent "$WORK/silent.sbd" POP000127
refused silent EBMS:0101 \
  "the signer's certificate C=NO,O=Test AP,CN=POP000127 is not trusted: the OCSP responder http://127.0.0.1:$ocsp_port did not answer"
check_eq "silent responder: nothing booked" 0 "$(sql "$db" "SELECT count(*) FROM invoices WHERE invoice_number = 'OCSP-SILENT'")"

# timeout-ms outside 100-30000 stops the gateway at start, naming the attribute.
sed 's|timeout-ms="300"|timeout-ms="50"|' "$WORK/silent-gateway.xml" >"$WORK/short-gateway.xml"
"$EDIHUB" serve --config "$WORK/short-gateway.xml" >"$WORK/short.out" 2>&1
check_eq "timeout-ms 50: exit" 2 $?
grep -q "<peppol><ocsp timeout-ms> must be 100-30000" "$WORK/short.out" || fail "timeout-ms 50: $(cat "$WORK/short.out")"
finish
