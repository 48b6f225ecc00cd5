#!/bin/sh
# check-leak-suspects.sh STRATA: with a JDK present, runs
# tests/peers/java/Leaks.java (a static cache map, a listener list and a
# thread's ThreadLocal context that are never released), dumps its heap
# with jcmd and checks Strata's leak suspects: each leak is one, named by
# the static field or thread that holds it, followed down to where its
# memory accumulates with the program's count of entries; no JDK type
# (a class loader, java.lang.Class) is a suspect on its own; and, where
# VisualVM's heap library is installed, each suspect retains the bytes
# VisualVM computes for it.
set -u
strata=$1
here=$(cd "$(dirname "$0")" && pwd)
for tool in javac java jcmd python3; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "1..0 # SKIP no $tool (a JDK makes the dump)"
    exit 0
  fi
done
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
pid=
javac -d "$work" "$here/java/Leaks.java" || { echo "1..1"; echo "not ok 1 - Leaks.java does not build"; exit 1; }
java -XX:+UseSerialGC -Xmx64m -cp "$work" Leaks >"$work/out.txt" &
pid=$!
for _ in $(seq 1 100); do
  grep -q '^ready' "$work/out.txt" 2>/dev/null && break
  sleep 0.1
done
mkdir "$work/dump"
jcmd "$pid" GC.heap_dump "$work/dump/leaks.hprof" >/dev/null || { echo "1..1"; echo "not ok 1 - jcmd could not dump"; exit 1; }
kill "$pid"
"$strata" -r --format=json --top 0 "$work/dump/leaks.hprof" >"$work/report.json" || { echo "1..1"; echo "not ok 1 - strata -r failed"; exit 1; }
"$strata" -r --top 0 "$work/dump/leaks.hprof" >"$work/report.txt" || { echo "1..1"; echo "not ok 1 - strata -r failed"; exit 1; }
jar=/usr/share/visualvm/visualvm/modules/org-graalvm-visualvm-lib-jfluid-heap.jar
: >"$work/visualvm.txt"
if [ -f "$jar" ]; then
  classpath=$jar:$(ls /usr/share/visualvm/platform/lib/org-openide-util*.jar | tr '\n' ':')
  # VisualVM writes its cache beside the dump: it reads a copy.
  mkdir "$work/copy" && cp "$work/dump/leaks.hprof" "$work/copy/"
  javac -cp "$classpath" -d "$work" "$here/java/VisualVmHeap.java" 2>/dev/null &&
    java -cp "$work:$classpath" VisualVmHeap "$work/copy/leaks.hprof" 40 >"$work/visualvm.txt" 2>/dev/null
fi
python3 - "$work/report.json" "$work/out.txt" "$work/visualvm.txt" "$work/report.txt" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
made = dict(l.split() for l in open(sys.argv[2]) if len(l.split()) == 2)
visualvm = {}
for line in open(sys.argv[3]):
    f = line.rstrip("\n").split("\t")
    if f[0] == "object":
        visualvm[int(f[1])] = int(f[4])
text = open(sys.argv[4]).read()
suspects = report["leak_suspects"]["suspects"]
checks = []

def find(held_by):
    return next((s for s in suspects if s.get("held_by") == held_by), None)

for rank, held_by, klass, point, content, count in (
        (0, "static field Leaks$OrderCache.CACHE", "java.util.HashMap", "java.util.HashMap$Node[]", "Leaks$Order", int(made["orders"])),
        (None, "static field Leaks$EventBus.LISTENERS", "java.util.ArrayList", "java.lang.Object[]", "Leaks$Listener", int(made["listeners"])),
        (None, "thread “request-worker”", "Leaks$Context", "byte[]", None, None)):
    s = find(held_by)
    ok = (s is not None and s["object"]["class"] == klass and s["accumulation_point"]["class"] == point and
          (content is None or s.get("content") == {"class": content, "count": count}) and
          (rank is None or suspects.index(s) == rank))
    checks.append((ok, "%s: a %s accumulating in a %s with %s %s: %s" % (held_by, klass, point, count, content, s and s["description"])))
    if s is not None and visualvm:
        vv = visualvm.get(s["object"]["id"])
        checks.append((vv == s["retained_bytes"], "%s retains %d bytes, VisualVM %s" % (held_by, s["retained_bytes"], vv)))
    checks.append((s is not None and s["description"] in text, "the text report says it as the JSON does"))
generic = [s["description"] for s in suspects if s["kind"] == "group" and s["group_class"].startswith(("java.", "jdk."))]
generic += [s["description"] for s in suspects if s["kind"] == "object" and s["object"]["class"] in
            ("java.lang.Class", "jdk.internal.loader.ClassLoaders$AppClassLoader") and "static fields" not in s["description"]]
checks.append((not generic and len(suspects) == 3, "the three leaks and nothing else: %s" % [s["description"] for s in suspects]))
print("1..%d" % len(checks))
for n, (ok, text) in enumerate(checks, 1):
    print("%s %d - %s" % ("ok" if ok else "not ok", n, text))
sys.exit(0 if all(ok for ok, _ in checks) else 1)
PY
