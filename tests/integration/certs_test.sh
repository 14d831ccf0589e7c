#!/usr/bin/env bash
# `edihub certs` and the certificate warning of `edihub status`: a partner
# whose signing certificate expires in 10 days is flagged (exit 1), the demo
# ones (ten years) are not; --json carries the same facts.
source "$(dirname "$0")/lib.sh"
cd "$REPO"  # the demo identity's paths are relative to the repository
mkdir -p "$WORK/partners/certs"
cp "$REPO/partners/acme.xml" "$REPO/partners/staedi.xml" "$WORK/partners/"
cp "$REPO"/partners/certs/* "$WORK/partners/certs/"
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$WORK/soon.key" -out "$WORK/partners/certs/soon.crt" -days 10 \
  -subj "/O=Soon Ltd/CN=SOONCO" 2>/dev/null || fail "openssl req"
cat >"$WORK/partners/soon.xml" <<XML
<partner id="soon">
  <x12 qualifier="ZZ" id="SOONCO"/>
  <as2 id="SOONCO"/>
  <certificate use="signing" file="certs/soon.crt"/>
</partner>
XML
"$EDIHUB" certs >"$WORK/demo.out" 2>&1
check_eq "demo certificates: nothing to warn about" 0 $?
check_eq "demo certificates: ours and acme's two" 3 "$(wc -l <"$WORK/demo.out")"
grep -q '^edihub identity /O=edihub demo/CN=EDIHUB serial [0-9A-F]* not-after 2036-' "$WORK/demo.out" ||
  fail "demo: $(cat "$WORK/demo.out")"

"$EDIHUB" certs --partners "$WORK/partners" >"$WORK/soon.out" 2>&1
check_eq "a certificate expiring in 10 days: exit" 1 $?
grep -Eq '^soon signing /O=Soon Ltd/CN=SOONCO serial [0-9A-F]+ not-after [0-9T:-]+Z (9|10) days left  WARNING: expires within 30 days$' \
  "$WORK/soon.out" || fail "soon: $(cat "$WORK/soon.out")"
"$EDIHUB" certs --partners "$WORK/partners" --warn-days 5 >/dev/null
check_eq "--warn-days 5: nothing to warn about" 0 $?
"$EDIHUB" certs --partners "$WORK/partners" --json >"$WORK/soon.json"
node -e 'const l = JSON.parse(require("fs").readFileSync(process.argv[1])); const s = l.find(c => c.owner === "soon");
  if (!s || s.use !== "signing" || !s.warning || s.days_left > 10 || l.filter(c => c.warning).length !== 1) process.exit(1)' \
  "$WORK/soon.json" || fail "json: $(cat "$WORK/soon.json")"
"$EDIHUB" certs --warn-days x >/dev/null 2>"$WORK/usage.err"
check_eq "--warn-days x: exit" 2 $?
check_eq "--warn-days x: message" "edihub certs: --warn-days must be a whole number from 0 to 3650, not 'x'" "$(cat "$WORK/usage.err")"

"$EDIHUB" status --db "sqlite:$WORK/edihub.db" --partners "$WORK/partners" >"$WORK/status.out"
grep -Eq '^warning: certificate soon signing /O=Soon Ltd/CN=SOONCO expires [0-9T:-]+Z \((9|10) days left\)' \
  "$WORK/status.out" || fail "status: $(tail -3 "$WORK/status.out")"
check_eq "status warns once" 1 "$(grep -c '^warning: certificate' "$WORK/status.out")"
finish
