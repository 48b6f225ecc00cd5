#!/bin/sh
# cli.sh STRATA: the command line works with no display at all.
set -u
strata=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset DISPLAY WAYLAND_DISPLAY
failed=0
n=0

ok () { n=$((n + 1)); echo "ok $n - $1"; }
not_ok () { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }

check_fails () {
  # check_fails NAME FILE EXPECTED_TEXT
  name=$1 file=$2 expected=$3
  "$strata" -r "$file" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  lines=$(wc -l <"$tmp/err")
  if [ "$rc" -ne 0 ] && [ "$lines" -eq 1 ] && grep -q "$expected" "$tmp/err" && [ ! -s "$tmp/out" ]; then
    ok "$name: $(cat "$tmp/err")"
  else
    not_ok "$name (rc=$rc, stderr: $(cat "$tmp/err"))"
  fi
}

version=$("$strata" --version 2>&1)
case "$version" in
  "strata "[0-9]*) ok "--version prints $version" ;;
  *) not_ok "--version printed '$version'" ;;
esac

# --help: every option once, on a line of its own, in its group; the
# same whether asked of the window, -r or --export.
"$strata" --help >"$tmp/help" 2>&1
missing=""
for option in view range select details find clock mapping follow-weak screenshot size report format tree depth \
              top strict-mapping compare diff fail-if baseline-mapping match export theme version help; do
  [ "$(grep -cE "^  (-., |    )--$option(=| |$)" "$tmp/help")" -eq 1 ] || missing="$missing --$option"
done
if [ -z "$missing" ] && grep -q "^Reports, without a window" "$tmp/help" && grep -q "^Exporting images" "$tmp/help" &&
   grep -q "^Exit status: 0 done; 1 a file could not be read; 2 bad usage" "$tmp/help"; then
  ok "--help lists every option once, grouped, with the exit statuses"
else
  not_ok "--help lacks$missing: $(head -5 "$tmp/help")"
fi
if "$strata" -r --help | cmp -s - "$tmp/help" && "$strata" --export=x.png --help | cmp -s - "$tmp/help"; then
  ok "-r --help and --export --help print the same help"
else
  not_ok "the help differs by command"
fi

# Exit status 2: an option for another command is refused, not dropped.
check_usage () {
  # check_usage NAME EXPECTED_TEXT ARGS...
  name=$1 expected=$2
  shift 2
  "$strata" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ $rc -eq 2 ] && grep -q -- "$expected" "$tmp/err" && [ ! -s "$tmp/out" ]; then
    ok "$name: exit 2, $(head -1 "$tmp/err")"
  else
    not_ok "$name: exit $rc, $(cat "$tmp/err")"
  fi
}
check_usage "--select with -r" "--select is for the window, not reports" -r --select=run "$tmp/empty.trace"
check_usage "--theme without --export" "--theme is for exports" --theme=dark "$tmp/empty.trace"
check_usage "--tree with --export" "--tree is for reports" --export="$tmp/x.svg" --tree=top-down "$tmp/empty.trace"
check_usage "-r with --export" "separate commands" -r --export="$tmp/x.svg" "$tmp/empty.trace"
check_usage "--view=timeline in the window" "--view takes" --view=timeline "$tmp/empty.trace"
check_usage "an unknown option" "Unknown option" --colour=red "$tmp/empty.trace"

: >"$tmp/empty.trace"
{ printf x; head -c 8192 /dev/urandom; } >"$tmp/random.trace"
printf '\211PNG\r\n\032\n\0\0\0\rIHDR\0\0\0\020\0\0\0\020\010\006\0\0\0' >"$tmp/picture.trace"
truncate -s 1G "$tmp/zeros.trace"
printf 'just some words\n' >"$tmp/notes.trace"
mkdir "$tmp/folder.trace"
{ head -c 1000 /dev/zero; cat "$(dirname "$0")/../../data/samples/android-app-startup.trace"; } >"$tmp/zero-prefix.trace"

