#!/usr/bin/env bash
# kill -9 the server during a load of AS2 messages, restart it, resend every
# message whose MDN did not arrive: every document booked exactly once.
source "$(dirname "$0")/lib.sh"
C="$REPO/partners/certs"
db="$WORK/edihub.db"
count=${MESSAGES:-120}
gateway_config "$WORK/edihub.xml" '<listen address="127.0.0.1" port="0"/>' \
  '<gate lease-seconds="1" wait-seconds="5"/>'
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
send() {  # send I: 0 when a processed MDN came back
  local i=$1 code
  code=$(curl -s -m 20 -o "$WORK/msg/$i.mdn" -w '%{http_code}' -X POST --data-binary @"$WORK/msg/$i.body" \
    -H "Content-Type: $ct" -H "Content-Transfer-Encoding: base64" -H "AS2-From: ACMESUPPLY" -H "AS2-To: EDIHUB" \
    -H "Message-ID: <crash-$i@acme.example>" "http://127.0.0.1:$port/as2") || return 1
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
for ((i = 1; i <= count; i++)); do
  if ! grep -qx "$i" "$WORK"/acked.* 2>/dev/null; then
    for attempt in 1 2 3 4 5; do send "$i" && break; sleep 0.5; done
  fi
done
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
finish
