#!/usr/bin/env bash
# A partner whose profile asks for validation (<validation policy="reject">),
# over AS2 with the real server: a valid 810 is booked and accepted; one with
# a 30 February and an unknown segment is booked nowhere, its 997 (written to
# the partner's acknowledgment dir) names both errors with their AK3/AK4, and
# the message log says which. Then the same file under policy accept: booked,
# AK5 E.
source "$(dirname "$0")/lib.sh"
C="$REPO/partners/certs"
db="$WORK/edihub.db"
mkdir -p "$WORK/partners" "$WORK/acks"
cp -r "$C" "$WORK/partners/"
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
server=""

serve() {  # serve POLICY: (re)starts the gateway with acme under that policy
  [[ -n $server ]] && { kill -TERM "$server"; wait "$server" 2>/dev/null; }
  sed -e "s|</partner>|  <validation policy=\"$1\"/>\n  <acknowledgments via=\"dir\" dir=\"$WORK/acks\"/>\n</partner>|" \
    "$REPO/partners/acme.xml" >"$WORK/partners/acme.xml"
  gateway_config "$WORK/edihub.xml" '<listen address="127.0.0.1" port="0" public-url="http://127.0.0.1:1/as2"/>'
  sed -i "s|<partners dir=\"[^\"]*\"/>|<partners dir=\"$WORK/partners\"/>|" "$WORK/edihub.xml"
  start_server "$WORK/edihub.xml"
}
send() { post_as2 "$1" "$2" "<validation-$1@acme.example>"; }  # send NAME EDI-FILE: the HTTP status
# ack FILE-PATTERN: the 997 written for the interchange with that ISA13
ack() { for _ in $(seq 1 100); do f=$(grep -l "AK1\*IN\*$1~" "$WORK"/acks/* 2>/dev/null | head -1); [[ -n $f ]] && break; sleep 0.05; done; cat "$f"; }

sample="$REPO/samples/edi/x12-810-004010.edi"
sed -e 's/000000201/000000801/g' -e 's/\*201\*X\*/*801*X*/' -e 's/GE\*1\*201/GE*1*801/' "$sample" >"$WORK/good.edi"
sed -e 's/000000201/000000802/g' -e 's/\*201\*X\*/*802*X*/' -e 's/GE\*1\*201/GE*1*802/' -e 's/INV-88301/INV-88302/' \
  -e 's/^DTM\*011\*20240312~/DTM*011*20240230~/' -e 's/^TDS\*88308~/TDS*88308~\nZZZ*1~/' -e 's/^SE\*23\*0001~/SE*24*0001~/' \
  "$sample" >"$WORK/bad.edi"
"$EDIHUB" inspect --validate "$WORK/bad.edi" >/dev/null && fail "inspect --validate passed the bad file"

serve reject
check_eq "valid 810: MDN status" 200 "$(send good "$WORK/good.edi")"
check_eq "valid 810: booked" 1 "$(sql "$db" "SELECT count(*) FROM invoices WHERE invoice_number = 'INV-88301'")"
case $(ack 801) in *"AK2*810*0001~"*"AK5*A~"*"AK9*A*1*1*1~"*) ;; *) fail "valid 810: 997 $(ack 801)" ;; esac

check_eq "invalid 810: MDN status" 200 "$(send bad "$WORK/bad.edi")"
grep -q "processed" "$WORK/bad.mdn" || fail "invalid 810: the MDN is not processed: $(cat "$WORK/bad.mdn")"
check_eq "invalid 810: nothing booked" 0 "$(sql "$db" "SELECT count(*) FROM invoices WHERE invoice_number = 'INV-88302'")"
bad_ack=$(ack 802)
case $bad_ack in
  *"AK2*810*0001~"*"AK3*DTM*14**8~"*"AK4*2*373*8*20240230~"*"AK3*ZZZ*22**1~"*"AK5*R*5~"*"AK9*R*1*1*0~"*) ;;
  *) fail "invalid 810: 997 $bad_ack" ;;
esac
check_eq "invalid 810: the message log" \
  "rejected|does not pass its definition: 810 0001: DTM at segment 14: DTM02 (373) '20240230': invalid date (code 8) (and 1 more)" \
  "$(sql "$db" "SELECT outcome, detail FROM messages WHERE message_id = 'x12:ACMESUPPLY:000000802'")"

# A corrected file under the same control number is processed (the key failed, it did not settle).
sed -e 's/^DTM\*011\*20240230~/DTM*011*20240229~/' -e '/^ZZZ\*1~/d' -e 's/^SE\*24\*0001~/SE*23*0001~/' "$WORK/bad.edi" >"$WORK/fixed.edi"
check_eq "corrected 810: MDN status" 200 "$(send fixed "$WORK/fixed.edi")"
check_eq "corrected 810: booked" 1 "$(sql "$db" "SELECT count(*) FROM invoices WHERE invoice_number = 'INV-88302'")"

serve accept
sed -e 's/000000802/000000803/g' -e 's/\*802\*X\*/*803*X*/' -e 's/GE\*1\*802/GE*1*803/' -e 's/INV-88302/INV-88303/' \
  "$WORK/bad.edi" >"$WORK/accepted.edi"
check_eq "accept: MDN status" 200 "$(send accepted "$WORK/accepted.edi")"
check_eq "accept: booked" 1 "$(sql "$db" "SELECT count(*) FROM invoices WHERE invoice_number = 'INV-88303'")"
case $(ack 803) in *"AK3*DTM*14**8~"*"AK5*E*5~"*"AK9*E*1*1*1~"*) ;; *) fail "accept: 997 $(ack 803)" ;; esac
finish
