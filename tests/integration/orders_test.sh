#!/usr/bin/env bash
# Orders, a document type added through the registry alone, end to end on the
# real server: an X12 850 over AS2 (signed and encrypted by openssl) and an
# EDIFACT ORDERS over AS4 are booked into orders/order_lines with their
# fields, acknowledged (997 / CONTRL), a retransmission books nothing more, and
# the operator console finds each interchange by its order number.
source "$(dirname "$0")/lib.sh"
C="$REPO/partners/certs"
db="$WORK/edihub.db"
mkdir -p "$WORK/partners" "$WORK/acks"
cp -r "$C" "$WORK/partners/"
sed -e "s|</partner>|  <acknowledgments via=\"dir\" dir=\"$WORK/acks\"/>\n</partner>|" \
  "$REPO/partners/acme.xml" >"$WORK/partners/acme.xml"
gateway_config "$WORK/edihub.xml" '<listen address="127.0.0.1" port="0" public-url="http://127.0.0.1:1/as2"/>' \
  '<console address="127.0.0.1" port="0"/>'
sed -i "s|<partners dir=\"[^\"]*\"/>|<partners dir=\"$WORK/partners\"/>|" "$WORK/edihub.xml"
echo "orders-password-1" | "$EDIHUB" operator add ops --role viewer --db "sqlite:$db" >/dev/null || fail "operator add"
start_server "$WORK/edihub.xml"
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT

send_as2() { post_as2 "$1" "$2" "<orders-$1@acme.example>"; }  # send_as2 NAME EDI-FILE: the HTTP status
# The AS4 sample's envelope around the EDIFACT ORDERS sample (SwA, MimeType application/EDIFACT).
as4_orders() {
  sed -n '1,/^Content-ID: <payload-1@acme.example>/p' "$REPO/samples/as4/swa-856.as4" |
    sed -e 's/as4-sample-856-802@acme.example/as4-orders-1@acme.example/g' \
      -e 's|application/edi-x12|application/EDIFACT|g'
  printf '\r\n'
  cat "$REPO/samples/edi/edifact-orders-d96a.edi"
  printf '\r\n--MIMEBoundary_edihub_sample--\r\n'
}
send_as4() {  # send_as4 OUT: the HTTP status
  as4_orders >"$WORK/orders.as4"
  local ct
  ct=$(head -1 "$WORK/orders.as4" | sed 's/^Content-Type: //' | tr -d '\r')
  tail -c +$(($(head -1 "$WORK/orders.as4" | wc -c) + 3)) "$WORK/orders.as4" >"$WORK/orders.as4.body"
  curl -s -o "$1" -w '%{http_code}' -X POST --data-binary @"$WORK/orders.as4.body" -H "Content-Type: $ct" \
    "http://127.0.0.1:$port/as4"
}

check_eq "850 over AS2: MDN status" 200 "$(send_as2 po "$REPO/samples/edi/x12-850-004010.edi")"
grep -q "processed" "$WORK/po.mdn" || fail "850: the MDN is not processed: $(head -c 400 "$WORK/po.mdn")"
check_eq "850: the order with its fields" "original|active|20240320|SA|USD|BT01|ACME01|WH01|20240405|77988" \
  "$(sql "$db" "SELECT purpose, status, document_date, order_type, currency, buyer, seller, ship_to, delivery_date,
        total_minor FROM orders WHERE partner_id = 'acme' AND order_number = 'PO-5001'")"
check_eq "850: its lines" "1|1|012345678905|UP|24|EA|12.50;2|2|012345678912|UP|12|EA|39.99" \
  "$(sql "$db" "SELECT position, line_number, item_id, item_id_type, quantity, unit, unit_price FROM order_lines
        WHERE order_number = 'PO-5001' ORDER BY position" | paste -sd ';')"
for _ in $(seq 1 100); do ack=$(grep -l "AK2\*850\*0001~" "$WORK"/acks/* 2>/dev/null | head -1); [[ -n $ack ]] && break; sleep 0.05; done
grep -q "AK5\*A~" "${ack:-/dev/null}" || fail "850: no accepting 997 in $WORK/acks"

check_eq "ORDERS over AS4: status" 200 "$(send_as4 "$WORK/r1")"
grep -q '<eb:Receipt>' "$WORK/r1" || fail "ORDERS: no Receipt: $(head -c 400 "$WORK/r1")"
check_eq "ORDERS: the order" "original|220|EUR|5400000000009|5412345000013|5400000000016|20240405|" \
  "$(sql "$db" "SELECT purpose, order_type, currency, buyer, seller, ship_to, delivery_date, total_minor FROM orders
        WHERE order_number = 'PO-7001'")"
check_eq "ORDERS: its lines (decimal comma read)" "1|5412345000020|24|PCE|12.50;2|5412345000037|12|PCE|39.50" \
  "$(sql "$db" "SELECT line_number, item_id, quantity, unit, unit_price FROM order_lines WHERE order_number = 'PO-7001'
        ORDER BY position" | paste -sd ';')"

# Retransmissions: the same receipts, nothing booked twice.
cp "$WORK/po.mdn" "$WORK/po.first"
check_eq "850 again: MDN status" 200 "$(send_as2 po "$REPO/samples/edi/x12-850-004010.edi")"
check_eq "ORDERS again: status" 200 "$(send_as4 "$WORK/r2")"
cmp -s "$WORK/r1" "$WORK/r2" || fail "ORDERS again: a different Receipt"
check_eq "orders booked once each" "2|4" \
  "$(sql "$db" "SELECT (SELECT count(*) FROM orders), (SELECT count(*) FROM order_lines)")"

# The console finds each interchange by its order number.
console_port=$(sed -n 's/.*operator console on http:\/\/127.0.0.1:\([0-9]*\)\/.*/\1/p' "$WORK/server.out")
[[ -n $console_port ]] || fail "no console line in $(cat "$WORK/server.out")"
console="http://127.0.0.1:$console_port"
check_eq "console: login" 303 \
  "$(curl -s -c "$WORK/jar" -o /dev/null -w '%{http_code}' --data 'name=ops&password=orders-password-1' "$console/login")"
curl -s -b "$WORK/jar" "$console/messages?document=PO-5001" >"$WORK/po.html"
grep -q '&lt;orders-po@acme.example&gt;' "$WORK/po.html" || fail "console: the 850 not found by PO-5001"
curl -s -b "$WORK/jar" "$console/messages?document=PO-7001" >"$WORK/orders.html"
grep -q 'as4-orders-1@acme.example' "$WORK/orders.html" || fail "console: the ORDERS not found by PO-7001"
grep -q 'orders-po@acme.example' "$WORK/orders.html" && fail "console: PO-7001 found the 850 too"
curl -s -b "$WORK/jar" "$console/messages?document=PO-9999" | grep -q 'orders-po@acme.example' &&
  fail "console: an unknown order number found something"
finish
