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
exit $fail
