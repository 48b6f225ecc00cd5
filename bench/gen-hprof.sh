#!/bin/sh
# gen-hprof.sh OUT.hprof [N_OBJECTS]: a heap dump of about 1 GB from a real
# JVM: ManyObjects holds N small objects (default 27 million, a 1.0 GB dump) and jcmd
# dumps its heap (jcmd PID GC.heap_dump OUT.hprof). Needs a JDK.
set -eu
out=$1
n=${2:-27000000}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT

javac -d "$work" "$here/java/ManyObjects.java"
java -XX:+UseParallelGC -Xmx4g -cp "$work" ManyObjects "$n" >"$work/out.txt" &
pid=$!
while ! grep -q '^ready' "$work/out.txt" 2>/dev/null; do
  kill -0 "$pid" || exit 1
  sleep 0.2
done
jcmd "$pid" GC.heap_dump "$(realpath -m "$out")" >/dev/null