check_fails "missing file" "$tmp/missing.trace" "does not exist"
check_fails "directory" "$tmp/folder.trace" "folder"
check_fails "empty file" "$tmp/empty.trace" "empty"
check_fails "random bytes" "$tmp/random.trace" "not in a trace format"
check_fails "PNG named .trace" "$tmp/picture.trace" "PNG"
check_fails "1 GB of zeros" "$tmp/zeros.trace" "at least .* of zero bytes"
check_fails "1,000 zero bytes before a trace" "$tmp/zero-prefix.trace" "starts with 1000 zero bytes"
check_fails "plain text" "$tmp/notes.trace" "text file"

if [ "$(id -u)" -ne 0 ]; then
  printf '*version\n3\n' >"$tmp/secret.trace"
  chmod 000 "$tmp/secret.trace"
  check_fails "no permission" "$tmp/secret.trace" "permission"
fi

"$strata" -r >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 2 ] && grep -q "FILE" "$tmp/err"; then ok "-r without a file is a usage error"; else not_ok "-r without a file"; fi

"$strata" -r --format=xml "$tmp/empty.trace" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 2 ]; then ok "--format=xml is a usage error"; else not_ok "--format=xml"; fi

# Heap dumps: --follow-weak lets weak references keep their referents,
# and the JSON says which way the figures were counted.
dump=$(dirname "$0")/../data/allocations.hprof.gz
"$strata" -r --format=json "$dump" >"$tmp/strong.json" 2>"$tmp/err" &&
  "$strata" -r --format=json --follow-weak "$dump" >"$tmp/weak.json" 2>>"$tmp/err"
if python3 - "$tmp/strong.json" "$tmp/weak.json" <<'PY'
import json, sys
strong, weak = (json.load(open(p)) for p in sys.argv[1:3])
def retained(r):
    return {c["name"]: c["retained_bytes"] for c in r["classes"]}
assert strong["weak_references"] == {"referents": "not followed", "count": 173}, strong["weak_references"]
assert weak["weak_references"] == {"referents": "followed", "count": 173}, weak["weak_references"]
assert retained(weak)["java.lang.Class"] < retained(strong)["java.lang.Class"]
assert sum(c["shallow_bytes"] for c in weak["classes"]) == sum(c["shallow_bytes"] for c in strong["classes"])
PY
then ok "--follow-weak counts the 173 referents of allocations.hprof.gz"; else not_ok "--follow-weak: $(cat "$tmp/err")"; fi

# A class object in the JSON is named by the class it is, as the text
# names it; so is each step of a path.
if python3 - "$tmp/strong.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
objects = report["dominators"] + [s for d in report["dominators"] for s in d["path"]]
classes = [o for o in objects if o["class"] == "java.lang.Class"]
assert classes, "no class object among the dominators"
# Only a class object that is no loaded class (a primitive type's) keeps
# the plain name: the dump says nothing more of it.
named = [o for o in classes if o["label"].startswith("class ")]
assert len(named) * 2 > len(classes), [o["label"] for o in classes][:5]
assert any(o["label"].startswith("class Allocations ") for o in classes), [o["label"] for o in classes][:5]
PY
then ok "class objects in the JSON are labelled by their class"; else not_ok "class objects' labels"; fi

# Object ids are addresses: after a moving collection between two dumps
# no object is told new by its id, and the report says why; with ids
# kept, the 3 new objects are found.
python3 "$(dirname "$0")/../lib/write-moved-dumps.py" "$tmp"
if "$strata" -r --format=json --diff="$tmp/before.hprof" "$tmp/moved.hprof" >"$tmp/moved.json" &&
   "$strata" -r --format=json --diff="$tmp/before.hprof" "$tmp/kept.hprof" >"$tmp/kept.json" &&
   "$strata" -r --diff="$tmp/before.hprof" "$tmp/moved.hprof" | grep -q "Object ids moved between the dumps (3 of 3" &&
   python3 - "$tmp/moved.json" "$tmp/kept.json" <<'PY'
