#!/usr/bin/env python3
"""The five floors of src/ depend only downwards:

    model (GLib, GIO, json-glib) -> viewmodel (+ Cairo, Pango)
      -> cli (the command line: reports, diffs, exports; never GTK)
      -> widgets (+ GTK) -> app

cli and widgets stand side by side: neither may include the other, and
only the app uses both. The model has three rooms: core (the trace and
what it holds) uses only core; formats (the loader and one folder per
format) and analysis use core, and analysis may read a format's public
headers; a format never uses another format.

Fails when a source file includes a header of a floor or room it may not
use, when a floor outside widgets and app includes GTK, when the model
includes Cairo or Pango, when src/ holds a folder no rule knows, or when
a source file (or a test's or benchmark's) is longer than MAX_LINES or a function longer than
MAX_FUNCTION_LINES. A self-test first shows that each rule catches what
it should.

usage: check-layers.py SRCDIR
"""

import os
import re
import sys

FLOORS = ["model", "viewmodel", "cli", "widgets", "app"]
MODEL = ["model/core", "model/formats", "model/analysis"]
MAX_LINES = 1000
MAX_FUNCTION_LINES = 80
FUNCTION = re.compile(r"^([a-z_][a-z0-9_]*) \(", re.M)
# The floors each floor may include, its own among them; "model/formats/*"
# stands for every format's folder.
USES = {
    "model/core": {"model/core"},
    "model/formats": {"model/core", "model/formats"},
    "model/formats/*": {"model/core", "model/formats"},
    "model/analysis": {"model/core", "model/formats", "model/formats/*", "model/analysis"},
    "viewmodel": {"model", "viewmodel"},
    "cli": {"model", "viewmodel", "cli"},
    "widgets": {"model", "viewmodel", "widgets"},
    "app": set(FLOORS),
}
# Folders that hold no C of a floor of their own.
PLAIN = {"app/gtk"}


def may_use(floor, owner):
    """Whether a file of @floor may include a header of @owner."""
    if owner == floor:
        return True
    rule = USES["model/formats/*"] if floor.startswith("model/formats/") else USES[floor]
    if owner in rule:
        return True
    if owner.startswith("model/"):
        if "model" in rule:
            return True
        return owner.startswith("model/formats/") and "model/formats/*" in rule
    return False
LOCAL = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SYSTEM = re.compile(r"^\s*#\s*include\s+<([^>]+)>", re.M)
# System headers a floor may not use, by the lowest floor allowed them.
SYSTEM_FLOORS = [("gtk/", {"widgets", "app"}), ("gdk/", {"widgets", "app"}),
                 ("cairo", {"viewmodel", "cli", "widgets", "app"}), ("pango/", {"viewmodel", "cli", "widgets", "app"})]


def offences(floor, text, home):
    """Why @text (a file of @floor) breaks the floors; @home maps a
    header's name to its floor."""
    for header in LOCAL.findall(text):
        owner = home.get(os.path.basename(header))
        if owner is not None and not may_use(floor, owner):
            yield f'includes "{header}" from {owner}'
    for header in SYSTEM.findall(text):
        for prefix, allowed in SYSTEM_FLOORS:
            if header.startswith(prefix) and floor not in allowed:
                yield f"includes <{header}>, which only {', '.join(sorted(allowed))} may use"


def self_test():
    home = {"strata-session.h": "viewmodel", "strata-window.h": "app", "strata-trace.h": "model/core",
            "strata-timeline.h": "widgets", "strata-report.h": "cli", "strata-profile.h": "model/analysis",
            "strata-loader.h": "model/formats", "strata-hprof-index.h": "model/formats/hprof",
            "strata-dmtrace-private.h": "model/formats/dmtrace"}
    bad = [("model/core", '#include "strata-session.h"'), ("viewmodel", '#include "strata-timeline.h"'),
           ("model/core", '#include "strata-profile.h"'), ("model/core", '#include "strata-loader.h"'),
           ("model/formats/hprof", '#include "strata-profile.h"'),
           ("model/formats/hprof", '#include "strata-dmtrace-private.h"'),
           ("widgets", '#include "strata-window.h"'), ("viewmodel", "#include <gtk/gtk.h>"),
           ("model/core", "#include <cairo.h>"), ("model/analysis", "#include <pango/pangocairo.h>"),
           ("cli", "#include <gtk/gtk.h>"), ("cli", '#include "strata-timeline.h"'),
           ("widgets", '#include "strata-report.h"'), ("viewmodel", '#include "strata-report.h"')]
    good = [("viewmodel", '#include "strata-trace.h"'), ("widgets", '#include "strata-session.h"'),
            ("model/analysis", '#include "strata-hprof-index.h"'), ("model/formats/dmtrace", '#include "strata-loader.h"'),
            ("model/formats/hprof", '#include "strata-hprof-index.h"'), ("viewmodel", '#include "strata-profile.h"'),
            ("app", '#include "strata-timeline.h"'), ("widgets", "#include <gtk/gtk.h>"),
            ("viewmodel", "#include <cairo.h>"), ("model/core", "#include <gio/gio.h>"),
            ("model/core", '#include "config.h"'), ("cli", '#include "strata-session.h"'),
            ("app", '#include "strata-report.h"'), ("cli", "#include <cairo.h>")]
    for floor, text in bad:
        if not list(offences(floor, text, home)):
            return f"missed: {text} in {floor}"
    for floor, text in good:
        found = list(offences(floor, text, home))
        if found:
            return f"wrongly flagged: {text} in {floor}: {found}"
    return None


