#!/usr/bin/env python3
"""check-folded.py STRATA FILE...: the collapsed stacks `strata -r
--format=folded` prints for Trace Event JSON files equal stacks rebuilt here
from the events themselves: complete (X) and begin/end (B/E) slices nested
per thread, each path's self time its duration less its children's. Files
whose slices do not nest properly, or that hold stack samples, are skipped
with a reason (their reading is a matter of policy, not of arithmetic).
With $STRATA_CORPUS_DIR, the corpus's Trace Event files are checked too."""
import decimal
import gzip
import json
import os
import subprocess
import sys


def load_events(path):
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    with opener(path, "rt", encoding="utf-8") as f:
        # Times as the decimals they are written as: Strata reads them exactly.
        data = json.load(f, parse_float=decimal.Decimal)
    if isinstance(data, dict):
        if "samples" in data or "stackFrames" in data:
            return "it holds stack samples"
        return data.get("traceEvents")
    return data


def ns(micros):
    """Microseconds (a decimal) to nanoseconds, rounded as Strata rounds."""
    return int((decimal.Decimal(micros) * 1000).quantize(decimal.Decimal(1), rounding=decimal.ROUND_HALF_UP))


def rebuild(events):
    """{'thread;a;b': self_ns} or a reason to skip."""
    names, slices, open_slices = {}, {}, {}
    for e in events:
        if not isinstance(e, dict):
            continue
        ph, key = e.get("ph"), (e.get("pid"), e.get("tid"))
        if ph == "M" and e.get("name") == "thread_name":
            names[key] = (e.get("args") or {}).get("name")
        elif ph in ("P", "O") or "stackFrames" in e or "sf" in e and ph not in ("s", "t", "f"):
            return "it holds stack samples"
        elif ph == "X":
            start = ns(e["ts"])
            slices.setdefault(key, []).append((start, start + ns(e.get("dur", 0)), e.get("name", "")))
        elif ph == "B":
            open_slices.setdefault(key, []).append((ns(e["ts"]), e.get("name", "")))
        elif ph == "E":
            stack = open_slices.get(key)
            if not stack:
                return "an E event has no B"
            start, name = stack.pop()
            slices.setdefault(key, []).append((start, ns(e["ts"]), name))
    if any(open_slices.values()):
        return "a B event is never ended"
    folded = {}
    for key, items in slices.items():
        thread = names.get(key) or str(key[1])
        items.sort(key=lambda s: (s[0], -s[1]))
        stack = []   # [end, path, self]
        for start, end, name in items:
            if end <= start:
                return "it has slices of no length"
            while stack and stack[-1][0] <= start:
                _, path, own = stack.pop()
                folded[path] = folded.get(path, 0) + own
            if stack and end > stack[-1][0]:
                return "its slices overlap without nesting"
            if stack:
                stack[-1][2] -= end - start
            path = (stack[-1][1] if stack else thread) + ";" + name
            stack.append([end, path, end - start])
        while stack:
            _, path, own = stack.pop()
            folded[path] = folded.get(path, 0) + own
    return {k: v for k, v in folded.items() if v > 0}


def strata_folded(strata, path):
    """The stacks strata writes; None when it refuses a file with no calls
    (exit 2, as it must)."""
    run = subprocess.run([strata, "-r", "--format=folded", "--clock=wall", path],
                         capture_output=True, text=True)
    if run.returncode == 2 and "no calls" in run.stderr:
        return None
    if run.returncode != 0:
        raise RuntimeError(f"{path}: exit {run.returncode}: {run.stderr}")
    out = run.stdout
    if not out.startswith("# clock=wall unit=ns\n"):
        raise RuntimeError(f"{path}: folded output does not start with its clock: {out[:40]!r}")
    folded = {}
    for line in out.splitlines():
        stack, _, weight = line.rpartition(" ")
        if ";" in stack:   # a thread's own time outside its calls has no frame
            folded[stack] = folded.get(stack, 0) + int(weight)
    return folded


def corpus_files():
    """The shared corpus's Trace Event files, when there is one."""
    root = os.environ.get("STRATA_CORPUS_DIR")
    if not root or not os.path.isdir(os.path.join(root, "json")):
        return []
    found = []
    for folder, _, names in os.walk(os.path.join(root, "json")):
        found += [os.path.join(folder, n) for n in names if ".json" in n]
    return sorted(found)


def main():
    strata, files = sys.argv[1], sys.argv[2:] + corpus_files()
    results = []
    for path in files:
        try:
            events = load_events(path)
        except (ValueError, OSError, EOFError):
            events = None
        if isinstance(events, str):
            expected = events
        elif not isinstance(events, list):
            expected = "it is not a whole Trace Event document"
        else:
            expected = rebuild(events)
        if isinstance(expected, str):
            results.append((None, "%s: skipped, %s" % (path, expected)))
            continue
        got = strata_folded(strata, path)
        if got is None:
            results.append((not expected, "%s: no calls, refused with exit 2%s" % (
                path, "" if not expected else ", but the events hold %d stacks" % len(expected))))
            continue
        differ = sorted(k for k in set(expected) | set(got) if expected.get(k) != got.get(k))
        results.append((not differ, "%s: %d stacks%s" % (path, len(expected),
                        "" if not differ else ", differing: %s" % [(k, expected.get(k), got.get(k)) for k in differ[:3]])))
    print("1..%d" % len(results))
    for n, (ok, text) in enumerate(results, 1):
        print("%s %d - %s%s" % ("ok" if ok is not False else "not ok", n, text, " # SKIP" if ok is None else ""))
    return 0 if all(ok is not False for ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
