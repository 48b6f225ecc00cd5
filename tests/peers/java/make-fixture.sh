#!/bin/sh
# make-fixture.sh OUT.hprof.gz OUT.expected [OUT.histogram]: compiles
# Allocations.java, runs it, dumps its heap with jcmd while its objects are
# alive, and writes what the program says it allocated; with a third
# argument, also what `jcmd GC.class_histogram` says of the same heap right
# after the dump. Needs a JDK (javac, java, jcmd).
set -eu
out=$1
expected=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT

javac -d "$work" "$here/Allocations.java"
# ALLOCATIONS_ARGS: "padded" also keeps the JDK's @Contended classes.
java -XX:+UseSerialGC -Xmx64m -cp "$work" Allocations ${ALLOCATIONS_ARGS:-} >"$work/out.txt" &
pid=$!
for _ in $(seq 1 100); do
  grep -q '^ready' "$work/out.txt" 2>/dev/null && break
  sleep 0.1
done
if [ $# -ge 3 ]; then
  # Settle what the first collections free (cleaners run after a GC) and
  # what attaching allocates, so the dump and the histogram see one heap.
  jcmd "$pid" GC.class_histogram >/dev/null
  sleep 0.5
  jcmd "$pid" GC.class_histogram >/dev/null
fi
jcmd "$pid" GC.heap_dump "$work/dump.hprof" >/dev/null
if [ $# -ge 3 ]; then
  jcmd "$pid" GC.class_histogram >"$3"
fi
grep -v '^ready' "$work/out.txt" >"$expected"
gzip -9 -n -c "$work/dump.hprof" >"$out"
