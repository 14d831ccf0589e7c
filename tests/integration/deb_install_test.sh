#!/usr/bin/env bash
# The .deb as an operator installs it (cmake/packaging.cmake): cpack on the build directory,
# `dpkg -i` on this machine, then what it installed: /usr/bin/edihub, the `edihub` system user,
# /etc/edihub (the config a conffile; the machine's own identity made by postinst, root:edihub
# 0640, never the demo key; the demo partners only as examples, copied in here to send as acme),
# /var/lib/edihub owned by edihub, the units (`systemd-analyze verify` where it exists) enabled;
# lintian finds nothing. The server unit's own
# ExecStart runs as the edihub user on the installed config (its port overridden with --port 0)
# and answers a signed and encrypted AS2 message with a signed positive MDN; the store file it
# made belongs to edihub; the purge unit's ExecStart runs too. A second `dpkg -i` (an upgrade)
# keeps user, modes, identity and data; `dpkg --purge` removes /etc/edihub and /var/lib/edihub,
# and an installation after it makes another identity.
# Installs system-wide: needs root (CI runs on a throwaway machine), skipped otherwise, and
# skipped where an edihub package or /var/lib/edihub is there already (it would be purged).
source "$(dirname "$0")/lib.sh"
BUILD=${EDIHUB_BUILD_DIR:?the build directory to package}
SKIP=77  # SKIP_RETURN_CODE in tests/CMakeLists.txt

if [[ $(id -u) -ne 0 ]]; then
  echo "SKIP: installs a .deb with dpkg -i: run as root (CI does)"
  exit $SKIP
fi
# One test at a time on the machine (another build directory's ctest may run this test too).
lockdir=/run/lock
[[ -d $lockdir ]] || lockdir=/tmp
exec 9>"$lockdir/edihub-deb-install-test.lock"
flock -w 600 9 || { echo "another deb_install_test held the lock for 10 minutes"; exit 1; }
# The package's state in dpkg's database: empty or not-installed when it is not there.
pkg_state() { dpkg-query -W -f='${db:Status-Status}' edihub 2>/dev/null; }
pkg_present() { [[ -n $(pkg_state) && $(pkg_state) != not-installed ]]; }
if pkg_present; then
  echo "SKIP: an edihub package is on this machine ($(pkg_state)): not replacing it (dpkg --purge edihub)"
  exit $SKIP
fi
if [[ -e /var/lib/edihub || -e /etc/edihub ]]; then
  echo "SKIP: /var/lib/edihub or /etc/edihub exists without the package: the purge would delete it"
  exit $SKIP
fi

user_existed=0
getent passwd edihub >/dev/null && user_existed=1
group_existed=0
getent group edihub >/dev/null && group_existed=1
server=""
cleanup() {
  if [[ -n $server ]]; then
    kill -TERM "$server" 2>/dev/null
    wait "$server" 2>/dev/null
  fi
  if pkg_present; then
    dpkg --purge edihub >"$WORK/cleanup-purge.out" 2>&1 || cat "$WORK/cleanup-purge.out"
  fi
  # The package leaves its system user (as Debian packages do); the test removes the one it made.
  if ((!user_existed)) && getent passwd edihub >/dev/null; then userdel edihub 2>/dev/null; fi
  if ((!group_existed)) && getent group edihub >/dev/null; then groupdel edihub 2>/dev/null; fi
  [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"
}
trap cleanup EXIT

# The package.
start=$SECONDS
cpack --config "$BUILD/CPackConfig.cmake" -B "$WORK/pkg" >"$WORK/cpack.out" 2>&1 ||
  { echo "cpack failed: $(cat "$WORK/cpack.out")"; exit 1; }
deb=$(ls "$WORK"/pkg/edihub_*.deb 2>/dev/null | head -1)
[[ -f $deb ]] || { echo "no .deb: $(cat "$WORK/cpack.out")"; exit 1; }
echo "package: $(basename "$deb"), $(($(stat -c %s "$deb") / 1024)) KiB, cpack $((SECONDS - start)) s"
echo "Depends: $(dpkg-deb -f "$deb" Depends)"
dpkg-deb -f "$deb" Depends | grep -q 'adduser' || fail "Depends has no adduser"
dpkg-deb -f "$deb" Depends | grep -q 'libssl3' || fail "Depends from dpkg-shlibdeps: no libssl3"
check_eq "conffiles" "$(cat "$REPO/tools/packaging/conffiles")" "$(dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./conffiles)"
dpkg-deb -c "$deb" | grep -q 'edihub\.key' && fail "a private key ships in the package: $(dpkg-deb -c "$deb" | grep '\.key')"
if command -v lintian >/dev/null; then
  lintian --fail-on error,warning "$deb" >"$WORK/lintian.out" 2>&1
  lint=$?
  grep -v '^running with root privileges' "$WORK/lintian.out" | sed 's/^/lintian: /'
  check_eq "lintian (errors and warnings)" 0 "$lint"
else
  echo "lintian is not installed (tools/setup installs it): the package is not linted"
fi

dpkg -i "$deb" >"$WORK/install.out" 2>&1 || { echo "dpkg -i failed: $(cat "$WORK/install.out")"; exit 1; }
check_eq "package state" "install ok installed" "$(dpkg-query -W -f='${Status}' edihub)"

# What it installed.
[[ -x /usr/bin/edihub ]] || fail "no /usr/bin/edihub"
/usr/bin/edihub --help >/dev/null 2>&1 || fail "/usr/bin/edihub --help failed"
uid=$(id -u edihub 2>/dev/null) || fail "no edihub user"
# A system user: uid in the system range of /etc/adduser.conf (Debian: 100-999), no login shell.
((uid > 0 && uid < 1000)) || fail "edihub uid $uid is not a system uid"
check_eq "edihub group" edihub "$(id -gn edihub)"
check_eq "edihub home" /var/lib/edihub "$(getent passwd edihub | cut -d: -f6)"
case $(getent passwd edihub | cut -d: -f7) in
  /usr/sbin/nologin | /sbin/nologin | /bin/false) ;;
  *) fail "edihub has a login shell: $(getent passwd edihub)" ;;
