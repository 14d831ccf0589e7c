#!/usr/bin/env bash
# A second opinion on the EDIFACT definitions: the message structures of the
# npm package `edifact` (pinned in tests/interop/edifact/package.json)
# against schema/definitions/edifact/D01B, the nearest directory edihub
# ships, for DESADV, INVOIC and ORDERS: segment order, mandatory or
# conditional, maximum use, every position of every group
# (tests/interop/edifact/compare.js, which lists and explains each genuine
# difference of directory version). Then the comparison is shown to fail:
# a copy of the definitions with a segment made conditional, one moved and a
# maximum changed.
source "$(dirname "$0")/lib.sh"
NODE_DIR="$REPO/tests/interop/edifact"
if [[ ! -d "$NODE_DIR/node_modules/edifact" ]]; then
  (cd "$NODE_DIR" && npm ci --no-audit --no-fund --silent) || { echo "FAIL: npm ci in tests/interop/edifact"; exit 1; }
fi
compare() { node "$NODE_DIR/compare.js" --definitions "$1" --directory D01B; }

# The shipped definitions: every difference is a known one, and none is gone.
out=$(compare "$REPO/schema/definitions") || fail "the shipped definitions differ from edifact's otherwise than known: $out"
echo "$out" | tail -1

# A copy with three defects: each is named, and the run fails.
defs="$WORK/defs"
mkdir -p "$defs/edifact"
cp -r "$REPO/schema/definitions/edifact/D01B" "$defs/edifact/"
sed -i '0,/^  BGM M 1$/s//  BGM O 1/' "$defs/edifact/D01B/ORDERS.def"            # BGM conditional
sed -i '0,/^  DTM O 10$/s//  DTM O 11/' "$defs/edifact/D01B/DESADV.def"          # a header maximum
awk '/^  UNS M 1$/ && !held {held = $0; next} {print} /^  CNT O 10$/ && held {print held; held = ""}' \
  "$REPO/schema/definitions/edifact/D01B/INVOIC.def" >"$defs/edifact/D01B/INVOIC.def"  # UNS after CNT
if broken=$(compare "$defs"); then
  fail "a broken copy passed the comparison: $broken"
fi
for want in "FAIL: ORDERS BGM: ours O, edifact's M" "FAIL: DESADV DTM: ours max 11, edifact's 10" \
    "FAIL: INVOIC CNT: out of place"; do
  grep -qF "$want" <<<"$broken" || fail "the broken copy: expected '$want' in: $broken"
done
# A known difference no longer found fails too (the list stays true): the
# line group's IMD raised to the package's 99, as D.02A did.
cp "$REPO/schema/definitions/edifact/D01B/DESADV.def" "$defs/edifact/D01B/DESADV.def"
sed -i '0,/^      IMD O 25$/s//      IMD O 99/' "$defs/edifact/D01B/DESADV.def"
gone=$(compare "$defs") && fail "a known difference gone passed: $gone"
grep -qF "IMD: ours max 25, edifact's 99 is listed as known but no longer differs" <<<"$gone" ||
  fail "the gone difference: $gone"
finish
