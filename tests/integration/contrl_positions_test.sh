#!/usr/bin/env bash
# The positions in edihub's CONTRL read by independent software: an INVOIC
# with four faults (a too long 1004, a letter in a quantity, a sixth
# component in a C516 of five, UNS missing) goes through `edihub replay` for
# a partner that validates and is acknowledged; the npm package `edifact`
# (tests/interop/edifact, pinned) reads both the INVOIC and the CONTRL queued
# for it, and each UCS/UCD, counted as ISO 9735 counts (0096 from UNH = 1,
# 0098 from the tag = 1), must point at the faulty value, and a missing
# segment at the last segment before the gap.
source "$(dirname "$0")/lib.sh"
NODE_DIR="$REPO/tests/interop/edifact"
if [[ ! -d "$NODE_DIR/node_modules/edifact" ]]; then
  (cd "$NODE_DIR" && npm ci --no-audit --no-fund --silent) || { echo "FAIL: npm ci in tests/interop/edifact"; exit 1; }
fi
cp -r "$REPO/partners" "$WORK/partners"
sed -i "s|</partner>|  <validation policy=\"reject\"/>\n  <acknowledgments via=\"dir\" dir=\"$WORK/acks\"/>\n</partner>|" \
  "$WORK/partners/acme.xml"
cat >"$WORK/bad.edi" <<'EDI'
UNB+UNOC:3+5412345000013:14+5400000000009:14+240318:0900+CT0001'
UNH+1+INVOIC:D:96A:UN'
BGM+380+INV-CT-1-0123456789012345678901234567890+9'
DTM+137:20240315:102'
NAD+SU+5412345000013::9'
NAD+BY+5400000000009::9'
CUX+2:EUR:4'
LIN+1++5412345000020:EN'
QTY+47:24X:PCE'
MOA+203:300.00:EUR:4:X:Y'
PRI+AAA:12.50'
TAX+7+VAT+++:::21+S'
CNT+2:1'
MOA+77:363.00'
UNT+14+1'
UNZ+1+CT0001'
EDI
out=$("$EDIHUB" replay --db "sqlite:$WORK/edihub.db" --partners "$WORK/partners" "$WORK/bad.edi" 2>&1)
case $out in *"rejected edifact:5412345000013:CT0001"*) ;; *) fail "the INVOIC is rejected: $out" ;; esac
sql "$WORK/edihub.db" "SELECT body FROM outbox WHERE partner_id = 'acme' AND kind = 'contrl'" >"$WORK/contrl.edi"
[[ -s $WORK/contrl.edi ]] || fail "no CONTRL queued: $(sql "$WORK/edihub.db" "SELECT kind, state FROM outbox")"

read=$(node "$NODE_DIR/contrl_positions.js" "$WORK/bad.edi" "$WORK/contrl.edi") ||
  fail "a position points past its segment, element or component: $read"
check_eq "the CONTRL's findings as edifact reads them" \
  "1 UCS 2 BGM / UCD 39 3 'INV-CT-1-0123456789012345678901234567890'
1 UCS 8 QTY / UCD 37 2:2 '24X'
1 UCS 9 MOA / UCD 16 2:6 'Y'
1 UCS 11 TAX 13" "$read"
finish