import json, sys
moved, kept = (json.load(open(p)) for p in sys.argv[1:3])
assert moved["object_ids"] == {"stable": False, "class_objects_moved": 3, "class_objects_compared": 3}, moved["object_ids"]
assert all("new_instances" not in c for c in moved["classes"]), moved["classes"]
assert kept["object_ids"]["stable"] is True
assert {c["name"]: c["new_instances"] for c in kept["classes"]}["Foo"] == 3
PY
then ok "--diff after a moving collection tells no object new by id, and says so"; else not_ok "--diff after a moving collection"; fi

# --diff and --fail-if on a pair with known differences: "work" takes
# 150 µs instead of 100, "idle" is the same, "parse" is new, "load" gone.
write_events () {
  # write_events FILE WORK_DUR EXTRA_NAME
  printf '{"traceEvents":[\n' >"$1"
  printf '{"name":"main","ph":"X","ts":0,"dur":1000,"pid":1,"tid":1},\n' >>"$1"
  printf '{"name":"work","ph":"X","ts":10,"dur":%s,"pid":1,"tid":1},\n' "$2" >>"$1"
  printf '{"name":"idle","ph":"X","ts":300,"dur":50,"pid":1,"tid":1},\n' >>"$1"
  printf '{"name":"%s","ph":"X","ts":400,"dur":20,"pid":1,"tid":1}]}\n' "$3" >>"$1"
}
write_events "$tmp/before.json" 100 load
write_events "$tmp/after.json" 150 parse

check_gate () {
  # check_gate NAME EXPECTED_STATUS ARGS...
  name=$1 expected=$2
  shift 2
  "$strata" -r "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" -eq "$expected" ]; then ok "$name: exit $rc"; else not_ok "$name: exit $rc, wanted $expected ($(cat "$tmp/err"))"; fi
}
check_gate "a file against itself" 0 --diff="$tmp/after.json" --fail-if='incl>+0%' --fail-if='calls>+0' "$tmp/after.json"
if grep -q "no differences" "$tmp/out"; then ok "itself: no differences"; else not_ok "itself: $(cat "$tmp/out")"; fi
check_gate "a heap dump against itself" 0 --diff="$dump" --fail-if='retained>+0B' --fail-if='instances<-0' "$dump"
if grep -q "no differences" "$tmp/out"; then ok "the dump against itself: no differences"; else not_ok "dump itself: $(cat "$tmp/out")"; fi
if "$strata" -r --help 2>&1 | grep -q "FIGURE>VALUE"; then ok "strata -r --help documents the rules"; else not_ok "--help has no rules"; fi
check_gate "work +50% breaks incl>+20%" 3 --diff="$tmp/before.json" --fail-if='incl>+20%:work' "$tmp/after.json"
if grep -q "broken by 1 row" "$tmp/out" && grep -q "+50.0%.*work" "$tmp/out"; then ok "the broken rule names work"; else not_ok "broken rule: $(cat "$tmp/out")"; fi
check_gate "work +50% keeps incl>+60%" 0 --diff="$tmp/before.json" --fail-if='incl>+60%:work' "$tmp/after.json"
check_gate "work +50 µs breaks incl>+49us&incl>+10%" 3 --diff="$tmp/before.json" --fail-if='incl>+49us&incl>+10%' "$tmp/after.json"
check_gate "a new method breaks excl>+1000%" 3 --diff="$tmp/before.json" --fail-if='excl>+1000%:parse' "$tmp/after.json"
check_gate "an unreadable rule is a usage error" 2 --diff="$tmp/before.json" --fail-if='incl>>5' "$tmp/after.json"
check_gate "a size for a time is a usage error" 2 --diff="$tmp/before.json" --fail-if='incl>+5MB' "$tmp/after.json"
check_gate "--fail-if without --diff is a usage error" 2 --fail-if='incl>+5%' "$tmp/after.json"
check_gate "a heap dump against a trace fails" 1 --diff="$dump" "$tmp/after.json"
check_gate "a missing baseline fails" 1 --diff="$tmp/missing.json" "$tmp/after.json"
"$strata" -r --format=json --diff="$tmp/before.json" --fail-if='incl>+20%:work' "$tmp/after.json" >"$tmp/diff.json" 2>"$tmp/err"
if [ $? -eq 3 ] && python3 - "$tmp/diff.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = {m["name"]: m for m in d["methods"]}
assert rows["work"]["incl"] == {"before": 100000, "after": 150000, "delta": 50000}, rows["work"]
assert rows["idle"]["excl"]["delta"] == 0 and rows["idle"]["status"] == "both"
assert rows["parse"]["status"] == "added" and rows["load"]["status"] == "removed"
assert rows["main"]["excl"]["delta"] == -50000, rows["main"]
assert d["rules"] == [{"rule": "incl>+20%:work", "broken": True, "rows": ["work"]}], d["rules"]
assert d["baseline"]["total"] == d["current"]["total"] == 1000000
PY
then ok "--diff --format=json: before, after and delta of each figure"; else not_ok "--diff JSON: $(cat "$tmp/err")"; fi