esac
mode() { stat -c '%U:%G %a' "$1" 2>/dev/null || echo "missing"; }
check_eq "/etc/edihub/edihub.xml" "root:root 644" "$(mode /etc/edihub/edihub.xml)"
check_eq "identity directory" "root:edihub 750" "$(mode /etc/edihub/identity)"
check_eq "identity certificate" "root:root 644" "$(mode /etc/edihub/identity/edihub.crt)"
check_eq "identity key" "root:edihub 640" "$(mode /etc/edihub/identity/edihub.key)"
fingerprint() { openssl x509 -in "$1" -outform DER 2>/dev/null | sha256sum | cut -d' ' -f1; }
first_identity=$(fingerprint /etc/edihub/identity/edihub.crt)
[[ -n $first_identity && $first_identity != "$(fingerprint "$REPO/partners/certs/edihub.crt")" ]] ||
  fail "the installed identity is the demo one (or none): $first_identity"
cmp -s /etc/edihub/identity/edihub.key "$REPO/partners/certs/edihub.key" && fail "the installed key is the demo key"
grep -q "new identity: /etc/edihub/identity/edihub.crt (sha256 $first_identity)" "$WORK/install.out" ||
  fail "postinst did not print the new identity's fingerprint: $(cat "$WORK/install.out")"
check_eq "no partner is loaded until enabled" "" "$(ls /etc/edihub/partners)"
[[ -f /usr/share/doc/edihub/examples/partners/acme.xml ]] || fail "no demo partner among the examples"
[[ -f /usr/share/doc/edihub/copyright && -f /usr/share/doc/edihub/changelog.gz ]] || fail "no copyright or changelog"
check_eq "/var/lib/edihub" "edihub:edihub 750" "$(mode /var/lib/edihub)"
dpkg-query --showformat='${Conffiles}\n' --show edihub | grep -q " /etc/edihub/edihub.xml " ||
  fail "/etc/edihub/edihub.xml is not a conffile"
# The demo partner, enabled as the README says: its profile and certificate copied in.
install -d -m 755 /etc/edihub/partners/certs
install -m 644 /usr/share/doc/edihub/examples/partners/acme.xml /etc/edihub/partners/
install -m 644 /usr/share/doc/edihub/examples/partners/certs/acme.crt /etc/edihub/partners/certs/
for unit in edihub.service edihub-purge.service edihub-purge.timer; do
  [[ -f /lib/systemd/system/$unit ]] || fail "no /lib/systemd/system/$unit"
done
if command -v deb-systemd-helper >/dev/null; then
  [[ -L /etc/systemd/system/multi-user.target.wants/edihub.service ]] || fail "edihub.service is not enabled"
  [[ -L /etc/systemd/system/timers.target.wants/edihub-purge.timer ]] || fail "edihub-purge.timer is not enabled"
fi
if command -v systemd-analyze >/dev/null; then
  systemd-analyze verify /lib/systemd/system/edihub.service /lib/systemd/system/edihub-purge.service \
    /lib/systemd/system/edihub-purge.timer >"$WORK/verify.out" 2>&1 ||
    fail "systemd-analyze verify: $(cat "$WORK/verify.out")"
  # It exits 0 on some warnings: none is expected either.
  [[ -s $WORK/verify.out ]] && fail "systemd-analyze verify warns: $(cat "$WORK/verify.out")"
