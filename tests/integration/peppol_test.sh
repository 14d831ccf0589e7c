#!/usr/bin/env bash
# edihub as a Peppol receiving access point (C3), against a sending access
# point that is not ours: the JDK peer (tests/interop/as4/WssPeer.java)
# signs and encrypts Peppol AS4 messages carrying a Standard Business
# Document (samples/peppol), with certificates of a PKI made by `openssl ca`
# (tests/interop/peppol/pki.sh: root, AP CA, access points; one revoked, one
# expired, one from another CA) and verifies our signed Receipts. Checked: an
# invoice, a credit note and a despatch advice booked under their sending
# participant; the original Receipt byte for byte to a retransmission; a new
# MessageId with the same InstanceIdentifier books nothing again; 20
# simultaneous posts book once; each refused message gets its exact EBMS
# error: revoked, expired, other CA, a CN that is not eb:From, a receiver we
# do not serve (PEPPOL:NOT_SERVICED), an SBDH that disagrees with the AS4
# properties, an invoice whose totals do not add up.
source "$(dirname "$0")/lib.sh"
source "$REPO/tests/interop/peppol/pki.sh"
source "$REPO/tests/interop/peppol/peppol.sh"
peppol_test_setup

# Our access point POP000999 receives for two participants; one profile serves every sending AP.
mkdir -p "$WORK/partners" "$WORK/java" "$WORK/documents"
cat >"$WORK/partners/peppol.xml" <<XML
<partner id="peppol">
  <name>Every Peppol access point</name>
  <peppol seat="*"/>
  <documents dir="$WORK/documents"/>
</partner>
XML
cat >"$WORK/edihub.xml" <<XML
<edihub>
  <identity as4-party-id="POP000999" cert="$P/POP000999.crt" key="$P/POP000999.key"/>
  <store uri="sqlite:$db"/>
  <partners dir="$WORK/partners"/>
  <listen address="127.0.0.1" port="0"/>
  <peppol seat="POP000999">
    <participant id="$ours" country="NO"/>
    <participant id="0088:7300010000001"/>
    <ap-ca file="$P/ap-ca.crt"/>
    <crl file="$P/ap-ca.crl"/>
  </peppol>
</edihub>
XML
start_server "$WORK/edihub.xml"
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
url="http://127.0.0.1:$port/as4"
grep -q "Peppol access point POP000999 on /as4 for 2 participants" "$WORK/server.out" ||
  fail "serve does not say it is a Peppol access point: $(cat "$WORK/server.out")"

invoices() { sql "$db" "SELECT count(*) FROM invoices WHERE invoice_number = '$1'"; }

# --- Accepted: an invoice from POP000123, booked under its sending participant.
sbd invoice invoice.xml
invoice_no=$(sbd_number "$WORK/invoice.sbd")
sender=$(sbd_party "$WORK/invoice.sbd" Sender)
make_peppol invoice "$WORK/invoice.sbd" POP000123
receipted invoice
check_eq "invoice: booked once" 1 "$(invoices "$invoice_no")"
check_eq "invoice: under its sending participant" "$sender" \
  "$(sql "$db" "SELECT partner_id FROM invoices WHERE invoice_number = '$invoice_no'")"
check_eq "invoice: its lines" "$(grep -c '<cac:InvoiceLine>' "$WORK/invoice.sbd")" \
  "$(sql "$db" "SELECT count(*) FROM invoice_lines WHERE invoice_number = '$invoice_no'")"
check_eq "invoice: key" "peppol:$sender:instance-invoice" \
  "$(sql "$db" "SELECT message_id FROM idempotency_keys WHERE message_id LIKE 'peppol:%'")"
