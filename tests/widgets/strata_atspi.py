"""strata_atspi.py: what the tests that read Strata's windows through
AT-SPI share (check-accessibility.py, check-second-instance.py)."""
import time


def walk(acc, depth=0):
    """@acc and everything below it, depth first."""
    yield acc
    if depth > 60:
        return
    try:
        children = [acc.getChildAtIndex(i) for i in range(acc.childCount)]
    except Exception:  # it went away while we read it
        return
    for child in children:
        if child is not None:
            yield from walk(child, depth + 1)


def wait_for(predicate, seconds=60):
    """The first true value of @predicate() within @seconds, or None; an
    error counts as not yet (the tree changes while GTK builds it)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            value = predicate()
        except Exception:
            value = None
        if value:
            return value
        time.sleep(0.2)
    return None


def on_own_bus(needs=()):
    """Runs this script again on a session bus of its own (AT-SPI, and a
    GApplication's uniqueness, live there), unless it already is; skips
    (exit 77) without dbus-run-session, a display or the programs
    @needs. The bus daemons print on stdout, so TAP goes to its own fd,
    which becomes sys.stdout."""
    import os
    import shutil
    import subprocess
    import sys

    if os.environ.get("STRATA_OWN_BUS") != "1":
        missing = [p for p in ("dbus-run-session", *needs) if not shutil.which(p)]
        if missing or "DISPLAY" not in os.environ:
            print(f"1..0 # SKIP needs {', '.join(missing) or 'a display'}")
            sys.exit(77)
        tap_fd = os.dup(1)
        env = dict(os.environ, STRATA_OWN_BUS="1", STRATA_TAP_FD=str(tap_fd))
        sys.exit(subprocess.call(["dbus-run-session", "--", "/usr/bin/python3"] + sys.argv, env=env,
                                 stdout=sys.stderr, pass_fds=(tap_fd,)))
    sys.stdout = os.fdopen(int(os.environ.get("STRATA_TAP_FD", "1")), "w", buffering=1)
