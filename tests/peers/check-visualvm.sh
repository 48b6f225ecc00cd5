#!/bin/sh
# check-visualvm.sh STRATA: compares Strata's heap figures with VisualVM's
# heap library on a JDK 17 dump of tests/java/Allocations.java: instances
# of every class, shallow bytes where both follow the dump's fields (jcmd
# and Strata also count what HotSpot injects, and class mirrors), retained
# bytes of the program's classes and of the objects that retain the most.
# Skipped without a JDK or the visualvm package.
set -u
strata=$1
here=$(cd "$(dirname "$0")" && pwd)
jar=/usr/share/visualvm/visualvm/modules/org-graalvm-visualvm-lib-jfluid-heap.jar
for tool in javac java jcmd python3 gzip; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "1..0 # SKIP no $tool (a JDK makes the dump)"
    exit 0
  fi
done
if [ ! -f "$jar" ]; then
  echo "1..0 # SKIP VisualVM's heap library is not installed (Debian package visualvm)"
  exit 0
fi
classpath=$jar:$(ls /usr/share/visualvm/platform/lib/org-openide-util*.jar | tr '\n' ':')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sh "$here/java/make-fixture.sh" "$work/dump.hprof.gz" "$work/expected" || { echo "1..1"; echo "not ok 1 - the dump could not be made"; exit 1; }
gzip -d "$work/dump.hprof.gz"
javac -cp "$classpath" -d "$work" "$here/java/VisualVmHeap.java" 2>/dev/null || { echo "1..1"; echo "not ok 1 - VisualVmHeap.java does not build"; exit 1; }
"$strata" -r --format=json --top 20 "$work/dump.hprof" >"$work/strata.json" || { echo "1..1"; echo "not ok 1 - strata -r failed"; exit 1; }
# VisualVM writes its cache beside the dump: it reads a copy.
mkdir "$work/copy" && cp "$work/dump.hprof" "$work/copy/"
java -cp "$work:$classpath" VisualVmHeap "$work/copy/dump.hprof" 20 >"$work/visualvm.txt" 2>/dev/null || { echo "1..1"; echo "not ok 1 - VisualVM failed"; exit 1; }
python3 - "$work/visualvm.txt" "$work/strata.json" <<'PY'
import json, re, sys
vv, objects = {}, []
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    if f[0] == "class":
        # A hidden class: VisualVM keeps HotSpot's "+0x…", Strata spells
        # it as Class.getName() and jcmd do, "/0x…".
        f[1] = re.sub(r"\+(0x[0-9a-f]+)$", r"/\1", f[1])
        old = vv.get(f[1], (0, 0, 0))
        vv[f[1]] = tuple(a + int(b) for a, b in zip(old, f[2:5]))
    elif f[0] == "object":
        objects.append((int(f[1]), f[2], int(f[3]), int(f[4])))
report = json.load(open(sys.argv[2]))
st = {}
for c in report["classes"]:
    if c["instances"]:
        old = st.get(c["name"], (0, 0, 0))
        st[c["name"]] = (old[0] + c["instances"], old[1] + c["shallow_bytes"], old[2] + c["retained_bytes"])
# Classes whose instances HotSpot makes bigger than their declared fields
# (javaClasses.hpp's injected fields, Thread's @Contended padding), and
# java.lang.Class, whose instances Strata counts as jcmd does: one mirror
# per class, with its statics.
hidden = re.compile(r"^(java\.lang\.(Class|Module|Thread|invoke\.MemberName|invoke\.ResolvedMethodName|"
                    r"invoke\.MethodHandleNatives\$CallSiteContext|ref\.Finalizer\$FinalizerThread|"
                    r"ref\.Reference\$ReferenceHandler|.*(Error|Exception|Throwable))|jdk\.internal\.misc\.InnocuousThread|"
                    r"jdk\.internal\.loader\.ClassLoaders\$\w+ClassLoader)$")
results = []
both = sorted(set(vv) & set(st))
results.append((len(both) > 200 and not set(vv) ^ set(st), "the same %d classes with instances %s" % (len(both), sorted(set(vv) ^ set(st))[:5])))
bad = [n for n in both if n != "java.lang.Class" and vv[n][0] != st[n][0]]
results.append((not bad, "instances equal for every class but java.lang.Class %s" % bad[:5]))
compared = [n for n in both if not hidden.match(n)]
bad = [(n, vv[n][1], st[n][1]) for n in compared if vv[n][1] != st[n][1]]
results.append((not bad and len(compared) > 200, "shallow bytes equal for %d classes %s" % (len(compared), bad[:5])))
mine = [n for n in both if n.startswith("Allocations")]
bad = [(n, vv[n][2], st[n][2]) for n in mine if vv[n][2] != st[n][2]]
results.append((len(mine) == 4 and not bad, "retained bytes equal for %s %s" % (mine, bad)))
tops = {d["id"]: d for d in report["dominators"]}
# Objects of the classes above differ in size, so may what they retain.
plain = [o for o in objects if not hidden.match(o[1])]
bad = [(hex(o[0]), o[1], o[3], tops.get(o[0], {}).get("retained_bytes")) for o in plain
       if tops.get(o[0], {}).get("retained_bytes") != o[3] or tops[o[0]]["shallow_bytes"] != o[2]]
results.append((len(plain) >= 10 and not bad, "%d largest objects: same shallow and retained bytes %s" % (len(plain), bad[:5])))
print("1..%d" % len(results))
for n, (ok, text) in enumerate(results, 1):
    print("%s %d - %s" % ("ok" if ok else "not ok", n, text))
sys.exit(0 if all(ok for ok, _ in results) else 1)
PY
