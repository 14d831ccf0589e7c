#!/usr/bin/env bash
# kill -9 the server during a load of AS2 messages, restart it, resend every
# message whose MDN did not arrive: every document booked exactly once. Then
# the same for one message over 4 MiB (its key leased across commits). The
# lease is the default 5 minutes and the owner timeout longer than the test:
# the restarted node (same node id) takes over what its killed instance held
# at once, so no resend waits for a lease or gets 503.
source "$(dirname "$0")/lib.sh"
C="$REPO/partners/certs"
db="$WORK/edihub.db"
count=${MESSAGES:-120}
gateway_config "$WORK/edihub.xml" '<listen address="127.0.0.1" port="0"/>' \
  '<gate lease-seconds="300" wait-seconds="2" owner-timeout-seconds="3600" node-id="crash-test-node"/>'
trap 'kill -9 $server 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT

# One signed+encrypted message per invoice, made by openssl.
mkdir -p "$WORK/msg"
for ((i = 1; i <= count; i++)); do
  ctl=$(printf '%09d' "$i")
  { printf 'Content-Type: application/edi-x12\r\n\r\n'
    sed -e "s/000000201/$ctl/g" -e "s/INV-88301/INV-C$i/" "$REPO/samples/edi/x12-810-004010.edi"; } >"$WORK/msg/$i.entity"
  openssl cms -sign -binary -md sha256 -signer "$C/acme.crt" -inkey "$C/acme.key" -in "$WORK/msg/$i.entity" |
    openssl cms -encrypt -binary -aes256 -out "$WORK/msg/$i.eml" "$C/edihub.crt"
  awk 'b{print} /^\r?$/{b=1}' "$WORK/msg/$i.eml" >"$WORK/msg/$i.body"
done
ct=$(sed -n 's/^Content-Type: //p' "$WORK/msg/1.eml" | head -1 | tr -d '\r')
send() {  # send I: 0 when a processed MDN came back; the HTTP code goes to $WORK/codes
  local i=$1 code
  code=$(curl -s -m 20 -o "$WORK/msg/$i.mdn" -w '%{http_code}' -X POST --data-binary @"$WORK/msg/$i.body" \
    -H "Content-Type: $ct" -H "Content-Transfer-Encoding: base64" -H "AS2-From: ACMESUPPLY" -H "AS2-To: EDIHUB" \
    -H "Message-ID: <crash-$i@acme.example>" "http://127.0.0.1:$port/as2") || return 1
  echo "$i $code" >>"$WORK/codes"
  [[ $code == 200 ]] && grep -q 'MDN-sent-automatically; processed' "$WORK/msg/$i.mdn" && ! grep -q 'processed/error' "$WORK/msg/$i.mdn"
}

start_server "$WORK/edihub.xml"
# Two writers in parallel; the server dies under them.
for w in 0 1; do
  (for ((i = 1 + w; i <= count; i += 2)); do send "$i" && echo "$i" >>"$WORK/acked.$w"; done) &
done
for _ in $(seq 1 400); do
  n=$(cat "$WORK"/acked.* 2>/dev/null | wc -l)
  ((n >= count / 3)) && break
  sleep 0.01
done
kill -9 "$server"
wait "$server" 2>/dev/null
wait  # the writers finish, failing against the dead server
acked=$(cat "$WORK"/acked.* 2>/dev/null | sort -n | uniq | wc -l)
echo "MDNs before the crash: $acked of $count"
((acked > 0 && acked < count)) || fail "the crash should fall inside the load (acked $acked of $count)"

start_server "$WORK/edihub.xml"
: >"$WORK/codes"
for ((i = 1; i <= count; i++)); do
  if ! grep -qx "$i" "$WORK"/acked.* 2>/dev/null; then
    for attempt in 1 2 3 4 5; do send "$i" && break; sleep 0.5; done
  fi
done
# Every resend answered at its first attempt: the held keys were taken over.
check_eq "resends after the restart that were not 200" "" "$(awk '$2 != 200' "$WORK/codes")"
check_eq "resends after the restart" $((count - acked)) "$(wc -l <"$WORK/codes")"
check_eq "keys still processing" 0 "$(sql "$db" "SELECT count(*) FROM idempotency_keys WHERE state = 'processing'")"
# A few that were acknowledged before the crash, again: same MDN, nothing new.
for i in $(head -3 "$WORK/acked.0"); do
  cp "$WORK/msg/$i.mdn" "$WORK/msg/$i.mdn.first"
  send "$i" || fail "resend $i"
  cmp -s "$WORK/msg/$i.mdn" "$WORK/msg/$i.mdn.first" || fail "message $i: the MDN after the restart differs"