else
  echo "systemd-analyze is not installed: units not verified (tools/setup installs systemd)"
fi
unit_value() { sed -n "s/^$2=//p" "/lib/systemd/system/$1" | tail -1; }
check_eq "service user" edihub "$(unit_value edihub.service User)"
check_eq "service ReadWritePaths" /var/lib/edihub "$(unit_value edihub.service ReadWritePaths)"
check_eq "service ProtectSystem" strict "$(unit_value edihub.service ProtectSystem)"

# The unit's ExecStart as the edihub user, in its WorkingDirectory, on the installed config,
# the partner port free (--port 0: printed on start). The metrics listener of the config
# (127.0.0.1:9108) may be taken (a running edihub.service, a developer's gateway): then a copy
# of the config with metrics on a free port (every path in it is absolute).
read -ra exec_start <<<"$(unit_value edihub.service ExecStart)"
check_eq "ExecStart" "/usr/bin/edihub serve --config /etc/edihub/edihub.xml" "${exec_start[*]}"
if (exec 3<>/dev/tcp/127.0.0.1/9108) 2>/dev/null; then
  echo "127.0.0.1:9108 is taken: serving a copy of /etc/edihub/edihub.xml with <metrics port=\"0\">"
  chmod 711 "$WORK"
  mkdir -m 755 "$WORK/etc"
  sed 's/<metrics address="127.0.0.1" port="9108"\/>/<metrics address="127.0.0.1" port="0"\/>/' \
    /etc/edihub/edihub.xml >"$WORK/etc/edihub.xml"
  chmod 644 "$WORK/etc/edihub.xml"
  exec_start=("${exec_start[@]/\/etc\/edihub\/edihub.xml/$WORK/etc/edihub.xml}")
fi
as_edihub() { (cd /var/lib/edihub && exec setpriv --reuid=edihub --regid=edihub --init-groups -- "$@"); }
# $! is the server itself: the subshell execs setpriv, which execs edihub.
(cd /var/lib/edihub && exec setpriv --reuid=edihub --regid=edihub --init-groups -- "${exec_start[@]}" --port 0) \
  >"$WORK/server.out" 2>&1 &
server=$!
port=""
for _ in $(seq 1 200); do  # the line it prints once it listens, 10 s at most
  port=$(sed -n 's/.*listening on http:\/\/127.0.0.1:\([0-9]*\)\/as2.*/\1/p' "$WORK/server.out")
  [[ -n $port ]] && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.05
done
[[ -n $port ]] || { echo "the installed server did not start: $(cat "$WORK/server.out")"; exit 1; }
mport=$(sed -n 's/.*metrics on http:\/\/127.0.0.1:\([0-9]*\)\/metrics.*/\1/p' "$WORK/server.out")
check_eq "server user" edihub "$(ps -o user= -p "$server" | tr -d ' ')"
check_eq "readyz" 200 "$(curl -s -o /dev/null -w '%{http_code}' --retry 20 --retry-delay 0 --retry-all-errors --max-time 5 \
  "http://127.0.0.1:$port/readyz")"

# One message as the demo partner sends it: signed with acme's key (from the repository, not
# installed), encrypted to the identity this installation made.
C=/etc/edihub/identity
entity="$WORK/m1.entity"
{ printf 'Content-Type: application/edi-x12\r\n\r\n'; cat "$REPO/samples/edi/x12-810-004010.edi"; } >"$entity"
openssl cms -sign -binary -md sha256 -signer "$REPO/partners/certs/acme.crt" -inkey "$REPO/partners/certs/acme.key" \
  -in "$entity" -out "$entity.s"
openssl cms -encrypt -binary -aes256 -in "$entity.s" -out "$WORK/m1.eml" "$C/edihub.crt"
ct=$(sed -n 's/^Content-Type: //p' "$WORK/m1.eml" | head -1 | tr -d '\r')
cte=$(sed -n 's/^Content-Transfer-Encoding: //p' "$WORK/m1.eml" | head -1 | tr -d '\r')
awk 'b{print} /^\r?$/{b=1}' "$WORK/m1.eml" >"$WORK/m1.body"
status=$(curl -s -D "$WORK/r1.headers" -o "$WORK/r1" -w '%{http_code}' --max-time 30 -X POST \
  --data-binary @"$WORK/m1.body" -H "Content-Type: $ct" ${cte:+-H "Content-Transfer-Encoding: $cte"} \
  -H "AS2-From: ACMESUPPLY" -H "AS2-To: EDIHUB" -H "Message-ID: <deb-install-1@acme.example>" -H "AS2-Version: 1.2" \
  -H "Disposition-Notification-Options: signed-receipt-protocol=optional, pkcs7-signature; signed-receipt-micalg=optional, sha-256" \
  "http://127.0.0.1:$port/as2")