event=$(sql_eventually "$db" 1 "SELECT count(*) FROM outbox WHERE kind = 'document' AND state = 'delivered'")
check_eq "invoice: delivered to the back office" 1 "$event"
grep -q '"xml":"<' "$WORK"/documents/*.json || fail "the document event carries no original UBL"

# The same bytes again: the stored Receipt, byte for byte.
check_eq "invoice again: status" 200 "$(post invoice "$WORK/invoice.again")"
cmp -s "$WORK/invoice.answer" "$WORK/invoice.again" || fail "the retransmitted Receipt differs"
# A new MessageId with the same InstanceIdentifier: a Receipt for it, booked once.
cp "$WORK/invoice.sbd" "$WORK/resent.sbd"
make_peppol resent "$WORK/resent.sbd" POP000123
receipted resent
check_eq "resent: still booked once" 1 "$(invoices "$invoice_no")"
check_eq "resent: logged as a duplicate" 1 \
  "$(sql "$db" "SELECT count(*) FROM messages WHERE message_id = 'peppol:$sender:instance-invoice' AND outcome = 'duplicate'")"
# "Send again" in the sender's C2: the same InstanceIdentifier and document, a
# new CreationDateAndTime and MessageId. A duplicate: Receipted, booked once,
# and the log says that only the creation time differed.
sed 's|<CreationDateAndTime>[^<]*<|<CreationDateAndTime>2026-12-06T08:00:00Z<|' "$WORK/invoice.sbd" >"$WORK/again-later.sbd"
cmp -s "$WORK/invoice.sbd" "$WORK/again-later.sbd" && fail "the resent SBD has the same CreationDateAndTime"
make_peppol again-later "$WORK/again-later.sbd" POP000123
receipted again-later
check_eq "send again: still booked once" 1 "$(invoices "$invoice_no")"
check_eq "send again: a duplicate that differs only in its creation time" 1 \
  "$(sql "$db" "SELECT count(*) FROM messages WHERE transport_id = 'peppol-again-later@POP000123' AND outcome = 'duplicate'
                AND detail LIKE '%differs from the first only in its SBDH CreationDateAndTime%'")"
# Another document under the same InstanceIdentifier: a conflict, nothing booked.
sed "s|<cbc:ID>$invoice_no</cbc:ID>|<cbc:ID>SAME-INSTANCE-1</cbc:ID>|" "$WORK/invoice.sbd" >"$WORK/same-instance.sbd"
make_peppol same-instance "$WORK/same-instance.sbd" POP000123
post same-instance "$WORK/same-instance.answer" >/dev/null
check_eq "same InstanceIdentifier, other document: a conflict" 1 \
  "$(sql "$db" "SELECT count(*) FROM messages WHERE transport_id = 'peppol-same-instance@POP000123' AND outcome = 'conflict'")"
check_eq "same InstanceIdentifier, other document: not booked" 0 "$(invoices SAME-INSTANCE-1)"

# COUNTRY_C1 missing (mandatory from SBDH 2.0, optional before): accepted; the
# TSR counts it under sender country ZZ.
sbd no-country invoice.xml -e "s|<cbc:ID>$invoice_no</cbc:ID>|<cbc:ID>NOCOUNTRY-1</cbc:ID>|" \
  -e '/<Scope>/{N;/COUNTRY_C1/{N;N;d}}'
grep -q COUNTRY_C1 "$WORK/no-country.sbd" && fail "the SBD still has COUNTRY_C1: $(grep -n -B2 -A2 COUNTRY_C1 "$WORK/no-country.sbd")"
make_peppol no-country "$WORK/no-country.sbd" POP000123
receipted no-country
check_eq "no COUNTRY_C1: booked" 1 "$(invoices NOCOUNTRY-1)"

# 20 simultaneous posts of one message: one booking, identical Receipts.
sbd burst invoice.xml -e "s|<cbc:ID>$invoice_no</cbc:ID>|<cbc:ID>BURST-1</cbc:ID>|"
make_peppol burst "$WORK/burst.sbd" POP000127
pids=()
for i in $(seq 1 20); do
  post burst "$WORK/burst.$i" >"$WORK/burst.$i.status" &
  pids+=($!)
done
wait "${pids[@]}"
check_eq "burst: booked once" 1 "$(invoices BURST-1)"
check_eq "burst: all 200" 20 "$(for f in "$WORK"/burst.*.status; do cat "$f"; echo; done | grep -c '^200$')"
check_eq "burst: identical Receipts" 1 "$(md5sum "$WORK"/burst.{1..20} | cut -d' ' -f1 | sort -u | wc -l)"

# A credit note and a despatch advice.
sbd credit credit-note.xml
make_peppol credit "$WORK/credit.sbd" POP000123
receipted credit
credit_no=$(sbd_number "$WORK/credit.sbd")
check_eq "credit note: booked as a credit note" 1 \
  "$(sql "$db" "SELECT credit_note FROM invoices WHERE invoice_number = '$credit_no'")"
sbd despatch despatch-advice.xml
make_peppol despatch "$WORK/despatch.sbd" POP000123
receipted despatch
despatch_no=$(sbd_number "$WORK/despatch.sbd")
check_eq "despatch advice: booked" 1 \
  "$(sql "$db" "SELECT count(*) FROM shipment_notices WHERE document_number = '$despatch_no'")"

# --- Refused by who sent it.
sbd revoked invoice.xml -e "s|<cbc:ID>$invoice_no</cbc:ID>|<cbc:ID>REVOKED-1</cbc:ID>|"
make_peppol revoked "$WORK/revoked.sbd" POP000124
refused revoked EBMS:0101 "the signer's certificate C=NO,O=Test AP,CN=POP000124 is not trusted: the certificate is revoked"
sbd expired invoice.xml -e "s|<cbc:ID>$invoice_no</cbc:ID>|<cbc:ID>EXPIRED-1</cbc:ID>|"
make_peppol expired "$WORK/expired.sbd" POP000125
refused expired EBMS:0101 "the signer's certificate C=NO,O=Test AP,CN=POP000125 is not trusted: the certificate has expired"
sbd other-ca invoice.xml -e "s|<cbc:ID>$invoice_no</cbc:ID>|<cbc:ID>OTHERCA-1</cbc:ID>|"
make_peppol other-ca "$WORK/other-ca.sbd" POP000126
refused other-ca EBMS:0101 "the signer's certificate C=NO,O=Test AP,CN=POP000126 is not trusted: the certificate (issuer CN=Other Root CA,O=Test Peppol) does not chain to a configured access point CA"
sbd wrong-seat invoice.xml -e "s|<cbc:ID>$invoice_no</cbc:ID>|<cbc:ID>WRONGSEAT-1</cbc:ID>|"
make_peppol wrong-seat "$WORK/wrong-seat.sbd" POP000127 POP000123
refused wrong-seat EBMS:0101 "the signer's certificate C=NO,O=Test AP,CN=POP000127 is not trusted: its CN 'POP000127' is not the sending access point's seat id in eb:From 'POP000123'"
for no in REVOKED-1 EXPIRED-1 OTHERCA-1 WRONGSEAT-1; do check_eq "$no: nothing booked" 0 "$(invoices "$no")"; done

# --- Refused for what it says.
sbd not-ours invoice.xml -e "s|$ours|0088:7300010000099|g"
make_peppol not-ours "$WORK/not-ours.sbd" POP000123
refused not-ours EBMS:0004 "the receiving participant 0088:7300010000099 is not served by this access point" PEPPOL:NOT_SERVICED
sbd mismatch invoice.xml -e "s|<cbc:ID>$invoice_no</cbc:ID>|<cbc:ID>MISMATCH-1</cbc:ID>|"
make_peppol mismatch "$WORK/mismatch.sbd" POP000123 "" "" 0088:7300010000001
refused mismatch EBMS:0003 "the SBDH sender"
check_eq "mismatch: nothing booked" 0 "$(invoices MISMATCH-1)"
# The order of the checks: a PartyId of another type is the P-Mode's EBMS:0010,
# not an unknown sender's EBMS:0001; a seller EndpointID that is not the SBDH
# sender is EBMS:0003, even when the totals do not add up either.
sbd party-type invoice.xml -e "s|<cbc:ID>$invoice_no</cbc:ID>|<cbc:ID>PARTYTYPE-1</cbc:ID>|"
PEPPOL_FROM_TYPE=urn:oasis:names:tc:ebcore:partyid-type:unregistered make_peppol party-type "$WORK/party-type.sbd" POP000123
refused party-type EBMS:0010 "eb:From must be one PartyId of type urn:fdc:peppol.eu:2017:identifiers:ap"
sbd endpoint broken-totals.xml -e "0,/<cbc:ID>[^<]*</s//<cbc:ID>ENDPOINT-1</" \
  -e 's|<cbc:EndpointID schemeID="0192">923456783<|<cbc:EndpointID schemeID="0192">910000000<|'
make_peppol endpoint "$WORK/endpoint.sbd" POP000123
refused endpoint EBMS:0003 "the SBDH sender '[^']*' is not the seller's EndpointID '0192:910000000'"
for no in PARTYTYPE-1 ENDPOINT-1; do check_eq "$no: nothing booked" 0 "$(invoices "$no")"; done
sbd totals broken-totals.xml -e "0,/<cbc:ID>[^<]*</s//<cbc:ID>TOTALS-1</"
make_peppol totals "$WORK/totals.sbd" POP000123
refused totals EBMS:0004 "the document breaks BR-CO-"
check_eq "totals: nothing booked" 0 "$(invoices TOTALS-1)"

# --- The month's Peppol reports: five documents booked (the ones resent under a
# new MessageId count once), from two access points, for one end user of ours.
month=$(date -u +%Y-%m)
"$EDIHUB" peppol-report tsr --month "$month" --config "$WORK/edihub.xml" >"$WORK/tsr.xml" 2>"$WORK/tsr.err"
check_eq "tsr: exit (written, with a problem to report)" 1 $?
check_eq "tsr: the problem named" "edihub peppol-report: c1_country missing: the TSR writes ZZ" "$(cat "$WORK/tsr.err")"
tr -d ' \n' <"$WORK/tsr.xml" >"$WORK/tsr.flat"
grep -q '<Total><Incoming>5</Incoming><Outgoing>0</Outgoing></Total>' "$WORK/tsr.flat" ||
  fail "tsr total: $(head -c 900 "$WORK/tsr.xml")"
grep -q '<ReporterIDschemeID="CertSubjectCN">POP000999</ReporterID>' "$WORK/tsr.flat" || fail "tsr reporter"
check_eq "tsr: subtotals per access point, document type and process" 4 "$(grep -o 'type="PerSP-DT-PR"' "$WORK/tsr.xml" | wc -l)"
grep -q '<KeymetaSchemeID="CC"schemeID="SenderCountry">ZZ</Key>' "$WORK/tsr.flat" ||
  fail "tsr: the invoice without COUNTRY_C1 is not under sender country ZZ: $(grep -o 'SenderCountry">[A-Z]*' "$WORK/tsr.xml" | sort | uniq -c)"
"$EDIHUB" peppol-report eusr --month "$month" --config "$WORK/edihub.xml" >"$WORK/eusr.xml" 2>"$WORK/eusr.err"
check_eq "eusr: exit (written, with the same problem)" 1 $?
check_eq "eusr: the problem named" "edihub peppol-report: c1_country missing: the TSR writes ZZ" "$(cat "$WORK/eusr.err")"
tr -d ' \n' <"$WORK/eusr.xml" >"$WORK/eusr.flat"
grep -q '<FullSet><SendingEndUsers>0</SendingEndUsers><ReceivingEndUsers>1</ReceivingEndUsers>' "$WORK/eusr.flat" ||
  fail "eusr full set: $(head -c 900 "$WORK/eusr.xml")"
grep -q '<KeymetaSchemeID="CC"schemeID="EndUserCountry">NO</Key>' "$WORK/eusr.flat" || fail "eusr: our end user's country"
"$EDIHUB" peppol-report tsr --month 2026-13 --config "$WORK/edihub.xml" >/dev/null 2>"$WORK/bad-month.err"
check_eq "a month that is not one: usage" 2 $?
grep -q -- "--month must be a calendar month YYYY-MM, not '2026-13'" "$WORK/bad-month.err" || fail "bad month: $(cat "$WORK/bad-month.err")"
finish
