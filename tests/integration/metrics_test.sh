#!/usr/bin/env bash
# GET /metrics on the <metrics> listener of `edihub serve`: after AS4 messages
# (receipted, a duplicate, a rejected one) the exposition counts them by
# partner and outcome, times them, shows the open keys, the outbox and every
# certificate's days to expiry; `promtool check metrics` (Debian prometheus)
# accepts it, and `promtool check rules` the alert rules in tools/prometheus.
# The partner listener does not serve /metrics.
source "$(dirname "$0")/lib.sh"
command -v promtool >/dev/null || { echo "promtool is not installed (tools/setup installs prometheus)"; exit 1; }
gateway_config "$WORK/edihub.xml" '<listen address="127.0.0.1" port="0"/>' '<metrics address="127.0.0.1" port="0"/>'
start_server "$WORK/edihub.xml"
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
mport=$(sed -n 's/.*metrics on http:\/\/127.0.0.1:\([0-9]*\)\/metrics.*/\1/p' "$WORK/server.out")
[[ -n $mport ]] || fail "no metrics listener: $(cat "$WORK/server.out")"
post() {  # post CAPTURE: the HTTP status
  local ct
  ct=$(head -1 "$1" | sed 's/^Content-Type: //' | tr -d '\r')
  tail -c +$(($(head -1 "$1" | wc -c) + 3)) "$1" >"$WORK/body"
  curl -s -o /dev/null -w '%{http_code}' -X POST --data-binary @"$WORK/body" -H "Content-Type: $ct" \
    "http://127.0.0.1:$port/as4"
}
check_eq "signed AS4" 200 "$(post "$REPO/samples/as4/wss-signed.as4")"
check_eq "SwA" 200 "$(post "$REPO/samples/as4/swa-856.as4")"
check_eq "SwA again" 200 "$(post "$REPO/samples/as4/swa-856.as4")"
check_eq "wrapping" 500 "$(post "$REPO/samples/as4/broken-wss-wrapping.as4")"  # proves no sender: no key
check_eq "bad gzip" 500 "$(post "$REPO/samples/as4/broken-bad-gzip.as4")"       # acme's, failed: a key

curl -s -D "$WORK/metrics.headers" -o "$WORK/metrics" "http://127.0.0.1:$mport/metrics"
grep -qi '^Content-Type: text/plain; version=0.0.4' "$WORK/metrics.headers" || fail "content type: $(cat "$WORK/metrics.headers")"
promtool check metrics <"$WORK/metrics" >"$WORK/promtool.out" 2>&1 || fail "promtool check metrics: $(cat "$WORK/promtool.out")"
has() { grep -qxF "$1" "$WORK/metrics" || fail "no line '$1' in /metrics"; }
has 'edihub_messages_total{protocol="as4",partner="acme",outcome="processed"} 2'
has 'edihub_messages_total{protocol="as4",partner="acme",outcome="duplicate"} 1'
has 'edihub_messages_total{protocol="as4",partner="acme",outcome="rejected"} 2'
has 'edihub_request_duration_seconds_count{protocol="as4"} 5'
has 'edihub_request_duration_seconds_bucket{protocol="as4",le="+Inf"} 5'
has 'edihub_store_up 1'
has 'edihub_keys_open{state="failed"} 1'
has 'edihub_keys_open{state="processing"} 0'
has 'edihub_keys_poison 0'
has 'edihub_schema_version 12'
has 'edihub_purge_last_run_timestamp_seconds 0'
has 'edihub_gate_transactions_running 0'
has 'edihub_gate_inflight_timeouts_total 0'
has 'edihub_gate_commit_duration_seconds_count 3'  # two processed, one failed; a duplicate or an
                                                  # unauthenticated copy commits nothing
grep -q '^edihub_outbox_rows{state="pending"} [0-9]' "$WORK/metrics" || fail "no outbox rows"
# The demo certificates: ours and acme's (signing and encryption), about ten years left.
for what in 'owner="edihub",use="identity"' 'owner="acme",use="signing"' 'owner="acme",use="encryption"'; do
  at=$(grep "^edihub_certificate_expiry_timestamp_seconds{$what" "$WORK/metrics" | sed 's/.* //')
  [[ -n $at ]] && awk -v t="$at" -v now="$(date +%s)" 'BEGIN { d = (t - now) / 86400; exit !(d > 30 && d < 4000) }' ||
    fail "certificate $what: expires at '$at'"
done
check_eq "no /metrics for partners" 404 "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/metrics")"
check_eq "metrics /readyz" 200 "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$mport/readyz")"
promtool check rules "$REPO/tools/prometheus/edihub-alerts.yml" >"$WORK/rules.out" 2>&1 ||
  fail "promtool check rules: $(cat "$WORK/rules.out")"
# The Grafana dashboard: JSON, and every metric it queries is in this scrape.
dashboard="$REPO/tools/grafana/edihub-dashboard.json"
node -e 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))' "$dashboard" 2>"$WORK/dashboard.out" ||
  fail "dashboard JSON: $(cat "$WORK/dashboard.out")"
for m in $(grep -oE 'edihub_[a-z_]+' "$dashboard" | sort -u); do
  grep -qE "^$m[{ ]" "$WORK/metrics" || fail "the dashboard queries $m, not in /metrics"
done
finish
