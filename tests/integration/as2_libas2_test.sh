#!/usr/bin/env bash
# Interop with the npm package libas2 (an independent AS2 implementation):
# its signed+encrypted messages are accepted and booked once; it parses and
# verifies our signed MDN, and our MIC equals the one libas2 computes.
source "$(dirname "$0")/lib.sh"
NODE_DIR="$REPO/tests/interop/libas2"
if [[ ! -d "$NODE_DIR/node_modules/libas2" ]]; then
  (cd "$NODE_DIR" && npm ci --no-audit --no-fund --silent) || { echo "npm ci failed"; exit 1; }
fi
C="$REPO/partners/certs"
db="$WORK/edihub.db"
gateway_config "$WORK/edihub.xml" '<listen address="127.0.0.1" port="0"/>'
start_server "$WORK/edihub.xml"
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
url="http://127.0.0.1:$port/as2"

out=$(cd "$NODE_DIR" && node send.js "$url" "$REPO/samples/edi/x12-810-004010.edi" "$C" "<libas2-1@acme.example>")
check_eq "libas2 message 1" 0 $?
echo "$out"
grep -q '"processed":true' <<<"$out" || fail "not processed: $out"
out=$(cd "$NODE_DIR" && node send.js "$url" "$REPO/samples/edi/edifact-invoic-d96a.edi" "$C" "<libas2-2@acme.example>")
check_eq "libas2 message 2 (EDIFACT)" 0 $?
# Retransmitted by libas2 (newly encrypted, same Message-ID and content): the same answer, nothing booked twice.
out=$(cd "$NODE_DIR" && node send.js "$url" "$REPO/samples/edi/x12-810-004010.edi" "$C" "<libas2-1@acme.example>")
check_eq "libas2 retransmission" 0 $?
check_eq "invoices" 3 "$(sql "$db" 'SELECT count(*) FROM invoices')"
# libas2 really checks our signature: with the wrong certificate it refuses the MDN.
(cd "$NODE_DIR" && MDN_CERT=acme node send.js "$url" "$REPO/samples/edi/x12-810-004010.edi" "$C" "<libas2-3@acme.example>") >/dev/null 2>&1
check_eq "libas2 refuses our MDN under the wrong certificate (exit 2: it threw)" 2 $?
finish
