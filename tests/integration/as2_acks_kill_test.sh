#!/usr/bin/env bash
# kill -9 of the gateway while it delivers a few hundred acknowledgments over
# AS2 to a libas2 partner (tests/interop/libas2/partner.js, sync MDNs), then a
# restart: every acknowledgment delivered, each under the one Message-ID its
# row was given when it was queued, whatever was in flight at the kill.
source "$(dirname "$0")/lib.sh"
NODE_DIR="$REPO/tests/interop/libas2"
if [[ ! -d "$NODE_DIR/node_modules/libas2" ]]; then
  (cd "$NODE_DIR" && npm ci --no-audit --no-fund --silent) || { echo "npm ci failed"; exit 1; }
fi
COUNT=${COUNT:-300}
db="$WORK/edihub.db"
mkdir -p "$WORK/partners" "$WORK/received" "$WORK/in"
cp -r "$REPO/partners/certs" "$REPO/partners/staedi.xml" "$WORK/partners/"
partner_port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close() })')
(cd "$NODE_DIR" && exec node partner.js "$partner_port" "$REPO/partners/certs" "$WORK/received") >"$WORK/partner.out" 2>&1 &
partner=$!
server=""
trap 'kill -9 $server 2>/dev/null; kill $partner 2>/dev/null; wait 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
sed "s|<as2 id=\"ACMESUPPLY\"/>|<as2 id=\"ACMESUPPLY\" url=\"http://127.0.0.1:$partner_port/as2/sync\" key-transport=\"rsa-oaep\"/>|" \
  "$REPO/partners/acme.xml" >"$WORK/partners/acme.xml"
gateway_config "$WORK/edihub.xml" '<outbox first-retry-seconds="1" max-attempts="8" timeout-seconds="5" workers="4"/>'
sed -i "s|<partners dir=\"[^\"]*\"/>|<partners dir=\"$WORK/partners\"/>|" "$WORK/edihub.xml"
make_files "$WORK/in" 1000 "$COUNT"  # COUNT X12 and COUNT EDIFACT interchanges
rm "$WORK"/in/edifact-*              # X12 only: one 997 each
"$EDIHUB" replay --db "sqlite:$db" --partners "$WORK/partners" "$WORK/in" >/dev/null || fail "replay"
check_eq "queued" "$COUNT" "$(sql "$db" "SELECT count(*) FROM outbox WHERE channel = 'as2'")"
delivered() { sql "$db" "SELECT count(*) FROM outbox WHERE channel = 'as2' AND state = 'delivered'"; }

start_server "$WORK/edihub.xml"
for _ in $(seq 1 600); do (( $(delivered) >= COUNT / 3 )) && break; sleep 0.05; done
kill -9 "$server"; wait "$server" 2>/dev/null
at_kill=$(delivered)
(( at_kill < COUNT )) || fail "everything was delivered before the kill: nothing tested"
echo "killed with $at_kill of $COUNT delivered, $(sql "$db" "SELECT count(*) FROM outbox WHERE state = 'in-flight'") in flight"

start_server "$WORK/edihub.xml"
all_delivered() { (($(delivered) == COUNT)); }
eventually 180 all_delivered  # the rows in flight at the kill are leased for an attempt + 10 s
check_eq "all delivered after the restart" "$COUNT" "$(delivered)"
check_eq "none failed" 0 "$(sql "$db" "SELECT count(*) FROM outbox WHERE state <> 'delivered'")"
# The partner's view: one Message-ID per row, the row's own; a row in flight
# at the kill may have come twice, under that same Message-ID.
check_eq "Message-IDs the partner saw" "$COUNT" "$(cut -d' ' -f2 "$WORK/received/requests.log" | sort -u | wc -l)"
check_eq "they are the rows' Message-IDs" "$(sql "$db" "SELECT message_id FROM outbox WHERE channel = 'as2'" | LC_ALL=C sort)" \
  "$(cut -d' ' -f2 "$WORK/received/requests.log" | LC_ALL=C sort -u)"
check_eq "acknowledgment contents the partner kept" "$COUNT" "$(ls "$WORK/received" | grep -c '\.edi$')"
again=$(( $(wc -l <"$WORK/received/requests.log") - COUNT ))
(( again <= 4 )) || fail "$again messages came twice: more than the 4 in flight at the kill"
# What the partner kept under each Message-ID is that row's acknowledgment (libas2 adds the delimiter's CRLF).
mkdir -p "$WORK/expect"
sql "$db" "SELECT writefile('$WORK/expect/_' || substr(message_id, 2, length(message_id) - 2) || '_.edi', body)
           FROM outbox WHERE channel = 'as2'" >/dev/null
mismatched=0
for f in "$WORK"/expect/*.edi; do
  cmp -s <(cat "$f"; printf '\r\n') "$WORK/received/$(basename "$f")" || mismatched=$((mismatched + 1))
done
check_eq "contents under the wrong Message-ID" 0 "$mismatched"
finish
