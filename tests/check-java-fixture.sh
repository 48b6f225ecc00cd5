#!/bin/sh
# check-java-fixture.sh STRATA: with a JDK present, builds and runs
# tests/java/Allocations.java, dumps its heap with jcmd, and checks that
# Strata's class histogram has exactly the instances the program printed,
# and that the list of them is what retains the most.
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
sh "$here/java/make-fixture.sh" "$work/dump.hprof.gz" "$work/expected" || { echo "1..1"; echo "not ok 1 - the fixture could not be made"; exit 1; }
"$strata" -r --format=json "$work/dump.hprof.gz" >"$work/report.json" || { echo "1..1"; echo "not ok 1 - strata -r failed"; exit 1; }
python3 - "$work/report.json" "$work/expected" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
classes = {}
for c in report["classes"]:
    classes[c["name"]] = classes.get(c["name"], 0) + c["instances"]
lines = [l.split() for l in open(sys.argv[2]) if l.strip()]
checks = []
for words in lines:
    name, count = words[0], int(words[1])
    checks.append((classes.get(name) == count, "%s: Strata has %s, the program made %d" % (name, classes.get(name), count)))
# The list of Smalls retains the most; its path starts at main's frame.
top = report["dominators"][0]
checks.append((top["class"] == "java.util.ArrayList" and top["path"][0]["root"] == "java-frame",
               "the largest retained object is main's ArrayList: %s from %s" % (top["class"], top["path"][0])))
suspects = [o["class"] for o in report["leak_suspects"]["objects"]]
checks.append(("java.util.ArrayList" in suspects, "a leak suspect is that ArrayList: %s" % suspects))
print("1..%d" % len(checks))
for n, (ok, text) in enumerate(checks, 1):
    print("%s %d - %s" % ("ok" if ok else "not ok", n, text))
sys.exit(0 if all(ok for ok, _ in checks) else 1)
PY
