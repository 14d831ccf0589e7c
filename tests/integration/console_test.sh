#!/usr/bin/env bash
# The operator console: accounts made with `edihub operator`, an AS2 message
# (openssl cms, posted with curl) with its 997 queued to a directory, then
#  1. over HTTP with curl: what a stranger gets (login redirects, 403 on a
#     POST, security headers), throttled logins, escaping of partner bytes;
#  2. in Debian's chromium (tests/interop/console/console.js, playwright-core):
#     log in, search, open, see the MDN and 997, resend, audit, log out; a
#     viewer cannot act; a forged CSRF request is refused; a phone fits;
#  3. in the store afterwards: the resend is one more outbox row and audited,
#     nothing booked twice; a poison key released through the console is
#     processed at the partner's next retransmission.
source "$(dirname "$0")/lib.sh"
C="$REPO/partners/certs"
db="$WORK/edihub.db"
NODE_DIR="$REPO/tests/interop/console"
SHOTS=${CONSOLE_SHOTS:-$WORK/shots}
mkdir -p "$SHOTS" "$WORK/partners" "$WORK/acks"
[[ -d $NODE_DIR/node_modules/playwright-core ]] ||
  (cd "$NODE_DIR" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --silent) || { echo "npm ci failed"; exit 1; }
[[ -x /usr/bin/chromium ]] || { echo "FAIL: /usr/bin/chromium missing (tools/setup installs it)"; exit 1; }

# The demo partner, its acknowledgments written to a directory.
cp -r "$REPO/partners/certs" "$WORK/partners/"
sed "s|<retention days=\"30\"/>|<retention days=\"30\"/><acknowledgments via=\"dir\" dir=\"$WORK/acks\" x12=\"997\"/>|" \
  "$REPO/partners/acme.xml" >"$WORK/partners/acme.xml"
# The console over TLS, as an operator would run it (a certificate of its own).
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
  -keyout "$WORK/console.key" -out "$WORK/console.crt" 2>/dev/null
gateway_config "$WORK/edihub.xml" '<listen address="127.0.0.1" port="0"/>' \
  "<console address=\"127.0.0.1\" port=\"0\"><tls cert=\"$WORK/console.crt\" key=\"$WORK/console.key\"/></console>"
sed -i "s|<partners dir=\"$REPO/partners\"/>|<partners dir=\"$WORK/partners\"/>|" "$WORK/edihub.xml"

echo "alice-secret-1" | "$EDIHUB" operator add alice --role operator --db "sqlite:$db" >/dev/null || fail "operator add alice"
echo "bob-secret-22" | "$EDIHUB" operator add bob --db "sqlite:$db" >/dev/null || fail "operator add bob"
check_eq "a short password is refused" "edihub operator add: the password needs at least 10 characters" \
  "$(echo short | "$EDIHUB" operator add carol --db "sqlite:$db" 2>&1)"
check_eq "operator list" "alice operator;bob viewer;" \
  "$("$EDIHUB" operator list --db "sqlite:$db" | awk '{printf "%s %s;", $1, $2}')"
check_eq "no password in the store" 0 "$(sql "$db" "SELECT count(*) FROM operators WHERE password_hash LIKE '%secret%'")"

start_server "$WORK/edihub.xml"
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
console_port=$(sed -n 's/.*operator console on https:\/\/127.0.0.1:\([0-9]*\)\/.*/\1/p' "$WORK/server.out")
[[ -n $console_port ]] || { echo "FAIL: no console line in: $(cat "$WORK/server.out")"; exit 1; }
url="http://127.0.0.1:$port/as2"
console="https://127.0.0.1:$console_port"
curl() { command curl --cacert "$WORK/console.crt" "$@"; }

# post FILE MESSAGE-ID OUT [FROM]: an X12 file signed and encrypted by openssl, posted as AS2.
post() {
  local entity="$WORK/entity" from=${4:-ACMESUPPLY}
  { printf 'Content-Type: application/edi-x12\r\n\r\n'; cat "$1"; } >"$entity"
  openssl cms -sign -binary -md sha256 -signer "$C/acme.crt" -inkey "$C/acme.key" -in "$entity" -out "$entity.s"
  openssl cms -encrypt -binary -aes256 -in "$entity.s" -out "$entity.e" "$C/edihub.crt"
  awk 'b{print} /^\r?$/{b=1}' "$entity.e" >"$3.body"
  curl -s -o "$3" -w '%{http_code}' -X POST --data-binary @"$3.body" \
    -H 'Content-Type: application/pkcs7-mime; smime-type=enveloped-data; name="smime.p7m"' \
    -H "Content-Transfer-Encoding: base64" -H "AS2-From: $from" -H "AS2-To: EDIHUB" -H "Message-ID: $2" \
    -H "AS2-Version: 1.2" "$url"
}
check_eq "the message is answered" 200 "$(post "$REPO/samples/edi/x12-810-004010.edi" "<console-1@acme.example>" "$WORK/r1")"
check_eq "its 997 is delivered to the directory" 1 \
  "$(sql_eventually "$db" 1 "SELECT count(*) FROM outbox WHERE kind = '997' AND state = 'delivered'")"
# A sender whose bytes try to become markup in the console.
post "$REPO/samples/edi/x12-810-004010.edi" "<x@acme.example>" "$WORK/r2" '"<script>alert(1)</script>"' >/dev/null

# 1. Over HTTP, without a session.
check_eq "GET / without a session goes to the login page" "303 /login" \
  "$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' "$console/" | sed "s|$console||")"
check_eq "POST an action without a session: 403" 403 \
  "$(curl -s -o /dev/null -w '%{http_code}' -X POST --data 'id=1' "$console/actions/resend")"
