#!/usr/bin/env bash
# A store that cannot commit (another process holds the write lock past the
# busy timeout): HTTP 503 with Retry-After and no MDN, nothing booked; once the
# store is free, the partner's retry is processed normally.
source "$(dirname "$0")/lib.sh"
db="$WORK/edihub.db"
gateway_config "$WORK/edihub.xml" '<listen address="127.0.0.1" port="0"/>'
sed -i "s|sqlite:$db\"|sqlite:$db?busy_timeout_ms=300\"|" "$WORK/edihub.xml"
start_server "$WORK/edihub.xml"
trap 'kill -TERM $server $holder 2>/dev/null; wait $server $holder 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
holder=""

# Hold the write lock from another process until told to let go.
mkfifo "$WORK/lock"
sqlite3 "$db" <"$WORK/lock" >/dev/null 2>&1 &
holder=$!
exec 4>"$WORK/lock"
echo "BEGIN EXCLUSIVE; INSERT INTO sequences (name, value) VALUES ('lock-holder', 1);" >&4
for _ in $(seq 1 100); do
  [[ $(sqlite3 -cmd ".timeout 50" "$db" "BEGIN IMMEDIATE; ROLLBACK;" 2>&1) == *locked* ]] && break
  sleep 0.05
done

post() {
  "$REPO/tools/send-as2" "$REPO/samples/edi/x12-810-004010.edi" \
    "http://127.0.0.1:$port/as2" "<fault-1@acme.example>" 2>&1
}
out=$(post)
grep -q '^HTTP 503' <<<"$out" || fail "store locked: expected 503, got: $out"
grep -qi '^Retry-After: 30' <<<"$out" || fail "no Retry-After: $out"
grep -q 'Disposition' <<<"$out" && fail "an MDN came with the 503: $out"

echo "ROLLBACK;" >&4
exec 4>&-
wait "$holder" 2>/dev/null
holder=""
check_eq "nothing booked while the store failed" 0 "$(sql "$db" 'SELECT count(*) FROM invoices')"
out=$(post)
grep -q '^HTTP 200' <<<"$out" || fail "retry after the store recovered: $out"
grep -q 'Disposition: automatic-action/MDN-sent-automatically; processed' <<<"$out" || fail "retry MDN: $out"
check_eq "booked once" 1 "$(sql "$db" 'SELECT count(*) FROM invoices')"
finish
