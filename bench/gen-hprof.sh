#!/bin/sh
# gen-hprof.sh OUT.hprof [SHAPE [N]]: a heap dump from a real JVM, dumped by
# jcmd (jcmd PID GC.heap_dump OUT.hprof). Needs a JDK. Shapes:
#   list  ManyObjects: a linked list of N small objects (27 million, a
#         1.0 GB dump), the deepest dominator tree there is
#   app   OrdersAndItems: an ArrayList of N objects (20 million) of two
#         classes with strings and byte arrays, 35 million objects in all
#         (a 1.4 GB dump), shaped as an application's heap
set -eu
out=$1
shape=${2:-list}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT

case $shape in
  list) program=ManyObjects; n=${3:-27000000} ;;
  app) program=OrdersAndItems; n=${3:-20000000} ;;
  *) echo "unknown shape $shape" >&2; exit 2 ;;
esac
javac -d "$work" "$here/java/$program.java"
java -XX:+UseParallelGC -Xmx6g -cp "$work" "$program" "$n" >"$work/out.txt" &
pid=$!
while ! grep -q '^ready' "$work/out.txt" 2>/dev/null; do
  kill -0 "$pid" || exit 1
  sleep 0.2
done
jcmd "$pid" GC.heap_dump "$(realpath -m "$out")" >/dev/null
