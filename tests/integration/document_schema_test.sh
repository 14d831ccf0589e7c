#!/usr/bin/env bash
# The canonical document (schema/document/): `edihub inspect --json
# --documents` over every sample and every corpus file that parses, each
# message's document checked against v1.schema.json by an independent
# validator (python3-jsonschema); the examples in schema/document/examples are
# what the binary prints today; and a document is refused by the schema when
# it is not one (so the check can fail). EDIFACT's association code is a
# field of its own (`association`), not part of `version`.
source "$(dirname "$0")/lib.sh"
trap '[[ -n "${KEEP:-}" ]] || rm -rf "$WORK"' EXIT
schema="$REPO/schema/document/v1.schema.json"
files=()
for f in "$REPO"/samples/edi/*.edi "$REPO"/tests/corpus/staedi/*.edi; do
  [[ $(basename "$f") == broken-* ]] && continue
  files+=("$f")
done
"$EDIHUB" inspect --json --documents "${files[@]}" >"$WORK/all.json"
out=$(python3 - "$schema" "$WORK/all.json" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
count = checked = 0
for line in open(sys.argv[2]):
    f = json.loads(line)
    for ic in f["interchanges"]:
        for g in ic["groups"]:
            for m in g["messages"]:
                doc = m.get("document")
                if doc is None:
                    print("FAIL: %s %s has no document" % (f["file"], m["control_number"]))
                    continue
                for e in validator.iter_errors(doc):
                    print("FAIL: %s %s: %s at %s" % (f["file"], m["control_number"], e.message, list(e.path)))
                count += 1
                checked += doc["checked"]
print("documents %d checked %d" % (count, checked))
bad = {"schema": "edihub-document/1", "standard": "x12"}
print("refused" if list(validator.iter_errors(bad)) else "FAIL: an incomplete document passed the schema")
PY
)
grep '^FAIL' <<<"$out" | while read -r line; do echo "$line"; done
grep -q '^FAIL' <<<"$out" && failures=$((failures + 1))
grep -q '^refused$' <<<"$out" || fail "the schema check did not run: $out"
count=$(sed -n 's/^documents \([0-9]*\) checked.*/\1/p' <<<"$out")
((count >= 20)) || fail "only ${count:-0} documents written"
for example in "$REPO"/schema/document/examples/*.json; do
  name=$(basename "$example" .json)
  "$EDIHUB" inspect --json --documents "$REPO/samples/edi/$name.edi" |
    python3 -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps(d["interchanges"][0]["groups"][0]["messages"][0]["document"], indent=2))' \
      >"$WORK/$name.json"
  cmp -s "$example" "$WORK/$name.json" || fail "schema/document/examples/$name.json is not what inspect prints: $(diff "$example" "$WORK/$name.json" | head -5)"
done
# EDIFACT's version is S009's version, release and agency; the association
# code (0057) has a field of its own, and a version that carries it is refused.
"$EDIHUB" inspect --json --documents "$REPO/samples/edi/edifact-desadv-d96a-una.edi" >"$WORK/desadv.json"
check_eq "DESADV: version and association" "D:96A:UN EAN005" "$(python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))["interchanges"][0]["groups"][0]["messages"][0]["document"]
print(d["version"], d.get("association"))' "$WORK/desadv.json")"
check_eq "the schema refuses an EDIFACT version with the association code in it" refused "$(python3 - "$schema" "$WORK/desadv.json" <<'PY'
import json, sys, jsonschema
validator = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
doc = json.load(open(sys.argv[2]))["interchanges"][0]["groups"][0]["messages"][0]["document"]
doc["version"] += ":" + doc.pop("association")
print("refused" if list(validator.iter_errors(doc)) else "accepted")
PY
)"
check_eq "--documents without --json" 2 "$("$EDIHUB" inspect --documents "$REPO/samples/edi/x12-850-004010.edi" >/dev/null 2>&1; echo $?)"
finish
