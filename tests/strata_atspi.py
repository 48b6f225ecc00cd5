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
