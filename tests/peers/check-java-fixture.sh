#!/bin/sh
# check-java-fixture.sh STRATA: with a JDK present, builds and runs
# tests/java/Allocations.java, dumps its heap with jcmd, and checks that
# Strata's class histogram has exactly the instances the program printed,
# the instances and bytes `jcmd GC.class_histogram` gives for every class
# and in total, and that the list of them is what retains the most.
set -u
strata=$1
here=$(cd "$(dirname "$0")" && pwd)
for tool in javac java jcmd python3; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "1..0 # SKIP no $tool (a JDK builds the fixture)"
    exit 0
  fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ALLOCATIONS_ARGS=padded sh "$here/java/make-fixture.sh" "$work/dump.hprof.gz" "$work/expected" "$work/histogram" || { echo "1..1"; echo "not ok 1 - the fixture could not be made"; exit 1; }
"$strata" -r --format=json "$work/dump.hprof.gz" >"$work/report.json" || { echo "1..1"; echo "not ok 1 - strata -r failed"; exit 1; }
PYTHONPATH="$here/java" python3 - "$work/report.json" "$work/expected" "$work/histogram" <<'PY'
import json, sys
import jcmd_histogram
report = json.load(open(sys.argv[1]))
classes = {}
for c in report["classes"]:
    classes[c["name"]] = classes.get(c["name"], 0) + c["instances"]
lines = [l.split() for l in open(sys.argv[2]) if l.strip()]
checks = []
for words in lines:
    name, count = words[0], int(words[1])
    checks.append((classes.get(name) == count, "%s: Strata has %s, the program made %d" % (name, classes.get(name), count)))
# jcmd's histogram of the same heap, taken right after the dump.
strata = {}
for c in report["classes"]:
    old = strata.get(c["name"], (0, 0))
    strata[c["name"]] = (old[0] + c["instances"], old[1] + c["shallow_bytes"])
jcmd, total = jcmd_histogram.read(sys.argv[3])
# JDK 17's dumper also writes the int[] fillers HotSpot leaves in the free
# ends of its allocation buffers; nothing refers to them and jcmd does not
# count them. Every other class and the rest of the total must be equal.
unreachable = report["unreachable"]["objects"]
differ = [(n, v, strata.get(n)) for n, v in jcmd.items() if strata.get(n) != v]
fillers = (0, 0)
if differ and differ[0][0] == "int[]" and differ[0][2] and differ[0][2][0] > differ[0][1][0]:
    fillers = (differ[0][2][0] - differ[0][1][0], differ[0][2][1] - differ[0][1][1])
    differ = differ[1:]
checks.append((len(jcmd) > 100 and not differ and fillers[0] <= unreachable,
               "%d classes as jcmd sizes them, but for %d unreachable int[] fillers (%d B); differing: %s" % (len(jcmd), fillers[0], fillers[1], differ[:5])))
ours = (sum(v[0] for v in strata.values()), sum(v[1] for v in strata.values()))
live = (ours[0] - fillers[0], ours[1] - fillers[1])
checks.append((live == total, "histogram total %s objects, %s bytes, %s without the fillers; jcmd %s" % (ours + (live, total))))
# The list of Smalls retains the most; its path starts at main's frame.
top = report["dominators"][0]
checks.append((top["class"] == "java.util.ArrayList" and top["path"][0]["root"] == "java-frame",
               "the largest retained object is main's ArrayList: %s from %s" % (top["class"], top["path"][0])))
# The first leak suspect is that list, its memory in its array of Smalls.
first = (report["leak_suspects"]["suspects"] or [{}])[0]
checks.append((first.get("object", {}).get("class") == "java.util.ArrayList" and
               first["accumulation_point"]["class"] == "java.lang.Object[]" and
               first.get("content", {}).get("class") == "Allocations$Small",
               "the first leak suspect is that ArrayList, accumulating in an Object[] of Smalls: %s" % first.get("description")))
print("1..%d" % len(checks))
for n, (ok, text) in enumerate(checks, 1):
    print("%s %d - %s" % ("ok" if ok else "not ok", n, text))
sys.exit(0 if all(ok for ok, _ in checks) else 1)
PY