def long_functions(text):
    """(name, lines) of each function of C @text whose body, braces
    included, is longer than MAX_FUNCTION_LINES."""
    lines = text.split("\n")
    found = []
    for number, line in enumerate(lines):
        match = FUNCTION.match(line)
        if not match:
            continue
        start = next((k for k in range(number, len(lines)) if lines[k] == "{"), None)
        end = next((k for k in range(start, len(lines)) if lines[k] == "}"), None) if start is not None else None
        if end is not None and end - start + 1 > MAX_FUNCTION_LINES:
            found.append((match.group(1), end - start + 1))
    return found


def floor_of(src, folder):
    """The floor or room a folder of src/ belongs to, or None."""
    rel = os.path.relpath(folder, src)
    if rel in FLOORS[1:] or rel in MODEL or rel in PLAIN:
        return rel
    if rel.startswith("model/formats/") and rel.count("/") == 2:
        return rel
    return None


def main():
    src = os.path.join(sys.argv[1], "src")
    home = {}
    files = []
    unknown = []
    for folder, dirs, names in os.walk(src):
        dirs.sort()
        floor = floor_of(src, folder)
        sources = [n for n in sorted(names) if n.endswith((".c", ".h"))]
        if floor is None or floor in PLAIN:
            if sources and folder != src and floor not in PLAIN:
                unknown.append(os.path.relpath(folder, src))
            continue
        for name in sources:
            if name.endswith(".h"):
                home[name] = floor
            files.append((floor, os.path.join(folder, name)))

    print("1..4")
    problem = self_test()
    print(("not ok" if problem else "ok") + " 1 the rules catch a file that breaks them" +
          (f" # {problem}" if problem else ""))
    failures = [f"src/{folder}: a folder of C no floor's rule knows" for folder in unknown]
    for floor, path in files:
        with open(path, encoding="utf-8") as f:
            for why in offences(floor, f.read(), home):
                failures.append(f"{os.path.relpath(path, sys.argv[1])}: {why}")
    for failure in failures:
        print(f"# {failure}")
    rooms = len({floor for floor, _ in files})
    print(("not ok" if failures else "ok") + f" 2 {len(files)} files in {rooms} floors and rooms depend only downwards")
    long_files = []
    others = [os.path.join(folder, name) for top in ("tests", "bench")
              for folder, _, names in os.walk(os.path.join(sys.argv[1], top)) if "/data" not in folder
              for name in names if name.endswith((".c", ".h", ".py", ".sh", ".mjs"))]
    for path in [path for _, path in files] + sorted(others):
        with open(path, encoding="utf-8") as f:
            n = sum(1 for _ in f)
        if n > MAX_LINES:
            long_files.append(f"{os.path.relpath(path, sys.argv[1])}: {n} lines")
    for long_file in long_files:
        print(f"# {long_file}")
    print(("not ok" if long_files else "ok") + f" 3 no source or test file over {MAX_LINES} lines")
    long_ones = []
    short = "static int\nf (void)\n{\n" + "  x++;\n" * 10 + "}\n"
    long = "static int\ng (void)\n{\n" + "  x++;\n" * MAX_FUNCTION_LINES + "}\n"
    if long_functions(short) or [name for name, _ in long_functions(long)] != ["g"]:
        long_ones.append("the function length check does not tell a long function from a short one")
    for _, path in files:
        if path.endswith(".c"):
            with open(path, encoding="utf-8") as f:
                long_ones += [f"{os.path.relpath(path, sys.argv[1])}: {name} is {n} lines"
                              for name, n in long_functions(f.read())]
    for long_one in long_ones:
        print(f"# {long_one}")
    print(("not ok" if long_ones else "ok") + f" 4 no function over {MAX_FUNCTION_LINES} lines")
    return 1 if problem or failures or long_files or long_ones else 0


if __name__ == "__main__":
    sys.exit(main())