# --export: pictures without a display. SVG and PDF keep method names as
# text; each file is what its tool expects.
sample=$(dirname "$0")/../../data/samples/android-app-startup.trace
if "$strata" --export="$tmp/timeline.svg" "$sample" >/dev/null 2>"$tmp/err" &&
   xmllint --noout "$tmp/timeline.svg" 2>>"$tmp/err" &&
   grep -q "<text[^>]*>com.yy.base.taskexecutor.YYTaskExecutor\$1.run ()V</text>" "$tmp/timeline.svg"; then
  ok "--export=.svg: valid SVG with the methods as text ($(wc -c <"$tmp/timeline.svg") bytes)"
else
  not_ok "--export=.svg: $(cat "$tmp/err")"
fi
if "$strata" --export="$tmp/flame.svg" --view=flame "$sample" >/dev/null 2>"$tmp/err" &&
   xmllint --noout "$tmp/flame.svg" 2>>"$tmp/err" && grep -q "YYTaskExecutor\$1.run</text>" "$tmp/flame.svg"; then
  ok "--export --view=flame: the flame graph as SVG"
else
  not_ok "--export --view=flame: $(cat "$tmp/err")"
fi
if command -v pdfinfo >/dev/null 2>&1; then
  "$strata" --export="$tmp/timeline.pdf" --range=20-60 --theme=dark "$sample" >/dev/null 2>"$tmp/err"
  if pdfinfo "$tmp/timeline.pdf" >"$tmp/pdfinfo" 2>>"$tmp/err" && grep -q "^Pages: *1" "$tmp/pdfinfo" &&
     pdftotext "$tmp/timeline.pdf" - 2>/dev/null | grep -q "LayoutInflater"; then
    ok "--export=.pdf: pdfinfo reads it, and its text has the methods"
  else
    not_ok "--export=.pdf: $(cat "$tmp/err")"
  fi
else
  echo "ok $((n = n + 1)) # SKIP pdfinfo is not installed (poppler-utils)"
fi
"$strata" --export="$tmp/timeline.png" --size=1000x400 "$sample" >/dev/null 2>"$tmp/err"
if [ "$(identify -format '%w %h' "$tmp/timeline.png" 2>/dev/null)" = "1000 400" ]; then
  ok "--export=.png --size=1000x400: a 1000 x 400 PNG"
else
  not_ok "--export=.png: $(cat "$tmp/err")"
fi
"$strata" --export="$tmp/picture.gif" "$sample" >/dev/null 2>"$tmp/err"
if [ $? -eq 2 ] && grep -q ".png, .svg or .pdf" "$tmp/err"; then ok "--export=.gif is a usage error"; else not_ok "--export=.gif: $(cat "$tmp/err")"; fi
"$strata" --export="$tmp/missing.png" "$tmp/missing.trace" >/dev/null 2>"$tmp/err"
if [ $? -eq 1 ] && grep -q "does not exist" "$tmp/err" && [ ! -e "$tmp/missing.png" ]; then ok "--export of a missing file fails and writes nothing"; else not_ok "--export missing: $(cat "$tmp/err")"; fi

