#!/usr/bin/env bash
# The real `edihub` binary: exit codes 0 (clean), 1 (envelope errors), 2 (usage).
set -u
edihub=$1
fail=0
expect() {
  local want=$1
  shift
  "$edihub" "$@" >/dev/null 2>&1
  local got=$?
  if [[ $got != "$want" ]]; then
    echo "FAIL: edihub $* exited $got, expected $want"
    fail=1
  fi
}
expect 0 inspect samples/edi/x12-856-004010.edi samples/edi/edifact-invoic-d96a.edi
expect 0 inspect --json samples/edi/two-interchanges.edi
expect 1 inspect samples/edi/broken-x12-truncated.edi
expect 1 inspect --json samples/edi/x12-856-004010.edi samples/edi/broken-edifact-unz-ref.edi
expect 2 inspect
expect 2 inspect --bogus samples/edi/x12-856-004010.edi
expect 2 nosuchcommand
expect 0 --help
expect 0 inspect --help
# JSON: one document per file, one line each.
lines=$("$edihub" inspect --json samples/edi/x12-856-004010.edi samples/edi/edifact-invoic-d96a.edi | wc -l)
if [[ $lines != 2 ]]; then
  echo "FAIL: expected 2 JSON lines, got $lines"
  fail=1
fi
# --validate: the sample 810 passes its definition; one with a bad date and
# an unknown segment fails with the codes a 997 would carry.
expect 0 inspect --validate samples/edi/x12-810-004010.edi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed -e 's/^DTM\*011\*20240312~/DTM*011*20240230~/' -e 's/^TDS\*88308~/TDS*88308~\nZZZ*1~/' \
  -e 's/^SE\*23\*0001~/SE*24*0001~/' samples/edi/x12-810-004010.edi >"$work/bad.edi"
expect 1 inspect --validate "$work/bad.edi"
expect 0 inspect "$work/bad.edi"
got=$("$edihub" inspect --validate "$work/bad.edi" | sed "s|$work/||")
want="bad.edi: x12 interchange 000000201 from ZZ:ACMESUPPLY to ZZ:EDIHUB, version 00401, 1 message
  810 0001 (004010), 24 segments, group 201
    DTM at segment 14: segment has data element errors (code 8)
      DTM02 (373) '20240230': invalid date (code 8)
    ZZZ at segment 22: unrecognized segment ID (code 1)"
if [[ $got != "$want" ]]; then
  echo "FAIL: inspect --validate printed:"
  echo "$got"
  fail=1
fi
json=$("$edihub" inspect --validate --json "$work/bad.edi")
if [[ $json != *'"validation":{"checked":true,"errors":[{"segment":"DTM","position":14,"loop":"","code":"8","text":"segment has data element errors","elements":[{"position":2,"component":0,"reference":"373","code":"8","text":"invalid date","value":"20240230"}]}'* ]]; then
  echo "FAIL: inspect --validate --json printed: $json"
  fail=1
fi
# --guide: a partner's guide over the shipped definitions; --definitions: other files.
printf 'guide x12 004010 810 "Acme 810"\nsegment CUR M\n' >"$work/acme-810.def"
expect 1 inspect --validate --guide "$work/acme-810.def" samples/edi/x12-810-004010.edi
got=$("$edihub" inspect --validate --guide "$work/acme-810.def" samples/edi/x12-810-004010.edi | tail -n 1)
if [[ $got != "    CUR at segment 3: mandatory segment missing (code 3)" ]]; then
  echo "FAIL: inspect --guide printed: $got"
  fail=1
fi
printf 'guide x12 004010 810\nsegment BIG O\n' >"$work/wide.def"
expect 2 inspect --validate --guide "$work/wide.def" samples/edi/x12-810-004010.edi
got=$("$edihub" inspect --validate --guide "$work/wide.def" samples/edi/x12-810-004010.edi 2>&1 | sed "s|$work/||")
if [[ $got != "edihub inspect: --guide wide.def:2: segment BIG is mandatory in the standard: a guide cannot make it optional" ]]; then
  echo "FAIL: a widening guide printed: $got"
  fail=1
fi
expect 2 inspect --guide "$work/acme-810.def" samples/edi/x12-810-004010.edi
mkdir -p "$work/defs"
cp -r schema/definitions/x12 "$work/defs/"
expect 0 inspect --validate --definitions "$work/defs" samples/edi/x12-810-004010.edi
printf 'standard x12 004010\nsegment BIG open\n' >"$work/defs/x12/004010/twice.def"
got=$("$edihub" inspect --validate --definitions "$work/defs" samples/edi/x12-810-004010.edi 2>&1)
if [[ $got != "edihub inspect: --definitions x12/004010/twice.def:2: segment BIG is defined twice" ]]; then
  echo "FAIL: a broken --definitions printed: $got"
  fail=1
fi
expect 2 inspect --validate --definitions "$work/nowhere" samples/edi/x12-810-004010.edi
exit $fail
