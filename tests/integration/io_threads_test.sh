#!/usr/bin/env bash
# The I/O threads never block: every connection shares two of them, so a
# store that hangs or a flood of passwords to hash must cost workers, never
# the listener. /healthz keeps answering while 50 wrong Basic passwords
# arrive at once (each a PBKDF2, on the workers) and while the PostgreSQL
# server is stopped (SIGSTOP) under /readyz and message posts. Wrong Basic
# credentials are throttled per address and counted in /metrics; a wrong
# user costs the PBKDF2 a wrong password does.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/pg.sh"
trap 'pkill -CONT -u "${PG_USER:-none}" postgres 2>/dev/null; kill -TERM ${server:-} 2>/dev/null; wait ${server:-} 2>/dev/null; pg_stop; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
pg_start
hash=$(printf 's3cret-pw\n' | "$EDIHUB" hash-password)
mkdir -p "$WORK/p"
cp -r "$REPO/partners/certs" "$WORK/p/"
sed "s|</partner>|<auth basic-user=\"acme\" basic-password-hash=\"$hash\"/></partner>|" "$REPO/partners/acme.xml" >"$WORK/p/acme.xml"
gateway_config "$WORK/edihub.xml" '<listen address="127.0.0.1" port="0"/>' '<metrics address="127.0.0.1" port="0"/>' \
  '<limits threads="8" queue="128"/>'
sed -i -e "s|<partners dir=\"[^\"]*\"/>|<partners dir=\"$WORK/p\"/>|" -e "s|sqlite:$WORK/edihub.db|$PG_URI|" "$WORK/edihub.xml"
start_server "$WORK/edihub.xml"
mport=$(sed -n 's/.*metrics on http:\/\/127.0.0.1:\([0-9]*\)\/metrics.*/\1/p' "$WORK/server.out")
# 3 s: an answer blocked behind the workers never comes (the store stopped below), one
# delayed by 50 curl processes on a loaded CI machine does.
health() { curl -s -o /dev/null --max-time 3 -w '%{http_code} %{time_total}\n' "http://127.0.0.1:$port/healthz"; }
as2() {  # as2 OUT [curl options]: an AS2 head and a small body, acme's ids
  curl -s -o "$1" --max-time 30 -w '%{http_code}' -X POST --data-binary 'x' -H 'Content-Type: application/edi-x12' \
    -H 'AS2-From: ACMESUPPLY' -H 'AS2-To: EDIHUB' -H "Message-ID: <io-$RANDOM$RANDOM@acme.example>" "${@:2}" \
    "http://127.0.0.1:$port/as2"
}

# A wrong user and a wrong password: the same answer, the same PBKDF2 (times printed, not judged).
t_user=$(curl -s -o "$WORK/wu" -w '%{time_total}' -X POST --data-binary x -H 'Content-Type: application/edi-x12' \
  -H 'AS2-From: ACMESUPPLY' -H 'AS2-To: EDIHUB' -H 'Message-ID: <u@acme.example>' -u nobody:wrong "http://127.0.0.1:$port/as2")
t_password=$(curl -s -o "$WORK/wp" -w '%{time_total}' -X POST --data-binary x -H 'Content-Type: application/edi-x12' \
  -H 'AS2-From: ACMESUPPLY' -H 'AS2-To: EDIHUB' -H 'Message-ID: <p@acme.example>' -u acme:wrong "http://127.0.0.1:$port/as2")
check_eq "a wrong user and a wrong password: one answer" "$(cat "$WORK/wp")" "$(cat "$WORK/wu")"
echo "wrong user ${t_user}s, wrong password ${t_password}s (both run the PBKDF2)"

# 50 wrong passwords at once; /healthz meanwhile.
jobs_=()
for i in $(seq 1 50); do
  { as2 "$WORK/wrong.$i" -u acme:wrong-$i; echo; } >"$WORK/wrong.$i.status" &
  jobs_+=($!)
done
slow=0
for _ in $(seq 1 20); do
  read -r code t <<<"$(health)"
  check_eq "/healthz during 50 wrong passwords" 200 "$code"
  awk -v t="$t" 'BEGIN { exit !(t > 0.5) }' && slow=$((slow + 1))
  sleep 0.05
done
wait "${jobs_[@]}"
echo "/healthz: $slow of 20 answers took over 0.5 s during the 50 wrong passwords"
statuses=$(cat "$WORK"/wrong.*.status | sort | uniq -c | awk '{print $2 "x" $1}' | tr '\n' ' ')
n401=$(cat "$WORK"/wrong.*.status | grep -c '^401$' || true)
n429=$(cat "$WORK"/wrong.*.status | grep -c '^429$' || true)
check_eq "every wrong password refused (401, or 429 once the address is blocked): $statuses" 50 $((n401 + n429))
((n401 >= 5)) || fail "fewer than 5 tries ran the password check: $statuses"
((n429 >= 1)) || fail "the address was never blocked: $statuses"
check_eq "blocked: the right password waits out the window too" 429 "$(as2 "$WORK/right" -u acme:s3cret-pw)"
grep -q 'too many failed authentications from this address: try again in 15 minutes' "$WORK/right" || fail "429 text: $(cat "$WORK/right")"
curl -s "http://127.0.0.1:$mport/metrics" >"$WORK/metrics"
basic=$(sed -n 's/^edihub_partner_auth_failures_total{partner="acme",reason="basic"} //p' "$WORK/metrics")
throttled=$(sed -n 's/^edihub_partner_auth_failures_total{partner="acme",reason="throttled"} //p' "$WORK/metrics")
check_eq "/metrics counts each refusal" $((n401 + n429 + 2 + 1)) $((basic + throttled))

# The store stops answering: /readyz and message posts wait on workers, /healthz does not.
pg_pids=$(pgrep -u "$PG_USER" postgres | tr '\n' ' ')
# shellcheck disable=SC2086
kill -STOP $pg_pids
jobs_=()
for i in 1 2 3 4; do
  curl -s -o /dev/null --max-time 4 "http://127.0.0.1:$port/readyz" &
  jobs_+=($!)
  as2 "$WORK/stopped.$i" -H "X-Try: $i" >/dev/null &
  jobs_+=($!)
done
sleep 0.5
for _ in $(seq 1 10); do
  read -r code _ <<<"$(health)"
  check_eq "/healthz while PostgreSQL is stopped" 200 "$code"
done
# shellcheck disable=SC2086
kill -CONT $pg_pids
wait "${jobs_[@]}"
check_eq "/readyz once PostgreSQL runs again" 200 "$(curl -s -o /dev/null --max-time 5 -w '%{http_code}' "http://127.0.0.1:$port/readyz")"
finish
