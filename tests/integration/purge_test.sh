#!/usr/bin/env bash
# `edihub purge`: keys older than the retention go, newer ones stay, live
# leases stay, while a concurrent replay keeps running without errors.
source "$(dirname "$0")/lib.sh"
db="$WORK/edihub.db"
make_files "$WORK/a" 1 60
make_files "$WORK/b" 1001 80
"$EDIHUB" replay --db "sqlite:$db" --partners "$REPO/partners" "$WORK/a" >/dev/null
check_eq "replay a" 0 $?
a_keys=$(sql "$db" 'SELECT count(*) FROM idempotency_keys')
check_eq "keys of a" 120 "$a_keys"
# A key some worker holds right now: old, but its lease is live for an hour.
sql "$db" "INSERT INTO idempotency_keys (partner_id, message_id, protocol, state, received_at, updated_at,
  lease_until, payload_sha256, raw_sha256) VALUES ('acme', 'x12:ACMESUPPLY:LIVE', 'x12', 'processing', 0, 0,
  (strftime('%s','now') + 3600) * 1000, 'x', 'x')"

# Retention longer than the keys' age: nothing goes.
out=$("$EDIHUB" purge --db "sqlite:$db" --partners "$REPO/partners" --json)
check_eq "purge with 30d retention exit" 0 $?
grep -q '"keys_deleted":0' <<<"$out" || fail "30-day retention deleted keys: $out"
out=$("$EDIHUB" purge --db "sqlite:$db" --older-than 1h --dry-run --json)
grep -q '"keys_deleted":0' <<<"$out" || fail "1h dry run: $out"

# Now a replay runs while purge deletes everything received before it started.
"$EDIHUB" replay --db "sqlite:$db" --partners "$REPO/partners" --json "$WORK/b" >"$WORK/b.out" 2>"$WORK/b.err" &
replay=$!
out=$("$EDIHUB" purge --db "sqlite:$db" --older-than 0s --batch 7 --json)
check_eq "purge exit" 0 $?
wait "$replay"
check_eq "concurrent replay exit" 0 $?
check_eq "concurrent replay errors" "" "$(cat "$WORK/b.err")"
check_eq "concurrent replay processed" 160 "$(grep -c '"outcome":"processed"' "$WORK/b.out")"

grep -q '"keys_kept_live":1' <<<"$out" || fail "live lease not reported kept: $out"
check_eq "keys of a left" 0 "$(sql "$db" "SELECT count(*) FROM idempotency_keys WHERE message_id LIKE 'x12:ACMESUPPLY:0000000%' OR message_id LIKE 'edifact:%:E0000000%'")"
check_eq "live lease kept" 1 "$(sql "$db" "SELECT count(*) FROM idempotency_keys WHERE message_id = 'x12:ACMESUPPLY:LIVE'")"
# Keys received after the purge started are newer than its cutoff: they stay.
left=$(sql "$db" "SELECT count(*) FROM idempotency_keys WHERE message_id <> 'x12:ACMESUPPLY:LIVE'")
deleted=$(grep -o '"keys_deleted":[0-9]*' <<<"$out" | head -1 | cut -d: -f2)
check_eq "every key either deleted or left" $((120 + 160)) $((left + deleted))
((left > 0)) || fail "no key of the concurrent replay was kept"
# Archived requests past their retention go; fresh ones stay.
mkdir -p "$WORK/archive/2024/01/01" "$WORK/archive/today"
echo old >"$WORK/archive/2024/01/01/a.as2"
touch -d '100 days ago' "$WORK/archive/2024/01/01/a.as2"
echo new >"$WORK/archive/today/b.as2"
out=$("$EDIHUB" purge --db "sqlite:$db" --partners "$REPO/partners" --archive "$WORK/archive" --json)
grep -q '"archives_deleted":1' <<<"$out" || fail "archives: $out"
[[ ! -e "$WORK/archive/2024/01/01/a.as2" && -e "$WORK/archive/today/b.as2" ]] || fail "wrong archive files deleted"
# Each purge that deleted is in the audit (the console's Audit page; /metrics' last purge time), a dry run is not.
check_eq "the last purge, audited" "edihub purge|purge|deleted 0 keys, 0 message-log rows, 1 archived requests" \
  "$(sql "$db" "SELECT operator, action, substr(result, 1, 55) FROM audit WHERE action = 'purge' ORDER BY id DESC LIMIT 1")"