# A heap dump has no calls: a tree, stacks or a picture of it are refused
# as bad usage, not printed empty with exit 0.
for args in "-r --tree=top-down" "-r --format=folded" "--export=$tmp/heap.png"; do
  # shellcheck disable=SC2086
  "$strata" $args "$dump" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ $rc -eq 2 ] && grep -q "heap dump has no" "$tmp/err" && [ ! -s "$tmp/out" ] && [ ! -e "$tmp/heap.png" ]; then
    ok "$args on a heap dump: exit 2, $(cut -c1-60 "$tmp/err")…"
  else
    not_ok "$args on a heap dump: exit $rc, $(cat "$tmp/out" "$tmp/err" | head -3)"
  fi
done

# A stack 20,000 calls deep: the tree as JSON is whole and adds up, the
# bottom-up roots count every call, the text tree comes out, and nothing
# is printed on stderr. (Folded stacks and a whole bottom-up tree of it
# are as large as the square of its depth: a line, or a path, per frame.)
python3 - "$tmp/deep.json" <<'PY'
import json, sys
depth = 20000
events = [{"name": f"f{d % 97}", "ph": "X", "ts": d, "dur": 2 * (depth - d) + 1, "pid": 1, "tid": 1} for d in range(depth)]
json.dump({"traceEvents": events}, open(sys.argv[1], "w"))
PY
"$strata" -r --tree=top-down --format=json "$tmp/deep.json" >"$tmp/deep-tree.json" 2>"$tmp/err" &&
  "$strata" -r --tree=bottom-up --depth=1 --format=json "$tmp/deep.json" >"$tmp/deep-bottom-up.json" 2>>"$tmp/err" &&
  "$strata" -r --tree=top-down "$tmp/deep.json" >"$tmp/deep-tree.txt" 2>>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && python3 - "$tmp/deep-tree.json" "$tmp/deep-bottom-up.json" <<'PY'
import json, sys, threading
sys.setrecursionlimit(1000000)
threading.stack_size(512 * 1024 * 1024)
def check():
    tree = json.load(open(sys.argv[1]))
    node, levels = tree["nodes"][0], 1
    while node["children"]:
        assert node["total"]["wall"] == node["self"]["wall"] + sum(c["total"]["wall"] for c in node["children"])
        node, levels = node["children"][0], levels + 1
    assert levels == 20000, levels
    bottom_up = json.load(open(sys.argv[2]))
    assert sum(n["calls"] for n in bottom_up["nodes"]) == 20000
    print(f"# {levels} levels, each adding up")
    passed.append(True)
passed = []
worker = threading.Thread(target=check)
worker.start()
worker.join()
sys.exit(0 if passed else 1)
PY
then
  ok "a 20,000-deep stack: tree JSON whole and adding up, bottom-up roots, text"
else
  not_ok "a 20,000-deep stack: exit $rc, $(head -3 "$tmp/err")"
fi

# An HPROF header with zeros behind it is not a heap dump: refused at
# once with the byte where the records stop making sense.
{ printf 'JAVA PROFILE 1.0.2\000'; printf '\000\000\000\010'; head -c 8 /dev/zero; } >"$tmp/zeros.hprof"
truncate -s 256M "$tmp/zeros.hprof"
"$strata" -r "$tmp/zeros.hprof" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "from byte 31 on its records are of no kind a heap dump has" "$tmp/err"; then
  ok "an HPROF header before 256 MB of zeros is refused (exit 1)"
else
  not_ok "zeros behind an HPROF header: exit $rc, $(cat "$tmp/err")"
fi

# 150 threads: SVG and PDF are as tall as the tracks need (PNG's 32000
# pixel limit does not apply); a PNG too tall says how to make it fit.
python3 - "$tmp/threads.json" <<'PY'
import json, sys
events = [{"name": f"run{t % 7}", "ph": "X", "ts": t, "dur": 100, "pid": 1, "tid": t} for t in range(1, 1501)]
json.dump({"traceEvents": events}, open(sys.argv[1], "w"))
PY
if "$strata" --export="$tmp/threads.svg" "$tmp/threads.json" >/dev/null 2>"$tmp/err" &&
   xmllint --noout "$tmp/threads.svg" 2>>"$tmp/err" && [ "$(grep -c '>run3</text>' "$tmp/threads.svg")" -ge 200 ]; then
  ok "--export=.svg of 1,500 threads: valid SVG, every thread drawn"
