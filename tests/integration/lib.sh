# Shared helpers for the integration tests (sourced, not run).
# Each test gets its own scratch directory, removed on exit.

set -u
EDIHUB=${EDIHUB:?path to the edihub binary}
REPO=${REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
WORK=$(mktemp -d /tmp/edihub-it-XXXXXX)
[[ -n "${KEEP:-}" ]] || trap 'rm -rf "$WORK"' EXIT
failures=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

check_eq() {  # check_eq WHAT EXPECTED ACTUAL
  if [[ "$2" != "$3" ]]; then fail "$1: expected $2, got $3"; fi
}

# make_files DIR FIRST COUNT: one X12 810 and one EDIFACT INVOIC file (two
# invoices) per number, each with its own control numbers and invoice numbers.
make_files() {
  local dir=$1 first=$2 count=$3 i ctl
  mkdir -p "$dir"
  for ((i = first; i < first + count; i++)); do
    ctl=$(printf '%09d' "$i")
    sed -e "s/000000201/$ctl/g" -e "s/INV-88301/INV-X$i/" \
      "$REPO/samples/edi/x12-810-004010.edi" >"$dir/x12-$ctl.edi"
    sed -e "s/INV0000042/E$ctl/g" -e "s/INV-77120/INV-E$i/" -e "s/CN-77121/CN-E$i/" \
      "$REPO/samples/edi/edifact-invoic-d96a.edi" >"$dir/edifact-$ctl.edi"
  done
}

# post_as2 NAME EDI-FILE MESSAGE-ID: the file as acme sends it (signed with
# acme's key, encrypted to edihub's certificate, by openssl), POSTed to the
# server started by start_server; prints the HTTP status, the MDN in $WORK/NAME.mdn.
post_as2() {
  local certs="$REPO/partners/certs"
  { printf 'Content-Type: application/edi-x12\r\n\r\n'; cat "$2"; } >"$WORK/$1.entity"
  openssl cms -sign -binary -md sha256 -signer "$certs/acme.crt" -inkey "$certs/acme.key" -in "$WORK/$1.entity" |
    openssl cms -encrypt -binary -aes256 -out "$WORK/$1.smime" "$certs/edihub.crt"
  awk 'b{print} /^\r?$/{b=1}' "$WORK/$1.smime" >"$WORK/$1.body"
  curl -s -o "$WORK/$1.mdn" -w '%{http_code}' -X POST --data-binary @"$WORK/$1.body" \
    -H "Content-Type: $(sed -n 's/^Content-Type: //p' "$WORK/$1.smime" | head -1 | tr -d '\r')" \
    -H "Content-Transfer-Encoding: base64" -H "AS2-From: ACMESUPPLY" -H "AS2-To: EDIHUB" \
    -H "Message-ID: $3" "http://127.0.0.1:$port/as2"
}

sql() {  # sql DB QUERY
  sqlite3 -batch -noheader -cmd ".timeout 10000" "$1" "$2"
}

# sql_eventually DB EXPECTED QUERY: the query's value once it equals EXPECTED
# (rows the server logs off the answer's path arrive within milliseconds), or
# its last value after 5 s.
sql_eventually() {
  local value
  for _ in $(seq 1 100); do
    value=$(sql "$1" "$3")
    [[ $value == "$2" ]] && break
    sleep 0.05
  done
  echo "$value"
}

# eventually SECONDS COMMAND...: runs COMMAND every 50 ms until it succeeds;
# fails once SECONDS have passed by the clock. A deadline, not a count of
# sleeps: on a loaded machine the checks between the sleeps take their time too.
# Budgets are generous (CI runs the suite about 1.7x slower than a developer's
# machine): a wait that succeeds returns as soon as it does.
eventually() {  # on giving up it says on stderr what it waited for
  local deadline=$((SECONDS + $1)) waited=$1
  shift
  until "$@"; do
    if ((SECONDS >= deadline)); then
      echo "gave up after ${waited} s waiting for: $*" >&2
      return 1
    fi
    sleep 0.05
  done
}

# gateway_config FILE [XML...]: a gateway config with the demo identity, a free
# port, the store $WORK/edihub.db and the repo's partners, plus XML elements.
gateway_config() {
  local file=$1
  shift
  {
    echo "<edihub>"
    echo "  <identity as2-id=\"EDIHUB\" cert=\"$REPO/partners/certs/edihub.crt\" key=\"$REPO/partners/certs/edihub.key\"/>"
    echo "  <store uri=\"sqlite:$WORK/edihub.db\"/>"
    echo "  <partners dir=\"$REPO/partners\"/>"
    printf '  %s\n' "$@"
    echo "</edihub>"
  } >"$file"
}

# start_server CONFIG: `edihub serve` in the background; sets $server (its pid)
# and $port once it listens. The server's output goes to $WORK/server.out.
start_server() {
  # Emptied before the start: a restart must not read the previous server's port.
  : >"$WORK/server.out"
  "$EDIHUB" serve --config "$1" >"$WORK/server.out" 2>&1 &
  server=$!
  port=""
  for _ in $(seq 1 200); do
    port=$(sed -n 's/.*listening on https\{0,1\}:\/\/127.0.0.1:\([0-9]*\)\/as2.*/\1/p' "$WORK/server.out")
    [[ -n $port ]] && return 0
    sleep 0.05
  done
  echo "server did not start: $(cat "$WORK/server.out")"
  exit 1
}

finish() {
  if ((failures > 0)); then
    echo "$failures check(s) failed"
    exit 1
  fi
  exit 0
}
