#!/usr/bin/env bash
# `edihub serve` with <tls>: HTTPS only from TLS 1.2 on; an AS2 message over it.
source "$(dirname "$0")/lib.sh"
C="$REPO/partners/certs"
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$WORK/tls.key" -out "$WORK/tls.crt" -days 2 \
  -subj "/CN=127.0.0.1" -addext "subjectAltName=IP:127.0.0.1" 2>/dev/null
cat >"$WORK/edihub.xml" <<XML
<edihub>
  <identity as2-id="EDIHUB" cert="$C/edihub.crt" key="$C/edihub.key"/>
  <listen address="127.0.0.1" port="0"><tls cert="tls.crt" key="tls.key"/></listen>
  <store uri="sqlite:edihub.db"/>
  <partners dir="$REPO/partners"/>
</edihub>
XML
"$EDIHUB" serve --config "$WORK/edihub.xml" >"$WORK/server.out" 2>&1 &
server=$!
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
for _ in $(seq 1 200); do
  port=$(sed -n 's/.*listening on https:\/\/127.0.0.1:\([0-9]*\)\/as2.*/\1/p' "$WORK/server.out")
  [[ -n $port ]] && break
  sleep 0.05
done
[[ -n $port ]] || { echo "server did not start: $(cat "$WORK/server.out")"; exit 1; }
check_eq "healthz over TLS" ok "$(curl -s --cacert "$WORK/tls.crt" "https://127.0.0.1:$port/healthz")"
curl -s -k --tlsv1.1 --tls-max 1.1 "https://127.0.0.1:$port/healthz" >/dev/null 2>&1 && fail "TLS 1.1 accepted"
curl -s "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && fail "plain HTTP answered on the TLS port"
out=$(EDIHUB_CURL_OPTS="--cacert $WORK/tls.crt" "$REPO/tools/send-as2" "$REPO/samples/edi/x12-856-004010.edi" \
  "https://127.0.0.1:$port/as2" "<tls-1@acme.example>")
grep -q '^HTTP 200' <<<"$out" || fail "AS2 over TLS: $out"
grep -q 'Disposition: automatic-action/MDN-sent-automatically; processed' <<<"$out" || fail "MDN over TLS: $out"
check_eq "booked" 1 "$(sql "$WORK/edihub.db" 'SELECT count(*) FROM shipment_notices')"
finish
