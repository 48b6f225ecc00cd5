#!/usr/bin/env python3
"""Tests read only files of the source tree, or the shared corpus through
STRATA_CORPUS_DIR: a fresh clone, with nothing beside it, must pass.

Flags, in every test source under tests/ (C, Python, shell, meson), a string that leaves
the tree by "..", names the shared folder, or is an absolute path to a file
that exists here outside the system folders. The one place allowed to look
beside the tree is where meson finds the corpus to put in STRATA_CORPUS_DIR.

usage: check-test-paths.py SRCDIR
"""

import os
import re
import itertools
import sys

SOURCES = (".c", ".h", ".py", ".sh", ".build")
SYSTEM = ("/usr/", "/bin/", "/dev/", "/proc/", "/sys/", "/etc/")
STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'')


def leaves_tree(strings, depth):
    """Whether the path made of @strings, from @depth folders below the
    root, climbs above the root."""
    for s in strings:
        for part in re.split(r"[/\\]", s):
            if part == "..":
                depth -= 1
                if depth < 0:
                    return True
            elif part not in ("", "."):
                depth += 1
    return False


def offences(text, language, depth):
    """(line number, string) for each string that leaves the tree; @depth
    is how deep the file sits below the root."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        strings = [a or b for a, b in STRING.findall(line)]
        base = 0 if "project_source_root" in line else depth
        if any(".." in re.split(r"[/\\]", s) for s in strings) and leaves_tree(strings, base):
            found.append((number, " ".join(strings)))
        for s in strings:
            if re.search(r"(^|/)shared/(corpus|bench|docs)\b", s) or s == "shared":
                found.append((number, s))
            elif s.startswith(("/work/", "/home/", "/root/", "~/")):
                found.append((number, s))
            elif len(s) > 1 and s.startswith("/") and not s.startswith(SYSTEM) and os.path.exists(s):
                found.append((number, s))
    return found


def self_test():
    """The check must be able to fail: each bad line is caught, each good one passes."""
    bad = [
        ('g_test_build_filename (G_TEST_DIST, "..", "..", "shared", "corpus", NULL);', ".c"),
        ('path = "../shared/corpus/dmtrace/x.trace"', ".py"),
        ("corpus=$src/'../shared/corpus'", ".sh"),
        ("args: [meson.project_source_root() / '..' / 'other' / 'file.trace'],", ".build"),
        ('open("/work/main/tests/data/x.json")', ".py"),
        ('open("%s")' % os.path.abspath(__file__), ".py"),
        ("  corpus_dir = meson.project_source_root() / '..' / 'shared' / 'corpus'", ".build"),
    ]
    good = [
        ('strata_test_corpus_path ("dmtrace", "x.trace", NULL);', ".c"),
        ('strata_test_fixture_path ("catapult", "flow_simple.json", NULL);', ".c"),
        ('g_test_add_func ("/window/open-sample", test);', ".c"),
        ('corpus = os.environ.get("STRATA_CORPUS_DIR", "")', ".py"),
        ('tool = "/usr/lib/android-sdk/platform-tools/hprof-conv"', ".c"),
        ("exe = executable('x', '../tests/dmtrace-writer.c')", ".build"),
    ]
    ok = True
    for line, language in bad:
        if not offences(line, language, 1):
            print("# the check missed: %s" % line)
            ok = False
    for line, language in good:
        if offences(line, language, 1):
            print("# the check wrongly flagged: %s" % line)
            ok = False
    return ok


def main():
    root = os.path.abspath(sys.argv[1])
    results = [("the check catches paths out of the tree and lets the allowed ones through", self_test(), "")]
    walks = itertools.chain(*(os.walk(os.path.join(root, top)) for top in ("tests", "bench")))
    for dirpath, dirnames, filenames in walks:
        dirnames[:] = sorted(d for d in dirnames if d != "data")
        for name in sorted(filenames):
            language = os.path.splitext(name)[1]
            path = os.path.join(dirpath, name)
            if language not in SOURCES or os.path.samefile(path, __file__):
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            relative = os.path.relpath(path, root)
            found = offences(text, language, relative.count(os.sep))
            detail = "; ".join("line %d: %r" % o for o in found)
            results.append(("%s stays in the tree" % relative, not found, detail))

    print("1..%d" % len(results))
    for i, (name, ok, detail) in enumerate(results, 1):
        print("%s %d - %s%s" % ("ok" if ok else "not ok", i, name, (" # " + detail) if detail else ""))
    return 0 if all(ok for _, ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
