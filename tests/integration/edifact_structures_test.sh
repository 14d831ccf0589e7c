#!/usr/bin/env bash
# A second opinion on the EDIFACT definitions: the message structures of the
# npm package `edifact` (pinned in tools/bench) against schema/definitions,
# position by position (segment order, mandatory/conditional, maximum
# repeats) for DESADV, INVOIC and ORDERS, through
# tests/interop/edifact/compare.js. The package does not say its directory;
# its structures are of a later one than D01B (CUX in the DESADV header, GEI
# for GIS, PYT before PAT, higher repeats: php-edifact's D01B mapping, a third
# source, has GIS and PAT where ours do and no EFI), so what D01B genuinely
# differs in is listed below; anything else fails the test, and so does a
# listed difference that is gone (the list stays true).
source "$(dirname "$0")/lib.sh"
trap '[[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
bench="$REPO/tools/bench"
[[ -d $bench/node_modules/edifact ]] || (cd "$bench" && npm ci --no-audit --no-fund --loglevel=error >/dev/null) ||
  { echo "FAIL: npm ci in tools/bench"; exit 1; }
node "$REPO/tests/interop/edifact/compare.js" "$bench/node_modules/edifact" "$REPO/schema/definitions" D01B \
  >"$WORK/d01b.txt"
# Differences of directory version between D01B and the package's later directory:
cat >"$WORK/known.txt" <<'KNOWN'
DESADV 8 RFF: ours max 10, edifact's 99
DESADV 8/2 DTM: ours max 1, edifact's 9
DESADV 9/3 RFF: ours max 10, edifact's 99
DESADV 9/3/2 DTM: ours max 1, edifact's 99
DESADV 10/2 LOC: ours max 5, edifact's 9999
DESADV 13: ours loop CPS, edifact's group EFI
INVOIC 9: ours GIS, edifact's GEI
ORDERS 13: ours loop PAT, edifact's group PYT
KNOWN
grep -v 'difference(s)' "$WORK/d01b.txt" >"$WORK/found.txt" || true
diff -u "$WORK/known.txt" "$WORK/found.txt" >"$WORK/diff.txt" || fail "the structures differ otherwise than known: $(cat "$WORK/diff.txt")"
# The comparison can fail: a definition with a segment moved is caught.
mkdir -p "$WORK/defs/edifact"
cp -r "$REPO/schema/definitions/edifact/D01B" "$WORK/defs/edifact/"
sed -i '0,/^  BGM M 1$/s//  BGM O 1/' "$WORK/defs/edifact/D01B/ORDERS.def"
node "$REPO/tests/interop/edifact/compare.js" "$bench/node_modules/edifact" "$WORK/defs" D01B >"$WORK/broken.txt" &&
  fail "an ORDERS with BGM conditional passed the comparison"
grep -q 'ORDERS 2 BGM: ours C, edifact.s M' "$WORK/broken.txt" || fail "the broken ORDERS: $(cat "$WORK/broken.txt")"
finish
