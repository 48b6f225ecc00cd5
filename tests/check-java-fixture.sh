#!/bin/sh
# check-java-fixture.sh STRATA: with a JDK present, builds and runs
# tests/java/Allocations.java, dumps its heap with jcmd, and checks that
# Strata's class histogram has exactly the instances the program printed.
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
classes = {}
for c in json.load(open(sys.argv[1]))["classes"]:
    classes[c["name"]] = classes.get(c["name"], 0) + c["instances"]
lines = [l.split() for l in open(sys.argv[2]) if l.strip()]
print("1..%d" % len(lines))
failed = 0
for n, words in enumerate(lines, 1):
    name, count = words[0], int(words[1])
    if classes.get(name) == count:
        print("ok %d - %s: %d" % (n, name, count))
    else:
        failed = 1
        print("not ok %d - %s: Strata has %s, the program made %d" % (n, name, classes.get(name), count))
sys.exit(failed)
PY
