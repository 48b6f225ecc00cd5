#!/usr/bin/python3
"""check-accessibility.py STRATA SAMPLE: run Strata on its own session bus,
read its window through AT-SPI (python3-pyatspi) and drive it with the
keyboard alone: names of every control, the timeline's selected call, the
profile's rows, parents and children, and the Open dialog.

Needs a display (the test suite runs under xvfb-run), dbus-run-session,
xdotool and python3-pyatspi; exits 77 (skipped) without them."""
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from strata_atspi import on_own_bus, walk, wait_for  # noqa: E402

on_own_bus(needs=("xdotool",))

try:
    import pyatspi
except ImportError:
    print("1..0 # SKIP python3-pyatspi is not installed")
    sys.exit(77)

strata, sample = sys.argv[1], sys.argv[2]
count = 0
failures = []


def check(name, condition, detail=""):
    global count
    count += 1
    print(f"{'ok' if condition else 'not ok'} {count} - {name}" + ("" if condition else f" # {detail!r}"))
    if not condition:
        failures.append(name)


def find_app():
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        app = desktop.getChildAtIndex(i)
        if app is not None and app.name == "strata":
            return app
    return None


def focused(app):
    for acc in walk(app):
        if acc.getState().contains(pyatspi.STATE_FOCUSED):
            return acc
    return None


def key(*keys):
    subprocess.run(["xdotool", "key", "--clearmodifiers"] + list(keys), check=False)
    time.sleep(0.4)


def by_role(app, role, name=None):
    return [a for a in walk(app) if a.getRoleName() == role and (name is None or a.name == name)]


env = dict(os.environ, GDK_BACKEND="x11", GSK_RENDERER="cairo")
env.pop("GTK_A11Y", None)
env.pop("NO_AT_BRIDGE", None)
# Roles a screen reader announces by name; GTK 4.8 falls back to a type name.
NAMED_ROLES = ("push button", "toggle button", "entry", "combo box", "check box", "radio button",
               "spin button", "text", "menu button", "page tab", "tree table", "table", "list",
               "slider", "link")


def unnamed_controls(frame):
    """The controls GTK would announce by type name; None when the tree
    kept changing under the walk (widgets still being built)."""
    for _ in range(10):
        try:
            return [f"{a.getRoleName()} {a.name!r} in {a.parent.getRoleName()} {a.parent.name!r}"
                    for a in walk(frame) if a.getRoleName() in NAMED_ROLES
                    and (not a.name.strip() or a.name.startswith("Gtk") or a.name == "Tab")][:10]
        except Exception:  # an object went away while we read it
            time.sleep(0.5)
    return None


def open_window(path):
    """Starts Strata on PATH and returns the process and its window."""
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen([strata, path], env=env, stderr=log)
    time.sleep(1)
    if proc.poll() is not None:
        # An X server that resets when its last client leaves refuses
        # connections for a moment: try once more.
        proc = subprocess.Popen([strata, path], env=env, stderr=log)
    title = os.path.basename(path) + " — Strata"
    # Found afresh on each try: an early proxy may keep a stale child list.
    frame = wait_for(lambda: next((f for f in by_role(find_app(), "frame") if f.name == title), None), 60)
    if frame is None:
        log.seek(0)
        apps = wait_for(lambda: [a.name for a in walk(pyatspi.Registry.getDesktop(0), 58)], 5)
        print(f"# no window {title!r}; Strata {'exited ' + str(proc.poll()) if proc.poll() is not None else 'runs'}; "
              f"accessible apps and windows: {apps}")
        for line in log.read().decode(errors="replace").splitlines()[-20:]:
            print("# " + line)
    return proc, frame


def close(proc):
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


def check_names(path):
    proc, frame = open_window(path)
    try:
        label = os.path.basename(path)
        check(f"{label}: the window is named after the trace", frame is not None)
        if frame is None:
            return
        time.sleep(1)  # the heap and summary pages fill in after the window shows
        unnamed = unnamed_controls(frame)
        check(f"{label}: every control, tab and list has a name", unnamed == [], unnamed)
    finally:
        close(proc)


corpus = os.environ.get("STRATA_CORPUS_DIR", "")
for other in ("hprof/studio-perflib-dialer.android-hprof", "json/catapult/instance_counters.json"):
    if os.path.isfile(os.path.join(corpus, other)):
        check_names(os.path.join(corpus, other))
    else:
        print(f"# {other} is not in the corpus; its window is not checked")

