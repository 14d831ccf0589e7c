#!/usr/bin/env bash
# What a client that proves nothing can make the store write: the message-log
# rows of answers that commit nothing are bounded per client address and
# partner named (<limits max-log-rows-per-client>) and in all
# (max-log-rows), per minute. Past them every request is still answered the
# same; its row is counted, and each client's count is one row when the
# minute ends (here: when the server stops, which writes the open minute's).
source "$(dirname "$0")/lib.sh"
db="$WORK/edihub.db"
trap 'kill -TERM ${server:-} 2>/dev/null; wait ${server:-} 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
gateway_config "$WORK/edihub.xml" '<listen address="127.0.0.1" port="0"/>' '<metrics address="127.0.0.1" port="0"/>' \
  '<limits max-log-rows-per-client="5" max-log-rows="8"/>'
start_server "$WORK/edihub.xml"
mport=$(sed -n 's/.*metrics on http:\/\/127.0.0.1:\([0-9]*\)\/metrics.*/\1/p' "$WORK/server.out")
post() {  # post FROM ID: an unsigned AS2 post; prints the status and the body's first line
  curl -s --max-time 30 -o "$WORK/answer" -w '%{http_code}' -X POST --data-binary 'ISA*nothing' \
    -H 'Content-Type: application/edi-x12' -H "AS2-From: $1" -H 'AS2-To: EDIHUB' -H "Message-ID: <$2@log.example>" \
    "http://127.0.0.1:$port/as2"
  echo " $(head -1 "$WORK/answer")"
}

# 12 posts from an unknown sender, then 12 unsigned ones naming acme (which must sign).
for i in $(seq 1 12); do post STRANGER "s$i"; done | sort | uniq -c | sed 's/^ *//' >"$WORK/strangers"
check_eq "every unknown sender's post answered alike" "12 403 unknown AS2-From 'STRANGER': no partner profile lists it" "$(cat "$WORK/strangers")"
for i in $(seq 1 12); do post ACMESUPPLY "a$i"; done | cut -d' ' -f1 | sort | uniq -c | sed 's/^ *//' >"$WORK/acme"
check_eq "every unsigned post naming acme answered alike" "12 200" "$(cat "$WORK/acme")"

rows() { sql "$db" "SELECT count(*) FROM messages"; }
check_eq "rows written one by one: 5 for the unknown sender, 3 for acme (8 a minute in all)" 8 \
  "$(sql_eventually "$db" 8 "SELECT count(*) FROM messages")"
sleep 0.3 # the writer's next batches (every 20 ms) bring nothing more
check_eq "still 8 rows" 8 "$(rows)"
check_eq "the unknown sender's rows: its first five posts" "<s1@log.example> <s2@log.example> <s3@log.example> <s4@log.example> <s5@log.example>" \
  "$(sql "$db" "SELECT transport_id FROM messages WHERE partner_id IS NULL ORDER BY id" | tr '\n' ' ' | sed 's/ $//')"

check_eq "/metrics: the rows counted instead" "edihub_message_log_rows_counted_total 16" \
  "$(curl -s "http://127.0.0.1:$mport/metrics" | grep '^edihub_message_log_rows_counted_total')"

# The log lines of these answers have the same limits: 8 lines for the 24 posts,
# and none for 12 requests to no endpoint (127.0.0.1 with no partner is past its 5).
for i in $(seq 1 12); do curl -s -o /dev/null -w '%{http_code}\n' "http://127.0.0.1:$port/nowhere"; done | sort | uniq -c |
  sed 's/^ *//' >"$WORK/nowhere"
check_eq "every request to no endpoint answered" "12 404" "$(cat "$WORK/nowhere")"
lines() { grep -c "$1" "$WORK/server.out" || true; }
check_eq "log lines one by one: 5 for the unknown sender, 3 for acme" "5 3 0" \
  "$(lines 'protocol=as2 partner="" .*STRANGER') $(lines 'protocol=as2 partner=acme') $(lines 'protocol=http')"

# Stopping writes the open minute's counts, one row per client and partner.
kill -TERM "$server"
wait "$server" 2>/dev/null
server=""
check_eq "two rows of counts" 10 "$(rows)"
check_eq "two log lines of counts, one for the unknown sender and no endpoint, one for acme" \
  "protocol=http partner=\"\" outcome=rejected answers=19 bytes=0 detail=\"19 more answers to 127.0.0.1 for no known partner in this minute were not logged one by one (at most 5 log lines a minute per client address and partner); the last: no such endpoint: GET /nowhere\"
protocol=as2 partner=acme outcome=rejected answers=9 bytes=99 detail=\"9 more answers to 127.0.0.1 for partner 'acme' in this minute were not logged one by one (at most 5 log lines a minute per client address and partner); the last: <a12@log.example>: " \
  "$(grep ' answers=' "$WORK/server.out" | sed 's/^.*\] //; s/a12@log.example>: .*/a12@log.example>: /')"
check_eq "the unknown sender's count" \
  "rejected|7 more answers to 127.0.0.1 for no known partner in this minute were not logged one by one (at most 5 rows a minute per client address and partner); the last: <s12@log.example>: unknown AS2-From 'STRANGER': no partner profile lists it" \
  "$(sql "$db" "SELECT outcome, detail FROM messages WHERE partner_id IS NULL AND detail LIKE '7 more%'")"
check_eq "acme's count (past the 8 rows a minute in all)" "acme|rejected|9 more answers to 127.0.0.1 for partner 'acme'" \
  "$(sql "$db" "SELECT partner_id, outcome, substr(detail, 1, instr(detail, ' in this') - 1) FROM messages WHERE detail LIKE '9 more%'")"
check_eq "each row stands for its answers: 1, or a count row's count" "1|8 7|1 9|1" \
  "$(sql "$db" "SELECT answers, count(*) FROM messages GROUP BY answers ORDER BY answers" | tr '\n' ' ' | sed 's/ $//')"
"$EDIHUB" status --db "sqlite:$db" --partners "$REPO/partners" >"$WORK/status.out" 2>&1
check_eq "edihub status counts the 24 answers, not the 10 rows" \
  "last 24h: processed 0 duplicate 0 conflict 0 rejected 24 poison 0 in-flight 0 error 0 archived 0" \
  "$(grep '^last 24h:' "$WORK/status.out")"
finish