done
kill -TERM "$server"
wait "$server"

check_eq "invoices" "$count" "$(sql "$db" 'SELECT count(*) FROM invoices')"
check_eq "transport keys completed" "$count" "$(sql "$db" "SELECT count(*) FROM idempotency_keys WHERE protocol = 'as2' AND state = 'completed'")"
check_eq "interchange keys completed" "$count" "$(sql "$db" "SELECT count(*) FROM idempotency_keys WHERE protocol = 'x12' AND state = 'completed'")"
# Each ack took a control number in the transaction that committed it: a
# killed request's rolled back with it, so no interchange was acknowledged twice.
check_eq "acks numbered" "$count" "$(sql "$db" "SELECT sum(value) FROM sequences WHERE name LIKE 'ack:%'")"

# --- A message over 4 MiB: one commit per interchange, its transport key
# leased across them. Killed part-way, it leaves that key `processing` under a
# 5-minute lease; the restarted node (same node id) takes it over at once, so
# the partner's resend is answered at its first attempt and every invoice of
# the message is booked once.
big=450
awk -v n=$big 'NR <= 5 { head[NR] = $0; next }
  END {
    for (i = 1; i <= n; i++) {
      ctl = sprintf("%09d", 500000 + i)
      for (k = 1; k <= 5; k++) { line = head[k]; gsub(/000000201/, ctl, line); gsub(/INV-88301/, "INV-BIG" i, line); print line }
      for (l = 1; l <= 300; l++) printf "IT1*%d*1*EA*1.00**VP*WID-%06d~\n", l, l
      printf "TDS*30000~\nCTT*300~\nSE*306*0001~\nGE*1*201~\nIEA*1*%s~\n", ctl
    }
  }' "$REPO/samples/edi/x12-810-004010.edi" >"$WORK/big.edi"
{ printf 'Content-Type: application/edi-x12\r\n\r\n'; cat "$WORK/big.edi"; } >"$WORK/big.entity"
openssl cms -sign -binary -md sha256 -signer "$C/acme.crt" -inkey "$C/acme.key" -in "$WORK/big.entity" |
  openssl cms -encrypt -binary -aes256 -out "$WORK/big.eml" "$C/edihub.crt"
awk 'b{print} /^\r?$/{b=1}' "$WORK/big.eml" >"$WORK/big.body"
send_big() {  # send_big OUT: the HTTP status
  curl -s -m 60 -o "$1" -w '%{http_code}' -X POST --data-binary @"$WORK/big.body" \
    -H "Content-Type: $(sed -n 's/^Content-Type: //p' "$WORK/big.eml" | head -1 | tr -d '\r')" \
    -H "Content-Transfer-Encoding: base64" -H "AS2-From: ACMESUPPLY" -H "AS2-To: EDIHUB" \
    -H "Message-ID: <crash-big@acme.example>" "http://127.0.0.1:$port/as2"
}
big_invoices() { sql "$db" "SELECT count(*) FROM invoices WHERE invoice_number LIKE 'INV-BIG%'"; }
start_server "$WORK/edihub.xml"
send_big "$WORK/big.first" >/dev/null &
sender=$!
for _ in $(seq 1 1000); do
  (($(big_invoices) >= 20)) && break
  sleep 0.01
done
kill -9 "$server"
wait "$server" "$sender" 2>/dev/null
booked=$(big_invoices)
echo "big message: $booked of $big invoices booked when the server was killed"
((booked > 0 && booked < big)) || fail "big message: the kill should fall inside it ($booked of $big)"
check_eq "big message: its key left processing" processing \
  "$(sql "$db" "SELECT state FROM idempotency_keys WHERE message_id = 'as2:<crash-big@acme.example>'")"
start_server "$WORK/edihub.xml"
check_eq "big message: the resend's first attempt" 200 "$(send_big "$WORK/big.mdn")"
grep -q 'MDN-sent-automatically; processed' "$WORK/big.mdn" && ! grep -q 'processed/error' "$WORK/big.mdn" ||
  fail "big message: $(grep -a 'Disposition:' "$WORK/big.mdn")"
kill -TERM "$server"
wait "$server"
check_eq "big message: every invoice booked once" "$big" "$(big_invoices)"
check_eq "big message: its key completed" completed \
  "$(sql "$db" "SELECT state FROM idempotency_keys WHERE message_id = 'as2:<crash-big@acme.example>'")"
finish
