#!/usr/bin/env bash
# `edihub serve` with <tls>: HTTPS only from TLS 1.2 on; an AS2 message over it.
source "$(dirname "$0")/lib.sh"
C="$REPO/partners/certs"
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$WORK/tls.key" -out "$WORK/tls.crt" -days 2 \
  -subj "/CN=127.0.0.1" -addext "subjectAltName=IP:127.0.0.1" 2>/dev/null
gateway_config "$WORK/edihub.xml" \
  "<listen address=\"127.0.0.1\" port=\"0\"><tls cert=\"$WORK/tls.crt\" key=\"$WORK/tls.key\"/></listen>"
start_server "$WORK/edihub.xml"
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
check_eq "healthz over TLS" ok "$(curl -s --cacert "$WORK/tls.crt" "https://127.0.0.1:$port/healthz")"
# No profile pins a client certificate: the handshake asks for none.
handshake=$(openssl s_client -msg -connect "127.0.0.1:$port" -CAfile "$WORK/tls.crt" </dev/null 2>&1)
grep -q "CertificateRequest" <<<"$handshake" && fail "a client certificate was asked for without a pin"
grep -q "Verify return code: 0" <<<"$handshake" || fail "s_client: $(tail -5 <<<"$handshake")"
curl -s -k --tlsv1.1 --tls-max 1.1 "https://127.0.0.1:$port/healthz" >/dev/null 2>&1 && fail "TLS 1.1 accepted"
curl -s "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && fail "plain HTTP answered on the TLS port"
out=$(EDIHUB_CURL_OPTS="--cacert $WORK/tls.crt" "$REPO/tools/send-as2" "$REPO/samples/edi/x12-856-004010.edi" \
  "https://127.0.0.1:$port/as2" "<tls-1@acme.example>")
grep -q '^HTTP 200' <<<"$out" || fail "AS2 over TLS: $out"
grep -q 'Disposition: automatic-action/MDN-sent-automatically; processed' <<<"$out" || fail "MDN over TLS: $out"
check_eq "booked" 1 "$(sql "$WORK/edihub.db" 'SELECT count(*) FROM shipment_notices')"
finish
