#!/usr/bin/python3
"""check-second-instance.py STRATA SAMPLE OBFUSCATOR: a second `strata`
keeps its options.

With Strata already running, `strata --view=flame FILE`, `strata
--compare=BASELINE FILE` and `strata --mapping=MAPPING FILE` hand their
command line to the running instance and exit; the window it opens must
show the flame graph, the comparison and the mapping's names. Paths are
taken from the directory the second `strata` was started in. A bad
option is refused by the second process itself (exit 2). The windows are
read through AT-SPI, on a session bus of the test's own.

Needs a display, dbus-run-session and python3-pyatspi; skipped without
them."""
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from strata_atspi import on_own_bus, walk, wait_for  # noqa: E402

on_own_bus(needs=())

try:
    import pyatspi
except ImportError:
    print("1..0 # SKIP python3-pyatspi is not installed")
    sys.exit(77)

strata, sample, obfuscator = (os.path.abspath(a) for a in sys.argv[1:4])
env = dict(os.environ, GDK_BACKEND="x11", GSK_RENDERER="cairo")
env.pop("GTK_A11Y", None)
env.pop("NO_AT_BRIDGE", None)
count = 0
failed = False


def check(name, condition, detail=""):
    global count, failed
    count += 1
    failed |= not condition
    print(f"{'ok' if condition else 'not ok'} {count} - {name}" + ("" if condition else f" # {detail}"))


def frames():
    desktop = pyatspi.Registry.getDesktop(0)
    found = []
    for i in range(desktop.childCount):
        app = desktop.getChildAtIndex(i)
        if app is not None and app.name == "strata":
            found += [a for a in walk(app, 58) if a.getRoleName() == "frame"]
    return found


def states(acc):
    return {pyatspi.stateToString(s) for s in acc.getState().getStates()}


def second(*args, cwd=None):
    """Runs a second strata; its exit status, seconds taken and stderr."""
    start = time.monotonic()
    done = subprocess.run([strata, *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=120)
    return done.returncode, time.monotonic() - start, done.stderr.strip()


def new_frame(before, title):
    """The window titled @title that was not so titled in @before (the
    empty window a file opens in first had another title)."""
    titled = [f for f in before if f.name == title]
    return wait_for(lambda: next((f for f in frames() if f.name == title and f not in titled), None))


def selected_tab(frame):
    return next((a.name for a in walk(frame) if a.getRoleName() == "page tab" and "selected" in states(a)), None)


def has_text(frame, text):
    return any(text in (a.name or "") for a in walk(frame))


title = os.path.basename(sample) + " — Strata"
# The first strata shows another trace, as a user's would.
first = os.path.join(os.path.dirname(obfuscator), "..", "data", "counters.json")
primary = subprocess.Popen([strata, first], env=env, stderr=subprocess.DEVNULL)
try:
    if not wait_for(lambda: [f for f in frames() if f.name == "counters.json — Strata"]):
        print("1..1\nnot ok 1 - the first strata never showed a window")
        sys.exit(1)

    rc, seconds, err = second("--view=bottom", sample)
    check("a bad option in the second strata is refused there (exit 2)", rc == 2 and "--view" in err, f"{rc} {err}")

    before = frames()
    rc, seconds, err = second("--view=flame", sample)
    check(f"the second strata hands --view=flame over and exits ({seconds:.2f} s)", rc == 0, f"{rc} {err}")
    frame = new_frame(before, title)
    check("the running strata opens the file in a window", frame is not None)
    if frame is not None:
        flame = wait_for(lambda: next((a for a in walk(frame) if a.name == "_Flame Graph Flame Graph"
                                       and "pressed" in states(a)), None))
        check("… on the call tree's page, its flame graph shown",
              selected_tab(frame) == "Call Tree" and flame is not None, f"tab {selected_tab(frame)}")

    # From another directory, the baseline given relative to it.
    here = os.path.dirname(sample)
    before = frames()
    rc, seconds, err = second("--compare=" + os.path.basename(sample), sample, cwd=here)
    frame = new_frame(before, title) if rc == 0 else None
    tab = wait_for(lambda: selected_tab(frame) == "Compare") if frame is not None else None
    check("--compare=BASELINE (relative to the second strata's folder) opens the Compare page",
          rc == 0 and tab, f"{rc} {err}, tab {frame and selected_tab(frame)}")

    with tempfile.TemporaryDirectory() as tmp:
        obfuscated = os.path.join(tmp, "obf.trace")
        subprocess.run([sys.executable, obfuscator, sample, obfuscated, os.path.join(tmp, "mapping.txt")], check=True)
        before = frames()
        rc, seconds, err = second("--mapping=mapping.txt", "obf.trace", cwd=tmp)
        frame = new_frame(before, "obf.trace — Strata") if rc == 0 else None
        named = wait_for(lambda: has_text(frame, "YYTaskExecutor")) if frame is not None else None
        check("--mapping=MAPPING shows the mapping's names in the window it opens",
              rc == 0 and named, f"{rc} {err}")
finally:
    primary.terminate()
    try:
        primary.wait(10)
    except subprocess.TimeoutExpired:
        primary.kill()

print(f"1..{count}")
sys.exit(1 if failed else 0)
