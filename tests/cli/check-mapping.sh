#!/bin/sh
# check-mapping.sh STRATA: deobfuscation with a ProGuard/R8 mapping.txt.
# The bundled sample trace is obfuscated as R8 would (obfuscate-dmtrace.py:
# overloads sharing a name, class references in signatures, inlined
# entries, JSON comments, two lines no mapping has); `strata -r
# --mapping` must give back the sample's own report, line for line, and
# say what it skipped. A heap dump's classes (and their arrays) take the
# names a mapping gives them.
set -u
strata=$1
here=$(cd "$(dirname "$0")" && pwd)
sample=$here/../../data/samples/android-app-startup.trace
dump=$here/../data/allocations.hprof.gz
if ! command -v python3 >/dev/null 2>&1; then
  echo "1..0 # SKIP no python3 (the obfuscator is a Python script)"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0
ok () { n=$((n + 1)); echo "ok $n - $1"; }
not_ok () { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }

python3 "$here/obfuscate-dmtrace.py" "$sample" "$tmp/obf.trace" "$tmp/mapping.txt" || { echo "1..1"; echo "not ok 1 - obfuscating failed"; exit 1; }
"$strata" -r "$sample" | grep -v '^File:' >"$tmp/original.txt"
"$strata" -r "$tmp/obf.trace" | grep -v '^File:' >"$tmp/obfuscated.txt"
"$strata" -r --mapping="$tmp/mapping.txt" "$tmp/obf.trace" 2>"$tmp/err" | grep -v '^File:\|^Mapping:' >"$tmp/mapped.txt"

if grep -q 'YYTaskExecutor' "$tmp/original.txt" && ! grep -q 'YYTaskExecutor' "$tmp/obfuscated.txt"; then
  ok "the obfuscated trace has lost the app's names"
else
  not_ok "obfuscation did not rename the app's classes"
fi
if cmp -s "$tmp/original.txt" "$tmp/mapped.txt"; then
  ok "with the mapping, the report is the sample's own, line for line ($(wc -l <"$tmp/mapped.txt") lines)"
else
  not_ok "the mapped report differs: $(diff "$tmp/original.txt" "$tmp/mapped.txt" | head -5)"
fi
if grep -q '2 lines of the mapping could not be read, the first line 4' "$tmp/err"; then
  ok "the two lines no mapping has are reported: $(cat "$tmp/err")"
else
  not_ok "bad lines not reported: $(cat "$tmp/err")"
fi
# JSON: every method's structured names are the sample's own, the
# file's are kept under "obfuscated", and the header names the mapping.
"$strata" -r --format=json --mapping="$tmp/mapping.txt" "$tmp/obf.trace" >"$tmp/mapped.json" 2>/dev/null
"$strata" -r --format=json "$sample" >"$tmp/original.json"
if python3 - "$tmp/mapped.json" "$tmp/original.json" <<'PY'
import json, sys
mapped, original = (json.load(open(p)) for p in sys.argv[1:3])
assert mapped["mapping"]["file"].endswith("mapping.txt") and mapped["mapping"]["warning"] is None, mapped["mapping"]
assert mapped["mapping"]["methods_renamed"] == 457, mapped["mapping"]
renamed = 0
for ours, theirs in zip(mapped["methods"], original["methods"], strict=True):
    for key in ("name", "class", "method", "signature"):
        assert ours[key] == theirs[key], (key, ours, theirs)
    if "obfuscated" in ours:
        renamed += 1
        assert ours["obfuscated"]["class"] != ours["class"] or ours["obfuscated"]["method"] != ours["method"], ours
assert renamed == 457, renamed
print(f"# {len(mapped['methods'])} methods, {renamed} renamed")
PY
then
  ok "JSON with the mapping: class, method and signature of all 2507 methods are the sample's, the file's kept"
else
  not_ok "JSON with the mapping differs from the sample's"
fi

# Another build's mapping: the same class names, other method names. It
# is applied with a warning, and refused with --strict-mapping.
sed -E 's/^(    [^#].* -> )([a-z]+)$/\1\2x/' "$tmp/mapping.txt" >"$tmp/other.txt"
"$strata" -r --mapping="$tmp/other.txt" "$tmp/obf.trace" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q "fits this file poorly" "$tmp/err" && grep -q "Warning: The mapping fits this file poorly" "$tmp/out"; then
  ok "another build's mapping warns, on standard error and in the report"