headers=$(curl -s -D - -o /dev/null "$console/login")
grep -qi "^Content-Security-Policy: default-src 'none'; style-src 'self'" <<<"$headers" || fail "no CSP: $headers"
grep -qi '^X-Frame-Options: DENY' <<<"$headers" || fail "no X-Frame-Options"
grep -qi '^Cache-Control: no-store' <<<"$headers" || fail "pages may be cached"
login() {  # login NAME PASSWORD JAR: the status and the Set-Cookie line
  curl -s -c "$3" -D - -o /dev/null --data-urlencode "name=$1" --data-urlencode "password=$2" "$console/login" |
    tr -d '\r' | awk '/^HTTP/{s=$2} /^Set-Cookie/{c=$0} END{print s; print c}'
}
out=$(login alice alice-secret-1 "$WORK/jar")
check_eq "login: 303" 303 "$(head -1 <<<"$out")"
grep -q 'HttpOnly; SameSite=Strict; Max-Age=28800; Secure' <<<"$out" || fail "cookie flags: $out"
page=$(curl -s -b "$WORK/jar" "$console/messages?outcome=rejected")
grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' <<<"$page" || fail "the hostile AS2-From is not shown escaped"
grep -q '<script>' <<<"$page" && fail "a partner's markup reached the page"

# 2. In chromium.
booked_before=$(sql "$db" "SELECT count(*) FROM invoices")
outbox_before=$(sql "$db" "SELECT count(*) FROM outbox")
node "$NODE_DIR/console.js" "https://127.0.0.1:$console_port" "<console-1@acme.example>" "$SHOTS" || fail "console.js (screenshots in $SHOTS)"

# 3. The store afterwards.
check_eq "the resend is one more outbox row" $((outbox_before + 1)) "$(sql "$db" "SELECT count(*) FROM outbox")"
check_eq "the resent 997 is delivered to the directory too" 2 \
  "$(sql_eventually "$db" 2 "SELECT count(*) FROM outbox WHERE kind = '997' AND state = 'delivered'")"
check_eq "nothing booked again" "$booked_before" "$(sql "$db" "SELECT count(*) FROM invoices")"
check_eq "audit: alice resent, bob was refused" "alice|resend;bob|/actions/resend;" \
  "$(sql "$db" "SELECT operator, action FROM audit WHERE action IN ('resend', '/actions/resend') ORDER BY id" | tr '\n' ';')"
check_eq "audit: the forged CSRF posts" 2 "$(sql "$db" "SELECT count(*) FROM audit WHERE action = 'refused'")"

# Guessing: the 6th failed login from one address is throttled, even with the right password
# (chromium's one wrong password counts: 4 more here).
for i in 1 2 3 4; do login mallory "guess-$i" "$WORK/jar2" >/dev/null; done
check_eq "the 6th failed login from one address: 429" 429 "$(login alice alice-secret-1 "$WORK/jar2" | head -1)"
check_eq "failed logins are audited" 6 "$(sql "$db" "SELECT count(*) FROM audit WHERE action = 'log in' AND result LIKE 'refused%'")"
# 100 more from the blocked address: each refused, none written (one row per window and address).
for i in $(seq 1 100); do login mallory "more-$i" "$WORK/jar2" >/dev/null; done
check_eq "the 106th: still 429" 429 "$(login mallory x "$WORK/jar2" | head -1)"
check_eq "a blocked address writes no more rows" 6 "$(sql "$db" "SELECT count(*) FROM audit WHERE action = 'log in' AND result LIKE 'refused%'")"

# A poison key, released from the console, is processed at the next retransmission.
sql "$db" "INSERT INTO idempotency_keys (partner_id, message_id, protocol, state, received_at, updated_at, attempts,
  failures, payload_sha256, raw_sha256, outcome, error) VALUES ('acme', 'as2:<poison-1@acme.example>', 'as2', 'failed',
  0, 0, 5, 5, '', '', 'error', 'the back office was down')"
csrf=$(curl -s -b "$WORK/jar" "$console/keys?state=poison" | sed -n 's/.*name="csrf" value="\([0-9a-f]*\)".*/\1/p' | head -1)
curl -s -b "$WORK/jar" "$console/keys?state=poison" | grep -q 'poison-1@acme.example' || fail "the poison key is not listed"
check_eq "release: 303" 303 "$(curl -s -o /dev/null -w '%{http_code}' -b "$WORK/jar" --data-urlencode "csrf=$csrf" \
  --data-urlencode partner=acme --data-urlencode 'message_id=as2:<poison-1@acme.example>' "$console/actions/release-key")"
check_eq "released: failures 0" 0 "$(sql "$db" "SELECT failures FROM idempotency_keys WHERE message_id = 'as2:<poison-1@acme.example>'")"
check_eq "the retransmission is processed" 200 \
  "$(post "$REPO/samples/edi/x12-810-004010.edi" "<poison-1@acme.example>" "$WORK/r3")"
check_eq "the key is completed" completed \
  "$(sql "$db" "SELECT state FROM idempotency_keys WHERE message_id = 'as2:<poison-1@acme.example>'")"
check_eq "a second release is refused: not poison" 1 \
  "$(curl -s -o /dev/null -b "$WORK/jar" --data-urlencode "csrf=$csrf" --data-urlencode partner=acme \
     --data-urlencode 'message_id=as2:<poison-1@acme.example>' "$console/actions/release-key";
     sql "$db" "SELECT count(*) FROM audit WHERE action = 'release key' AND result LIKE 'not done: the key is completed%'")"
finish