else
  not_ok "--export=.svg of 1,500 threads: $(cat "$tmp/err")"
fi
if command -v pdfinfo >/dev/null 2>&1; then
  if "$strata" --export="$tmp/threads.pdf" "$tmp/threads.json" >/dev/null 2>"$tmp/err" &&
     pdfinfo "$tmp/threads.pdf" >"$tmp/pdfinfo" 2>>"$tmp/err" && grep -q "^Pages: *1" "$tmp/pdfinfo"; then
    ok "--export=.pdf of 1,500 threads: $(grep 'Page size' "$tmp/pdfinfo" | tr -s ' ')"
  else
    not_ok "--export=.pdf of 1,500 threads: $(cat "$tmp/err")"
  fi
else
  echo "ok $((n = n + 1)) # SKIP pdfinfo is not installed (poppler-utils)"
fi
"$strata" --export="$tmp/threads.png" "$tmp/threads.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "at most 32000 pixels" "$tmp/err" && grep -q -- "--size" "$tmp/err" && [ ! -e "$tmp/threads.png" ]; then
  ok "--export=.png over 32000 pixels: exit 2 with the options that fit"
else
  not_ok "--export=.png too tall: exit $rc, $(cat "$tmp/err")"
fi

# Nothing read is written over, and nothing is written into a pipe or
# read from one: each ends at once with a message (timeout: a hang fails).
mkfifo "$tmp/pipe" "$tmp/pipe.svg"
cp "$sample" "$tmp/copy.svg"
ln -s "$tmp/copy.svg" "$tmp/link.svg"
check_refused () {
  # check_refused NAME EXPECTED_STATUS EXPECTED_TEXT ARGS...
  name=$1 status=$2 expected=$3
  shift 3
  timeout 20 "$strata" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ $rc -eq "$status" ] && grep -q -- "$expected" "$tmp/err" && cmp -s "$sample" "$tmp/copy.svg"; then
    ok "$name: exit $rc, $(head -1 "$tmp/err")"
  else
    not_ok "$name: exit $rc, $(cat "$tmp/err")"
  fi
}
check_refused "--export over the trace it reads" 2 "never written over" --export="$tmp/copy.svg" "$tmp/copy.svg"
check_refused "--export through a link to the trace" 2 "never written over" --export="$tmp/link.svg" "$tmp/copy.svg"
check_refused "--export over the mapping it reads" 2 "never written over" --export="$tmp/copy.svg" --mapping="$tmp/copy.svg" "$sample"
check_refused "--export into a pipe" 2 "not a regular file" --export="$tmp/pipe.svg" "$sample"
check_refused "--mapping from a pipe" 1 "not a regular file" -r --mapping="$tmp/pipe" "$sample"
check_refused "--mapping from /dev/zero" 1 "not a regular file" -r --mapping=/dev/zero "$sample"
check_refused "--mapping from a folder" 1 "folder" -r --mapping="$tmp" "$sample"
check_refused "--diff against a pipe" 1 "not a regular file" -r --diff="$tmp/pipe" "$sample"
check_refused "--baseline-mapping from a pipe" 1 "pipe: It is not a regular file" -r --diff="$sample" --baseline-mapping="$tmp/pipe" "$sample"

# Folded stacks of a trace nested 100,000 deep would be 15 GB: refused at
# once with the way out; --depth keeps every nanosecond in fewer frames.
python3 "$(dirname "$0")/../lib/write-nested-trace.py" 100000 "$tmp/nested.json"
timeout 60 "$strata" -r --format=folded "$tmp/nested.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "more than the" "$tmp/err" && grep -q -- "--depth" "$tmp/err" && [ ! -s "$tmp/out" ]; then
  ok "folded stacks 100,000 deep: refused before writing, $(head -1 "$tmp/err")"
else
  not_ok "folded stacks 100,000 deep: exit $rc, $(wc -c <"$tmp/out") bytes, $(cat "$tmp/err")"