else
  not_ok "another build's mapping: $(cat "$tmp/err")"
fi
"$strata" --export="$tmp/other.svg" --mapping="$tmp/other.txt" "$tmp/obf.trace" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q "fits this file poorly" "$tmp/err"; then
  ok "an export with another build's mapping warns as a report does"
else
  not_ok "export with another build's mapping: $(cat "$tmp/err")"
fi
"$strata" -r --strict-mapping --mapping="$tmp/other.txt" "$tmp/obf.trace" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 1 ] && [ ! -s "$tmp/out" ]; then ok "--strict-mapping refuses it (exit 1)"; else not_ok "--strict-mapping: $(cat "$tmp/err")"; fi

"$strata" -r --format=folded --mapping="$tmp/mapping.txt" "$tmp/obf.trace" >"$tmp/mapped.folded" 2>/dev/null
"$strata" -r --format=folded "$sample" >"$tmp/original.folded"
if cmp -s "$tmp/original.folded" "$tmp/mapped.folded"; then
  ok "collapsed stacks with the mapping equal the sample's"
else
  not_ok "collapsed stacks differ"
fi

# A release build against the unobfuscated sample: each side by its own
# names, so every method matches and nothing changed.
"$strata" -r --format=json --diff="$sample" --mapping="$tmp/mapping.txt" "$tmp/obf.trace" >"$tmp/diff.json" 2>/dev/null
if grep -q '"name":"com.yy.base.taskexecutor.YYTaskExecutor\$1.run ()V","status":"both"' "$tmp/diff.json" &&
   ! grep -q '"status":"added"' "$tmp/diff.json"; then
  ok "--diff with --mapping compares the release build by its original names"
else
  not_ok "--diff --mapping: $(head -c 300 "$tmp/diff.json")"
fi
# Two runs of one release build: the same mapping for both sides.
"$strata" -r --diff="$tmp/obf.trace" --baseline-mapping="$tmp/mapping.txt" --mapping="$tmp/mapping.txt" \
  --fail-if='incl>+0%' "$tmp/obf.trace" >"$tmp/same.txt" 2>/dev/null
if [ $? -eq 0 ] && grep -q "no differences" "$tmp/same.txt"; then
  ok "--baseline-mapping names the baseline: a build against itself has no differences"
else
  not_ok "--baseline-mapping: $(head -5 "$tmp/same.txt")"
fi

printf 'com.example.Original -> Allocations$Small:\n    int size -> a\n' >"$tmp/heap-mapping.txt"
"$strata" -r --format=json --mapping="$tmp/heap-mapping.txt" "$dump" >"$tmp/heap.json" 2>"$tmp/err"
if python3 - "$tmp/heap.json" <<'PY'
import json, sys
names = [c["name"] for c in json.load(open(sys.argv[1]))["classes"]]
assert "com.example.Original" in names and "Allocations$Small" not in names, names[:5]
assert "Allocations$Big" in names
PY
then ok "a heap dump's class takes its mapped name"; else not_ok "heap class names: $(cat "$tmp/err")"; fi

printf 'not a mapping at all\nstill not\n' >"$tmp/junk.txt"
"$strata" -r --mapping="$tmp/junk.txt" "$tmp/obf.trace" >/dev/null 2>"$tmp/err"
if [ $? -eq 1 ] && grep -q "not a ProGuard or R8 mapping" "$tmp/err"; then ok "junk is refused: $(cat "$tmp/err")"; else not_ok "junk: $(cat "$tmp/err")"; fi
printf 'com.other.Thing -> z.z:\n    void run() -> a\n' >"$tmp/other.txt"
"$strata" -r --mapping="$tmp/other.txt" "$tmp/obf.trace" >/dev/null 2>"$tmp/err"
if [ $? -eq 1 ] && grep -q "another build" "$tmp/err"; then ok "another build's mapping is refused: $(cat "$tmp/err")"; else not_ok "other mapping: $(cat "$tmp/err")"; fi

echo "1..$n"
exit $failed