check_eq "three purges audited, the dry run not" 3 "$(sql "$db" "SELECT count(*) FROM audit WHERE action = 'purge'")"
# An operator's typo deletes nothing: every numeric option is read strictly, and a
# value outside its range stops the command (exit 2, the option and the range
# named) before the store is opened. Old captures and outbox rows are there to lose.
sql "$db" "UPDATE captures SET received_at = 0" 2>/dev/null
sql "$db" "INSERT INTO captures (partner_id, protocol, message_id, raw_sha256, head, body, received_at)
  VALUES ('acme', 'as2', 'as2:<old@acme.example>', 'r', 'POST /as2 HTTP/1.1

', 'x', 0)"
sql "$db" "UPDATE outbox SET state = 'delivered', delivered_at = 0, created_at = 0"
before="$(sql "$db" "SELECT (SELECT count(*) FROM captures), (SELECT count(*) FROM outbox), (SELECT count(*) FROM messages), (SELECT count(*) FROM idempotency_keys)")"
((${before%%|*} > 0)) || fail "no captures to protect: $before"
typo() {  # typo EXPECTED-MESSAGE ARGS...: exit 2, that message on stderr, nothing deleted
  local expected=$1
  shift
  "$EDIHUB" purge --db "sqlite:$db" --partners "$REPO/partners" "$@" >"$WORK/typo.out" 2>"$WORK/typo.err"
  check_eq "purge $*: exit" 2 $?
  check_eq "purge $*: message" "edihub purge: $expected" "$(cat "$WORK/typo.err")"
  check_eq "purge $*: nothing deleted" "$before" "$(sql "$db" "SELECT (SELECT count(*) FROM captures), (SELECT count(*) FROM outbox), (SELECT count(*) FROM messages), (SELECT count(*) FROM idempotency_keys)")"
}
days="a whole number from 1 to 36500, or never"
for v in ten -1 0x10 7.5 0 1000000000000 99999999999999999999 "" " 7" "+7" "7 "; do
  typo "--archive-days must be $days, not '$v'" --archive-days "$v"
done
typo "--outbox-days must be $days, not '-1'" --outbox-days -1
typo "--older-than must be a duration (500ms, 90s, 15m, 36h, 7d) from 0s to 36500d, not ''" --older-than ""
typo "--older-than must be a duration (500ms, 90s, 15m, 36h, 7d) from 0s to 36500d, not '1000000000d'" --older-than 1000000000d
typo "--older-than must be a duration (500ms, 90s, 15m, 36h, 7d) from 0s to 36500d, not '36501d'" --older-than 36501d
typo "--batch must be a whole number from 1 to 1000000, not '1e3'" --batch 1e3
# "Keep forever" is a word: with it, even --older-than 0s keeps the captures and the outbox rows.
out=$("$EDIHUB" purge --db "sqlite:$db" --partners "$REPO/partners" --archive-days never --outbox-days never --older-than 0s --json)
check_eq "never: exit" 0 $?
grep -q '"archives_deleted":0,"outbox_deleted":0' <<<"$out" || fail "never: $out"
# Every command reads its numbers the same way.
for cmd in "replay --lease soon x" "replay --wait -1s x" "serve --port 65536" "serve --port 8o80" "archive list --limit 0" \
  "outbox --limit ten" "certs --warn-days 3651"; do
  # shellcheck disable=SC2086
  "$EDIHUB" $cmd >/dev/null 2>"$WORK/cmd.err"
  check_eq "$cmd: exit" 2 $?
  grep -q "must be a \(whole number\|duration\)" "$WORK/cmd.err" || fail "$cmd: $(cat "$WORK/cmd.err")"
done
# purge --config: the server's store and partners, nothing repeated.
gateway_config "$WORK/gw.xml" '<archive retention-days="1"/>'
out=$("$EDIHUB" purge --config "$WORK/gw.xml" --json)
check_eq "purge --config: exit" 0 $?
grep -q '"archives_deleted":1,' <<<"$out" || fail "purge --config: the config's store and archive retention: $out"

# Business rows are never purged.
check_eq "invoices kept" $((60 * 3 + 80 * 3)) "$(sql "$db" 'SELECT count(*) FROM invoices')"
finish