check_eq "AS2 post" 200 "$status"
{ grep -i '^Content-Type:' "$WORK/r1.headers" | tr -d '\r'; printf '\n'; cat "$WORK/r1"; } >"$WORK/r1.eml"
report=$(openssl cms -verify -in "$WORK/r1.eml" -CAfile "$C/edihub.crt" -purpose any 2>/dev/null) ||
  fail "openssl cannot verify the MDN with the installed certificate: $(head -c 400 "$WORK/r1")"
grep -q '^Disposition: automatic-action/MDN-sent-automatically; processed' <<<"$report" ||
  fail "MDN disposition: $(grep -i disposition <<<"$report")"
mic=$(openssl dgst -sha256 -binary "$entity" | openssl base64 -A)
grep -q "^Received-Content-MIC: $mic, sha-256" <<<"$report" || fail "MDN MIC: $(grep MIC <<<"$report"), expected $mic"

# The store: made by the server in /var/lib/edihub, owned by edihub (read as edihub: root's
# sqlite3 would leave root-owned -wal/-shm files behind).
[[ -f /var/lib/edihub/edihub.db ]] || fail "no /var/lib/edihub/edihub.db"
check_eq "store owner" edihub:edihub "$(stat -c %U:%G /var/lib/edihub/edihub.db 2>/dev/null)"
check_eq "invoice booked" 1 "$(as_edihub sqlite3 -batch -noheader -cmd '.timeout 10000' /var/lib/edihub/edihub.db \
  "SELECT count(*) FROM invoices WHERE invoice_number = 'INV-88301'")"
if [[ -n $mport ]]; then
  curl -s --max-time 5 -o "$WORK/metrics" "http://127.0.0.1:$mport/metrics"
  grep -qxF 'edihub_messages_total{protocol="as2",partner="acme",outcome="processed"} 1' "$WORK/metrics" ||
    fail "metrics: $(grep '^edihub_messages_total' "$WORK/metrics")"
else
  fail "no metrics listener: $(cat "$WORK/server.out")"
fi

# The purge unit's command, as the edihub user, next to the running server.
read -ra purge_start <<<"$(unit_value edihub-purge.service ExecStart)"
as_edihub "${purge_start[@]}" >"$WORK/purge.out" 2>&1 || fail "purge unit's ExecStart: $(cat "$WORK/purge.out")"

kill -TERM "$server"
wait "$server"
check_eq "server exit status on SIGTERM" 0 "$?"
server=""

# An upgrade (the same package again): user, modes and data stay.
dpkg -i "$deb" >"$WORK/reinstall.out" 2>&1 || fail "second dpkg -i: $(cat "$WORK/reinstall.out")"
check_eq "uid after upgrade" "$uid" "$(id -u edihub)"
check_eq "identity key after upgrade" "root:edihub 640" "$(mode /etc/edihub/identity/edihub.key)"
check_eq "identity after upgrade: the same" "$first_identity" "$(fingerprint /etc/edihub/identity/edihub.crt)"
check_eq "store after upgrade" edihub:edihub "$(stat -c %U:%G /var/lib/edihub/edihub.db 2>/dev/null)"

# Purge: the configuration, the data and the unit state go.
dpkg --purge edihub >"$WORK/purge-pkg.out" 2>&1 || fail "dpkg --purge: $(cat "$WORK/purge-pkg.out")"
pkg_present && fail "still there after purge: $(pkg_state)"
for gone in /usr/bin/edihub /etc/edihub /var/lib/edihub /lib/systemd/system/edihub.service \
  /etc/systemd/system/multi-user.target.wants/edihub.service /etc/systemd/system/timers.target.wants/edihub-purge.timer; do
  [[ -e $gone || -L $gone ]] && fail "$gone is still there after purge"
done
# Another installation: another identity, never the same key twice.
dpkg -i "$deb" >"$WORK/install2.out" 2>&1 || fail "dpkg -i after purge: $(cat "$WORK/install2.out")"
second_identity=$(fingerprint /etc/edihub/identity/edihub.crt)
[[ -n $second_identity && $second_identity != "$first_identity" ]] ||
  fail "the second installation's identity is the first's: $second_identity"
echo "identities: $first_identity, then $second_identity"
dpkg --purge edihub >"$WORK/purge-pkg2.out" 2>&1 || fail "second dpkg --purge: $(cat "$WORK/purge-pkg2.out")"
[[ -e /etc/edihub ]] && fail "/etc/edihub is still there after the second purge"
echo "deb_install_test: $((SECONDS - start)) s"
finish