fi
total=$(timeout 60 "$strata" -r --format=folded --depth=50 "$tmp/nested.json" 2>"$tmp/err" | awk '!/^#/ { n++; s += $NF } END { print n, s }')
if [ "$total" = "50 200000000" ]; then
  ok "--format=folded --depth=50: 50 lines holding all 200 ms"
else
  not_ok "--format=folded --depth=50: $total $(cat "$tmp/err")"
fi
rm -f "$tmp/nested.json"

# A heap dump that shrinks after it loaded, while the report reads its
# strings from the mapping: a message and exit 1, not a bus error.
gunzip -c "$(dirname "$0")/../data/allocations.hprof.gz" >"$tmp/shrinks.hprof"
rm -f "$tmp/loaded"
STRATA_TEST_AFTER_LOAD_MARKER="$tmp/loaded" timeout 60 "$strata" -r "$tmp/shrinks.hprof" >"$tmp/out" 2>"$tmp/err" &
pid=$!
waited=0
while [ ! -e "$tmp/loaded" ] && [ $waited -lt 600 ]; do sleep 0.1; waited=$((waited + 1)); done
truncate -s 4096 "$tmp/shrinks.hprof"
rm -f "$tmp/loaded"
wait $pid
rc=$?
if [ $rc -eq 1 ] && grep -q "became shorter" "$tmp/err"; then
  ok "a heap dump shrinking after its load: exit 1, $(head -1 "$tmp/err")"
else
  not_ok "a heap dump shrinking after its load: exit $rc, $(cat "$tmp/err")"
fi

# A name of 64 MB is clipped wherever it is drawn: the flame graph's
# labels handed it whole to Pango and took gigabytes.
python3 - "$tmp/giant.json" <<'PY'
import sys
name = "n" * (64 << 20)
open(sys.argv[1], "w").write('{"traceEvents":[{"ph":"X","name":"' + name + '","pid":1,"tid":1,"ts":0,"dur":100},'
                             '{"ph":"X","name":"small","pid":1,"tid":1,"ts":10,"dur":50}]}')
PY
# Under AddressSanitizer no program starts with 2 GB of address space:
# the time limit is the check there.
limit=2000000
(ulimit -v $limit; "$strata" --version) >/dev/null 2>&1 || limit=unlimited
if (ulimit -v $limit; timeout 60 "$strata" --export="$tmp/giant.svg" --view=flame "$tmp/giant.json") >/dev/null 2>"$tmp/err" &&
   [ "$(wc -c <"$tmp/giant.svg")" -lt 1000000 ] && grep -q '>small</text>' "$tmp/giant.svg"; then
  ok "--export --view=flame of a 64 MB name: the name clipped (address space: $limit kB)"
else
  not_ok "--export --view=flame of a 64 MB name: $(cat "$tmp/err")"
fi
# The text report and the text tree clip it as the window does; the
# JSON, which is data, keeps it whole.
"$strata" -r "$tmp/giant.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
"$strata" -r --tree=top-down "$tmp/giant.json" >"$tmp/tree" 2>>"$tmp/err"
if [ $rc -eq 0 ] && [ "$(wc -c <"$tmp/out")" -lt 20000 ] && grep -q 'nnn…' "$tmp/out" &&
   [ "$(wc -c <"$tmp/tree")" -lt 20000 ] && grep -q 'nnn…' "$tmp/tree"; then
  ok "-r and --tree of a 64 MB name: $(wc -c <"$tmp/out") and $(wc -c <"$tmp/tree") bytes, the name clipped"
else
  not_ok "-r and --tree of a 64 MB name: exit $rc, $(wc -c <"$tmp/out") bytes, $(head -c 300 "$tmp/err")"
fi
rm -f "$tmp/giant.json" "$tmp/giant.svg" "$tmp/tree"

