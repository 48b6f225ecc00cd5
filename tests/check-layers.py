#!/usr/bin/env python3
"""The five floors of src/ depend only downwards:

    model (GLib, GIO, json-glib) -> viewmodel (+ Cairo, Pango)
      -> cli (the command line: reports, diffs, exports; never GTK)
      -> widgets (+ GTK) -> app

cli and widgets stand side by side: neither may include the other, and
only the app uses both. Fails when a source file includes a header of a
floor it may not use, when a floor outside widgets and app includes GTK,
or when the model includes Cairo or Pango. A self-test first shows that
each rule catches what it should.

usage: check-layers.py SRCDIR
"""

import os
import re
import sys

FLOORS = ["model", "viewmodel", "cli", "widgets", "app"]
# The floors each floor may include, its own among them.
USES = {
    "model": {"model"},
    "viewmodel": {"model", "viewmodel"},
    "cli": {"model", "viewmodel", "cli"},
    "widgets": {"model", "viewmodel", "widgets"},
    "app": set(FLOORS),
}
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
        if owner is not None and owner not in USES[floor]:
            yield f'includes "{header}" from {owner}'
    for header in SYSTEM.findall(text):
        for prefix, allowed in SYSTEM_FLOORS:
            if header.startswith(prefix) and floor not in allowed:
                yield f"includes <{header}>, which only {', '.join(sorted(allowed))} may use"


def self_test():
    home = {"strata-session.h": "viewmodel", "strata-window.h": "app", "strata-trace.h": "model",
            "strata-timeline.h": "widgets", "strata-report.h": "cli"}
    bad = [("model", '#include "strata-session.h"'), ("viewmodel", '#include "strata-timeline.h"'),
           ("widgets", '#include "strata-window.h"'), ("viewmodel", "#include <gtk/gtk.h>"),
           ("model", "#include <cairo.h>"), ("model", "#include <pango/pangocairo.h>"),
           ("cli", "#include <gtk/gtk.h>"), ("cli", '#include "strata-timeline.h"'),
           ("widgets", '#include "strata-report.h"'), ("viewmodel", '#include "strata-report.h"')]
    good = [("viewmodel", '#include "strata-trace.h"'), ("widgets", '#include "strata-session.h"'),
            ("app", '#include "strata-timeline.h"'), ("widgets", "#include <gtk/gtk.h>"),
            ("viewmodel", "#include <cairo.h>"), ("model", "#include <gio/gio.h>"),
            ("model", '#include "config.h"'), ("cli", '#include "strata-session.h"'),
            ("app", '#include "strata-report.h"'), ("cli", "#include <cairo.h>")]
    for floor, text in bad:
        if not list(offences(floor, text, home)):
            return f"missed: {text} in {floor}"
    for floor, text in good:
        found = list(offences(floor, text, home))
        if found:
            return f"wrongly flagged: {text} in {floor}: {found}"
    return None


def main():
    src = os.path.join(sys.argv[1], "src")
    home = {}
    files = []
    for floor in FLOORS:
        for name in sorted(os.listdir(os.path.join(src, floor))):
            if name.endswith(".h"):
                home[name] = floor
            if name.endswith((".c", ".h")):
                files.append((floor, os.path.join(src, floor, name)))

    print("1..2")
    problem = self_test()
    print(("not ok" if problem else "ok") + " 1 the rules catch a file that breaks them" +
          (f" # {problem}" if problem else ""))
    failures = []
    for floor, path in files:
        with open(path, encoding="utf-8") as f:
            for why in offences(floor, f.read(), home):
                failures.append(f"{os.path.relpath(path, sys.argv[1])}: {why}")
    for failure in failures:
        print(f"# {failure}")
    print(("not ok" if failures else "ok") + f" 2 {len(files)} files in {len(FLOORS)} floors depend only downwards")
    return 1 if problem or failures else 0


if __name__ == "__main__":
    sys.exit(main())
