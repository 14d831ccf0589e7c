#!/usr/bin/env bash
# The partner-facing edge over raw sockets (tests/integration/http_edge.js):
# header values that would become structure, 0xFF, malformed and duplicate
# Content-Length, an unknown sender's body, nested compression, slow and
# trickling senders, the per-client cap, dot segments in async MDN URLs.
# Then the store: nothing was archived, signed, booked or logged for them
# beyond one bounded `messages` row each.
source "$(dirname "$0")/lib.sh"
C="$REPO/partners/certs"
db="$WORK/edihub.db"
CMS_TOOL=${CMS_TOOL:?path to cms_tool}

# The partner profiles, with an async MDN prefix that has a path.
mkdir -p "$WORK/partners"
cp -r "$REPO/partners/certs" "$WORK/partners/"
sed 's|<mdn async-url-allow="http://127.0.0.1:"/>|<mdn async-url-allow="http://127.0.0.1:7001/mdn"/>|' \
  "$REPO/partners/acme.xml" >"$WORK/partners/acme.xml"
echo 7001 >"$WORK/mdn_port.txt"
{
  echo "<edihub>"
  echo "  <identity as2-id=\"EDIHUB\" cert=\"$C/edihub.crt\" key=\"$C/edihub.key\"/>"
  echo "  <listen address=\"127.0.0.1\" port=\"0\"/>"
  echo "  <store uri=\"sqlite:$db\"/>"
  echo "  <partners dir=\"$WORK/partners\"/>"
  echo "  <limits max-body-bytes=\"2000000\" threads=\"2\" queue=\"8\" head-timeout-seconds=\"2\""
  echo "          request-timeout-seconds=\"3\" max-connections-per-client=\"50\"/>"
  echo "</edihub>"
} >"$WORK/edihub.xml"

# A signed and encrypted message, made by openssl.
{ printf 'Content-Type: application/edi-x12\r\n\r\n'; cat "$REPO/samples/edi/x12-810-004010.edi"; } >"$WORK/entity"
openssl cms -sign -binary -md sha256 -signer "$C/acme.crt" -inkey "$C/acme.key" -in "$WORK/entity" |
  openssl cms -encrypt -binary -aes256 -out "$WORK/msg.eml" "$C/edihub.crt"
sed -n 's/^Content-Type: //p' "$WORK/msg.eml" | head -1 | tr -d '\r' >"$WORK/ct.txt"
awk 'b{print} /^\r?$/{b=1}' "$WORK/msg.eml" >"$WORK/body.b64"
# Six compressed layers, five inflating to 25 MB each (base64 padded with spaces,
# which MIME decoding skips): 125 MB for one ~150 KB request; the budget for
# one message is 100 MiB, all layers together (each layer alone is well under it).
cp "$WORK/entity" "$WORK/layer"
head -c 25000000 /dev/zero | tr '\0' ' ' >"$WORK/pad"
for i in 1 2 3 4 5 6; do
  "$CMS_TOOL" zlib-cms "$WORK/layer" >"$WORK/layer.der"
  [[ $i == 6 ]] && break
  { printf 'Content-Type: application/pkcs7-mime; smime-type=compressed-data\r\nContent-Transfer-Encoding: base64\r\n\r\n'
    base64 -w 76 "$WORK/layer.der"; cat "$WORK/pad"; } >"$WORK/layer.next"
  mv "$WORK/layer.next" "$WORK/layer"
done
mv "$WORK/layer.der" "$WORK/nested.der"
rm -f "$WORK/pad" "$WORK/layer"

start_server "$WORK/edihub.xml"
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
node "$(dirname "$0")/http_edge.js" "$port" "$WORK" || failures=$((failures + $?))
echo "server peak RSS: $(awk '/VmHWM/ {print $2, $3}' "/proc/$server/status")"

# Nothing the edge refused reached the store beyond its log row; nor did the
# nested layers, unsigned for a partner that signs: they prove no sender.
check_eq "keys" "" "$(sql "$db" "SELECT group_concat(message_id) FROM idempotency_keys")"
check_eq "captures" "" "$(sql "$db" "SELECT group_concat(message_id) FROM captures")"
check_eq "the nested layers: answered, logged, not kept" "rejected" \
  "$(sql_eventually "$db" rejected "SELECT outcome FROM messages WHERE transport_id = '<nested@acme.example>' AND detail LIKE 'not authenticated%'")"
check_eq "invoices" 0 "$(sql "$db" "SELECT count(*) FROM invoices")"
check_eq "outbox" 0 "$(sql "$db" "SELECT count(*) FROM outbox")"
check_eq "refusals logged without a partner" "" \
  "$(sql "$db" "SELECT id FROM messages WHERE outcome <> 'rejected' AND partner_id IS NULL")"
check_eq "log rows without a line break" 0 \
  "$(sql "$db" "SELECT count(*) FROM messages WHERE instr(coalesce(transport_id, '') || coalesce(detail, ''), char(10)) > 0 OR instr(coalesce(transport_id, '') || coalesce(detail, ''), char(13)) > 0")"
check_eq "the unknown sender is logged" 1 "$(sql_eventually "$db" 1 "SELECT count(*) FROM messages WHERE detail LIKE 'unknown AS2-From ''STRANGER''%'")"
# The text log: one line per answer, none forged.
check_eq "forged log lines" 0 "$(grep -c '^AS2-From: EVIL' "$WORK/server.out")"
finish
