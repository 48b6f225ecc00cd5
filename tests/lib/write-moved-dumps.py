#!/usr/bin/env python3
"""write-moved-dumps.py DIR: two dumps of one made-up program, as a moving
collector and a still one leave them.

DIR/before.hprof holds 10 objects of class Foo; DIR/kept.hprof the same 10
at the same addresses and 3 more; DIR/moved.hprof 13 objects with every
object and class object at a new address, as after a compacting GC.
"""
import struct, sys
def u1(x): return struct.pack('>B', x)
def u2(x): return struct.pack('>H', x)
def u4(x): return struct.pack('>I', x)
def id8(x): return struct.pack('>Q', x)
def record(tag, body): return u1(tag) + u4(0) + u4(len(body)) + body
def hprof(path, class_ids, objs):
    out = b"JAVA PROFILE 1.0.2\0" + u4(8) + id8(0)
    strings = {"java/lang/Object": 1, "java/lang/Class": 2, "Foo": 3, "x": 4}
    for name, sid in strings.items():
        out += record(1, id8(sid) + name.encode())
    for serial, (name, cid) in enumerate(class_ids.items(), 1):
        out += record(2, u4(serial) + id8(cid) + u4(0) + id8(strings[name]))
    seg = b""
    for name, cid in class_ids.items():
        sup = 0 if name == "java/lang/Object" else class_ids["java/lang/Object"]
        fields, n = (id8(4) + u1(10), 1) if name == "Foo" else (b"", 0)
        seg += u1(0x20) + id8(cid) + u4(0) + id8(sup) + id8(0) * 5 + u4(4 if n else 0) + u2(0) + u2(0) + u2(n) + fields
    for oid in objs:
        seg += u1(0x21) + id8(oid) + u4(0) + id8(class_ids["Foo"]) + u4(4) + u4(7)
    for cid in class_ids.values():
        seg += u1(0x05) + id8(cid)
    for oid in objs:
        seg += u1(0x01) + id8(oid) + id8(0)
    out += record(0x1C, seg) + record(0x2C, b"")
    open(path, "wb").write(out)
base = {"java/lang/Object": 0x1000, "java/lang/Class": 0x1100, "Foo": 0x1200}
hprof(sys.argv[1] + "/before.hprof", base, [0x2000 + 16 * i for i in range(10)])
# The same program after a moving collection: 3 more objects, everything moved.
hprof(sys.argv[1] + "/moved.hprof", {k: v + 0x100000 for k, v in base.items()}, [0x102000 + 16 * i for i in range(13)])
# Nothing moved: the 10 kept where they were, 3 new.
hprof(sys.argv[1] + "/kept.hprof", base, [0x2000 + 16 * i for i in range(13)])
