#!/usr/bin/env bash
# No file is written through a link: `archive export`, the directory channel
# (acknowledgments and documents) and `replay --mdn-out` refuse a name that is
# a symbolic link or not a regular file, with the path named, and the file
# the link points to is untouched.
source "$(dirname "$0")/lib.sh"
db="$WORK/edihub.db"
echo "precious" >"$WORK/victim"
gateway_config "$WORK/edihub.xml"
# A capture in the store: an AS2 sample replayed is archived like a received request.
"$EDIHUB" replay --db "sqlite:$db" --config "$WORK/edihub.xml" "$REPO/samples/as2/810-signed-encrypted.as2" >/dev/null 2>&1
id=$(sql "$db" "SELECT id FROM captures LIMIT 1")
[[ -n $id ]] || fail "no capture to export"

# archive export: a link at the target name, then a directory, then a regular file.
mkdir -p "$WORK/out"
ln -s "$WORK/victim" "$WORK/out/capture-$id.as2"
"$EDIHUB" archive export --db "sqlite:$db" --out "$WORK/out" "$id" >/dev/null 2>"$WORK/err"
check_eq "export over a link: exit" 1 $?
check_eq "export over a link: message" \
  "edihub archive: $WORK/out/capture-$id.as2 is a symbolic link: refused (edihub never writes through a link or over a non-regular file)" \
  "$(cat "$WORK/err")"
check_eq "the link's target untouched" precious "$(cat "$WORK/victim")"
check_eq "no temporary file left" 0 "$(ls -A "$WORK/out" | grep -c '^\.tmp')"
rm "$WORK/out/capture-$id.as2"
mkdir "$WORK/out/capture-$id.as2"
"$EDIHUB" archive export --db "sqlite:$db" --out "$WORK/out" "$id" >/dev/null 2>"$WORK/err"
check_eq "export over a directory: exit" 1 $?
grep -q "capture-$id.as2 is a directory: refused" "$WORK/err" || fail "directory: $(cat "$WORK/err")"
rmdir "$WORK/out/capture-$id.as2"
echo old >"$WORK/out/capture-$id.as2"
check_eq "export over a regular file: replaced" "$WORK/out/capture-$id.as2" \
  "$("$EDIHUB" archive export --db "sqlite:$db" --out "$WORK/out" "$id")"
check_eq "the export is the capture" "EDIHUB-CAPTURE partner=acme" "$(head -1 "$WORK/out/capture-$id.as2" | tr -d '\r')"

# The directory channel: an acknowledgment whose file name is taken by a link.
mkdir -p "$WORK/p" "$WORK/acks"
cp -r "$REPO/partners/certs" "$WORK/p/"
sed "s|</partner>|<acknowledgments via=\"dir\" dir=\"$WORK/acks\"/></partner>|" "$REPO/partners/acme.xml" >"$WORK/p/acme.xml"
sed -i "s|<partners dir=\"[^\"]*\"/>|<partners dir=\"$WORK/p\"/>|" "$WORK/edihub.xml"
"$EDIHUB" replay --config "$WORK/edihub.xml" "$REPO/samples/edi/x12-810-005010.edi" >/dev/null 2>&1
name=$(sql "$db" "SELECT message_id FROM outbox WHERE kind = '999'" | sed 's/[^A-Za-z0-9._-]/_/g').999
ln -s "$WORK/victim" "$WORK/acks/$name"
"$EDIHUB" outbox run --config "$WORK/edihub.xml" >"$WORK/run.out" 2>&1
check_eq "outbox run over a link: exit" 1 $?
check_eq "the row failed, with the link named" "failed|$WORK/acks/$name is a symbolic link: refused (edihub never writes through a link or over a non-regular file)" \
  "$(sql "$db" "SELECT state || '|' || last_error FROM outbox WHERE kind = '999'")"
check_eq "the link's target untouched" precious "$(cat "$WORK/victim")"
rm "$WORK/acks/$name"
"$EDIHUB" outbox retry --db "sqlite:$db" "$(sql "$db" "SELECT id FROM outbox WHERE kind = '999'")" >/dev/null
"$EDIHUB" outbox run --config "$WORK/edihub.xml" >/dev/null 2>&1
check_eq "once the link is gone: delivered" delivered "$(sql "$db" "SELECT state FROM outbox WHERE kind = '999'")"
[[ -f "$WORK/acks/$name" && ! -L "$WORK/acks/$name" ]] || fail "the 999 file: $(ls -l "$WORK/acks")"

# replay --mdn-out: the answer's file name taken by a link.
mkdir -p "$WORK/mdn"
ln -s "$WORK/victim" "$WORK/mdn/810-signed-encrypted.as2.mdn"
"$EDIHUB" replay --config "$WORK/edihub.xml" --mdn-out "$WORK/mdn" "$REPO/samples/as2/810-signed-encrypted.as2" >/dev/null 2>"$WORK/err"
grep -q "the MDN of .*810-signed-encrypted.as2: $WORK/mdn/810-signed-encrypted.as2.mdn is a symbolic link: refused" "$WORK/err" ||
  fail "replay --mdn-out over a link: $(cat "$WORK/err")"
check_eq "the link's target untouched" precious "$(cat "$WORK/victim")"
finish