# Notes written in the window, kept in the data folder (written here by
# a script of the test's own, as the help describes the store): -r, its
# JSON and --export carry them; a note whose call is gone keeps its range.
write_events "$tmp/noted.json" 100 paint
mkdir -p "$tmp/data/strata/notes"
python3 - "$tmp/noted.json" "$tmp/data/strata/notes" <<'PY'
import hashlib, json, os, sys, pathlib
trace = os.path.abspath(sys.argv[1])
uri = pathlib.Path(trace).as_uri()
st = os.stat(trace)
store = {"file": uri, "size": st.st_size, "modified": int(st.st_mtime),
         "notes": [{"text": "work is slow here", "start": 10000, "end": 110000,
                    "call": {"tid": 1, "depth": 1, "index": 0, "method": "work"}},
                   {"text": "idle stretch", "start": 300000, "end": 350000},
                   {"text": "moved call", "start": 400000, "end": 420000,
                    "call": {"tid": 1, "depth": 1, "index": 0, "method": "gone"}}]}
name = hashlib.sha256(uri.encode()).hexdigest() + ".json"
open(os.path.join(sys.argv[2], name), "w").write(json.dumps(store))
PY
XDG_DATA_HOME="$tmp/data" "$strata" -r "$tmp/noted.json" >"$tmp/out" 2>"$tmp/err"
XDG_DATA_HOME="$tmp/data" "$strata" -r --format=json "$tmp/noted.json" >"$tmp/out.json" 2>>"$tmp/err"
XDG_DATA_HOME="$tmp/data" "$strata" --export="$tmp/noted.svg" "$tmp/noted.json" >/dev/null 2>>"$tmp/err"
if grep -q "work is slow here" "$tmp/out" && grep -q "idle stretch" "$tmp/out" && [ ! -s "$tmp/err" ] &&
   python3 -c '
import json, sys
notes = json.load(open(sys.argv[1]))["user_notes"]
assert [n["text"] for n in notes] == ["work is slow here", "idle stretch", "moved call"], notes
assert notes[0]["call"]["method"] == "work" and notes[0]["call"]["tid"] == 1, notes[0]
assert notes[0]["start_ns"] == 10000 and notes[0]["end_ns"] == 110000, notes[0]
assert notes[1]["call"] is None and notes[2]["call"] is None, notes
' "$tmp/out.json" && grep -q "work is slow here" "$tmp/noted.svg"; then
  ok "notes kept for a trace are in -r, its JSON and --export"
else
  not_ok "notes: $(grep -A4 'User notes' "$tmp/out") $(cat "$tmp/err")"
fi
# Another file saved at the same place does not have them.
write_events "$tmp/noted.json" 1000 paint
XDG_DATA_HOME="$tmp/data" "$strata" -r --format=json "$tmp/noted.json" >"$tmp/out.json" 2>"$tmp/err"
if python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["user_notes"] == []' "$tmp/out.json"; then
  ok "a new file at the same place starts without the old one's notes"
else
  not_ok "a new file at the same place has the old one's notes: $(cat "$tmp/err")"
fi

# --format=speedscope: a file speedscope opens, and Strata reads back to
# the same stacks (only the thread's name gains its id).
write_events "$tmp/shared.json" 120 paint
"$strata" -r --format=speedscope "$tmp/shared.json" >"$tmp/shared.speedscope.json" 2>"$tmp/err"
"$strata" -r --format=folded "$tmp/shared.json" | sed 1d | cut -d';' -f2- | sort >"$tmp/before.folded"
"$strata" -r --format=folded "$tmp/shared.speedscope.json" | sed 1d | cut -d';' -f2- | sort >"$tmp/after.folded"
if [ ! -s "$tmp/err" ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["$schema"] == "https://www.speedscope.app/file-format-schema.json"
p = d["profiles"][0]
assert p["type"] == "evented" and p["unit"] == "nanoseconds"
assert sum(e["type"] == "O" for e in p["events"]) == sum(e["type"] == "C" for e in p["events"]) == 4
' "$tmp/shared.speedscope.json" && [ -s "$tmp/before.folded" ] && cmp -s "$tmp/before.folded" "$tmp/after.folded"; then
  ok "--format=speedscope writes a speedscope file that reads back to the same stacks"
else
  not_ok "--format=speedscope: $(cat "$tmp/err") $(diff "$tmp/before.folded" "$tmp/after.folded" | head -3)"
fi

echo "1..$n"
exit $failed
