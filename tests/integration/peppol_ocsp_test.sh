#!/usr/bin/env bash
# Peppol access points' revocation by OCSP: `openssl ocsp` answers on
# loopback for the AP CA (tests/interop/peppol/pki.sh: POP000124 revoked),
# the gateway has <ocsp responder> and no CRL. Checked: a good certificate is
# accepted and its answer kept (a second message asks nothing); a revoked
# one gets EBMS:0101 naming OCSP; with the responder gone, a certificate not
# yet asked about is refused (unreachable="reject") and, on a gateway with
# unreachable="accept", accepted with a warning in the log.
source "$(dirname "$0")/lib.sh"
source "$REPO/tests/interop/peppol/pki.sh"
source "$REPO/tests/interop/peppol/peppol.sh"
peppol_test_setup
mkdir -p "$WORK/partners"
printf '<partner id="peppol"><peppol seat="*"/></partner>\n' >"$WORK/partners/peppol.xml"

# The responder: the AP CA's own database, signed by the AP CA, answers valid 10 minutes.
ocsp_port=""
for _ in $(seq 1 20); do
  candidate=$((20000 + RANDOM % 30000))
  openssl ocsp -index "$P/apca/index.txt" -port "$candidate" -rsigner "$P/ap-ca.crt" \
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
finish