proc, frame = open_window(sample)
try:
    title = os.path.basename(sample) + " — Strata"
    app = find_app()
    check("the window is named after the trace", frame is not None, title)
    if frame is None:
        raise SystemExit(1)
    timeline = wait_for(lambda: next((a for a in walk(frame) if a.name == "Timeline"), None))
    check("the timeline is exposed by name", timeline is not None)
    check("the timeline is an image described by its selection",
          timeline is not None and timeline.getRoleName() == "image" and timeline.description == "No call selected",
          timeline and (timeline.getRoleName(), timeline.description))

    unnamed = unnamed_controls(frame)
    check("every control, tab and list has a name", unnamed == [], unnamed)

    table = next((a for a in walk(frame) if a.getRoleName() == "tree table" and a.name == "Profile"), None)
    check("the profile is a tree table named Profile", table is not None)
    headers = [a.name for a in walk(table)] if table else []
    for column in ("Name", "Incl %", "Excl %", "Calls+Rec"):
        check(f"the profile has a {column} column header", any(column in h for h in headers), headers[:20])

    window_id = subprocess.run(["xdotool", "search", "--name", title], capture_output=True, text=True).stdout.split()
    if window_id:
        subprocess.run(["xdotool", "windowfocus", "--sync", window_id[0]], stderr=subprocess.DEVNULL)

    # Keyboard: the timeline's focused call is its accessible description.
    check("the timeline has the keyboard focus after loading",
          timeline is not None and timeline.getState().contains(pyatspi.STATE_FOCUSED))
    key("Right")
    description = timeline.description if timeline else ""
    check("Right selects the first call and describes it", "Depth: 0" in description and "Thread" in description, description)
    key("Down")
    description = timeline.description if timeline else ""
    check("Down moves to its first callee", "Depth: 1" in description, description)

    # Keyboard: Tab into the profile, to its first row.
    row = None
    for _ in range(12):
        key("Tab")
        current = focused(app)
        if current is not None and current.getRoleName() == "table row":
            row = current
            break
    check("Tab reaches the profile's rows", row is not None)
    row_name = row.name if row else ""
    check("a profile row reads its method, share and calls",
          "inclusive" in row_name and "calls" in row_name and not row_name.startswith("Gtk"), row_name)
    key("plus")
    edges = wait_for(lambda: [a.name for a in walk(table) if a.getRoleName() == "table row"
                              and (a.name.startswith("Parent ") or a.name.startswith("Child "))], 5) or []
    check("+ expands the method into parents and children", len(edges) > 0, edges[:5])
    check("each parent or child row reads its calls out of the total",
          edges and all(" of " in e for e in edges), edges[:5])
    key("minus")
    gone = wait_for(lambda: not [a for a in walk(table) if a.getRoleName() == "table row"
                                 and a.name.startswith(("Parent ", "Child "))], 5)
    check("- collapses it again", bool(gone))

    # Keyboard: ? opens the shortcuts window (entries take it as text).
    top_levels = lambda: [find_app().getChildAtIndex(i) for i in range(find_app().childCount)]
    shown = lambda name: next((w for w in top_levels() if w.name == name
                               and w.getState().contains(pyatspi.STATE_SHOWING)), None)
    key("question")
    check("? opens the Keyboard Shortcuts window", wait_for(lambda: shown("Keyboard Shortcuts"), 10) is not None,
          [w.name for w in top_levels()])
    key("Escape")
    check("Escape closes it", bool(wait_for(lambda: shown("Keyboard Shortcuts") is None, 10)))

    # Keyboard: Ctrl+O opens the file chooser, Escape closes it.
    key("ctrl+o")
    # GTK 4.8 gives the dialog a generic role; it is a top-level of the app.
    chooser = wait_for(lambda: next((w for w in top_levels() if w.name == "Open a Trace"), None), 10)
    check("Ctrl+O opens the Open a Trace dialog", chooser is not None, [w.name for w in top_levels()])
    key("Escape")
    closed = wait_for(lambda: all(w.name != "Open a Trace" for w in top_levels()), 10)
    check("Escape closes the Open dialog", bool(closed))
finally:
    close(proc)

print(f"1..{count}")
sys.exit(1 if failures else 0)
