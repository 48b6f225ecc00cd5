#!/bin/sh
# check-java-diff.sh STRATA: with a JDK present, runs tests/java/Growth.java,
# dumps its heap with jcmd before and after it keeps 300 more sessions and
# 150 cache entries, and checks `strata -r --diff` against the program and
# against `jcmd GC.class_histogram` taken with each dump: every class's
# change of instances and of bytes, the new instances found by object id
# (Epsilon GC moves nothing, so ids stay), and the gate's exit status.
set -u
strata=$1
here=$(cd "$(dirname "$0")" && pwd)
for tool in javac java jcmd python3; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "1..0 # SKIP no $tool (a JDK makes the dumps)"
    exit 0
  fi
done
work=$(mktemp -d)
pid=
trap 'exec 3>&- 2>/dev/null; [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT

wait_for () {
  for _ in $(seq 1 200); do
    grep -q "^ready $1" "$work/out.txt" 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

dump () {
  # The histogram right after the dump: nothing runs between them.
  jcmd "$pid" GC.heap_dump -all "$work/$1.hprof" >/dev/null &&
    jcmd "$pid" GC.class_histogram -all >"$work/$1.histogram"
}

javac -d "$work" "$here/java/Growth.java" || { echo "1..1"; echo "not ok 1 - javac failed"; exit 1; }
mkfifo "$work/in"
java -XX:+UnlockExperimentalVMOptions -XX:+UseEpsilonGC -Xmx256m -cp "$work" Growth 1000 300 <"$work/in" >"$work/out.txt" &
pid=$!
exec 3>"$work/in"
if ! wait_for 1 || ! dump before || ! { echo >&3; wait_for 2; } || ! dump after; then
  echo "1..1"; echo "not ok 1 - the dumps could not be made"; exit 1
fi
echo >&3

"$strata" -r --format=json --diff="$work/before.hprof" "$work/after.hprof" >"$work/diff.json" 2>"$work/err"
status=$?
"$strata" -r --diff="$work/before.hprof" --fail-if='instances>+299:Growth$Session' "$work/after.hprof" >/dev/null 2>&1
gate_broken=$?
"$strata" -r --diff="$work/before.hprof" --fail-if='instances>+300:Growth$Session' "$work/after.hprof" >/dev/null 2>&1
gate_kept=$?
PYTHONPATH="$here/java" python3 - "$work" "$status" "$gate_broken" "$gate_kept" <<'PY'
import json, sys
import jcmd_histogram
work, status, broken, kept = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
checks = [(status == 0, "strata -r --diff exits 0 (%d)" % status)]
diff = json.load(open(work + "/diff.json"))
rows = {c["name"]: c for c in diff["classes"]}

before, _ = jcmd_histogram.read(work + "/before.histogram")
after, _ = jcmd_histogram.read(work + "/after.histogram")
session, entry = rows.get("Growth$Session"), rows.get("Growth$CacheEntry")
checks.append((session is not None and session["instances"]["delta"] == 300, "Growth$Session: +300 instances (%s)" % (session and session["instances"])))
checks.append((entry is not None and entry["status"] == "added" and entry["instances"]["after"] == 150, "Growth$CacheEntry: added, 150 instances (%s)" % (entry and entry["instances"])))
checks.append((session is not None and session.get("new_instances") == 300, "Growth$Session: 300 new instances by id (%s)" % (session and session.get("new_instances"))))
checks.append((entry is not None and entry.get("new_instances") == 150, "Growth$CacheEntry: 150 new instances by id (%s)" % (entry and entry.get("new_instances"))))
# Every class jcmd counted in either histogram: the same change of
# instances and of bytes.
wrong = []
for name in sorted(set(before) | set(after)):
    jn = after.get(name, (0, 0))[0] - before.get(name, (0, 0))[0]
    jb = after.get(name, (0, 0))[1] - before.get(name, (0, 0))[1]
    row = rows.get(name)
    sn = row["instances"]["delta"] if row else 0
    sb = row["shallow"]["delta"] if row else 0
    if (sn, sb) != (jn, jb):
        wrong.append("%s: Strata %+d / %+d B, jcmd %+d / %+d B" % (name, sn, sb, jn, jb))
checks.append((not wrong, "every class's change of instances and bytes is jcmd's (%d classes)%s" % (len(set(before) | set(after)), "; " + "; ".join(wrong[:5]) if wrong else "")))
checks.append((broken == 3, "instances>+299:Growth$Session is broken: exit %d" % broken))
checks.append((kept == 0, "instances>+300:Growth$Session is kept: exit %d" % kept))
print("1..%d" % len(checks))
for i, (ok, text) in enumerate(checks, 1):
    print("%s %d - %s" % ("ok" if ok else "not ok", i, text))
sys.exit(0 if all(ok for ok, _ in checks) else 1)
PY
