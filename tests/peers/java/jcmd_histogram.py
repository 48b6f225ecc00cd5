"""jcmd_histogram.py: `jcmd PID GC.class_histogram` as the dump names classes.

read(PATH) gives {class name: (instances, bytes)}, classes of one name
summed, and the Total line's (instances, bytes) or None. Array classes
are written "byte[]", "java.lang.String[][]", as heap dumps name them.
"""
import re

_ARRAYS = {"B": "byte", "C": "char", "I": "int", "J": "long", "S": "short", "Z": "boolean", "D": "double", "F": "float"}


def dump_name(name):
    depth = len(name) - len(name.lstrip("["))
    if depth == 0:
        return name
    base = name[depth:]
    base = _ARRAYS.get(base, base[1:-1] if base.startswith("L") else base)
    return base + "[]" * depth


def read(path):
    classes, total = {}, None
    for line in open(path):
        m = re.match(r"\s*\d+:\s+(\d+)\s+(\d+)\s+(\S+)", line)
        if m:
            name = dump_name(m.group(3))
            n, b = classes.get(name, (0, 0))
            classes[name] = (n + int(m.group(1)), b + int(m.group(2)))
        m = re.match(r"Total\s+(\d+)\s+(\d+)", line)
        if m:
            total = (int(m.group(1)), int(m.group(2)))
    return classes, total
