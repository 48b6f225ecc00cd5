#!/usr/bin/env python3
"""write-nested-trace.py N OUT.json: Trace Event JSON of one thread whose
calls f0, f1, f2, f0, ... are nested N deep (B at 0..N-1 µs, E after),
for the tests of traces deeper than any limit of the viewer."""

import sys

n = int(sys.argv[1])
with open(sys.argv[2], "w") as f:
    f.write("[")
    f.writelines('{"ph":"B","name":"f%d","pid":1,"tid":1,"ts":%d},\n' % (i % 3, i) for i in range(n))
    f.writelines('{"ph":"E","pid":1,"tid":1,"ts":%d}%s\n' % (2 * n - i, "," if i else "]") for i in range(n - 1, -1, -1))
