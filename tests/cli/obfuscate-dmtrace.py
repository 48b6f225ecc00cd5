#!/usr/bin/env python3
"""obfuscate-dmtrace.py IN OUT MAPPING: an R8-style obfuscation of a method trace.

Renames every class outside java.*, javax.*, android.*, androidx.*, dalvik.*,
kotlin.*, libcore.*, sun.*, com.android.* and org.apache.* to short names,
with their methods, as R8 does: overloads of one method share an obfuscated
name, and so do methods of different names whose signatures differ. The
signatures' class references are renamed too. The mapping written has what
R8 writes beside: JSON comments, a field, a synthesized member, an inlined
method in front of some (same obfuscated line range), and two lines no
mapping has, which must be reported and skipped. IN is a version 3 trace
with its key first (not the streaming format).
"""
import re
import sys

KEPT = ("java.", "javax.", "android.", "androidx.", "dalvik.", "kotlin.", "libcore.", "sun.",
        "com.android.", "org.apache.", "org.json.", "org.xmlpull.")
PRIMITIVES = {"V": "void", "Z": "boolean", "B": "byte", "C": "char", "S": "short",
              "I": "int", "J": "long", "F": "float", "D": "double"}


def short_name(n):
    s = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        s = chr(ord("a") + r) + s
    return s


def java_type(desc, i):
    """The Java type at desc[i:], and where it ends."""
    dims = 0
    while desc[i] == "[":
        dims += 1
        i += 1
    if desc[i] == "L":
        end = desc.index(";", i)
        name, i = desc[i + 1:end].replace("/", "."), end + 1
    else:
        name, i = PRIMITIVES[desc[i]], i + 1
    return name + "[]" * dims, i


def java_signature(desc):
    args, i = [], 1
    while desc[i] != ")":
        t, i = java_type(desc, i)
        args.append(t)
    ret, _ = java_type(desc, i + 1)
    return ret, ",".join(args)


def main():
    src, out, mapping = sys.argv[1:4]
    data = open(src, "rb").read()
    start = data.index(b"*methods\n") + len(b"*methods\n")
    end = data.index(b"*end\n", start)
    lines = data[start:end].decode("utf-8").split("\n")
    rows = [l.split("\t") for l in lines if l]
    classes = {}
    for r in rows:
        if len(r) >= 4 and not r[1].startswith(KEPT) and r[1] not in classes:
            classes[r[1]] = "a." + short_name(len(classes))

    def obf_desc(desc):
        return re.sub(r"L([^;]+);", lambda m: "L%s;" % classes.get(m.group(1).replace("/", "."), m.group(1).replace("/", ".")).replace(".", "/"), desc)

    # Per class: an obfuscated name per original name; names shared between
    # different originals whose obfuscated signatures differ.
    members = {}
    renamed = []
    for r in rows:
        if len(r) < 4 or r[1] not in classes:
            renamed.append(r)
            continue
        names = members.setdefault(r[1], {})
        sig = obf_desc(r[3])
        if r[2] in ("<init>", "<clinit>"):
            obf = r[2]
        elif r[2] in names:
            obf = names[r[2]][0]
        else:
            used = {(o, s) for o, ss in names.values() for s in ss}
            obf = next(short_name(k) for k in range(1000) if (short_name(k), sig) not in used)
            names[r[2]] = (obf, [])
        if r[2] not in ("<init>", "<clinit>"):
            names[r[2]][1].append(sig)
        renamed.append([r[0], classes[r[1]], obf, sig] + r[4:])
    key = "\n".join("\t".join(r) for r in renamed) + "\n"
    open(out, "wb").write(data[:start] + key.encode("utf-8") + data[end:])

    with open(mapping, "w") as m:
        m.write("# compiler: R8\n# compiler_version: 8.2.42\n")
        m.write('# {"id":"com.android.tools.r8.mapping","version":"2.2"}\n')
        m.write("this line is not a mapping line\n")
        for original, obf in sorted(classes.items(), key=lambda kv: kv[1]):
            m.write("%s -> %s:\n" % (original, obf))
            m.write('# {"id":"sourceFile","fileName":"%s.java"}\n' % original.split(".")[-1].split("$")[0])
            m.write("    int count -> a\n")
            line = 1
            for r in rows:
                if len(r) < 4 or r[1] != original:
                    continue
                ret, args = java_signature(r[3])
                obf_name = [x for x in renamed if x[0] == r[0]][0][2]
                first, last = line, line + 9
                if line % 3 == 1:
                    # Something R8 inlined here: the entry before the method's own.
                    m.write("    %d:%d:void inlinedHelper%d(int):900:909 -> %s\n" % (first, last, line, obf_name))
                m.write("    %d:%d:%s %s(%s):%d:%d -> %s\n" % (first, last, ret, r[2], args, 100 + line, 109 + line, obf_name))
                line += 10
            m.write("    void access$lambda(int) -> zz\n")
            m.write('    # {"id":"com.android.tools.r8.synthesized"}\n')
        m.write("    12:oops -> b\n")


if __name__ == "__main__":
    main()
