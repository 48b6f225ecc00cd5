#!/usr/bin/env python3
"""check-chrome-profile.py STRATA PAGE: a Chrome recording's JavaScript
samples, read by Strata and by this script on its own.

Debian's chromium, headless, records the page (work() calls spin() for
15 ms and light() for 5 ms, thirty times, measuring each call) with
V8's sampling profiler (--trace-startup with
disabled-by-default-v8.cpu_profiler): a Trace Event file whose Profile and ProfileChunk events hold the samples.
Strata lays the samples out among the thread's trace events, as DevTools
draws them: a trace event keeps its times, so where a sample taken
during one says another function runs than the one the event runs
under, the event's caller keeps the time. So Strata's collapsed stacks,
with the trace events left out, must equal the stacks rebuilt here from
the chunks (v8profile.py) for the page's script but for at most 1 % of
its time (the browser's own pages, run at startup among many trace
events, are counted but not held to it), and spin() must hold, within
5 points, the share of spin() and light() the page measured of its own
calls with performance.measure (about three quarters): V8 samples every
100 µs or so on a busy 2-core machine, and a run came 3.1 points off.
Skips without chromium.

usage: check-chrome-profile.py STRATA PAGE
"""

import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import v8profile  # noqa: E402


def complete(path):
    """Whether chromium has finished writing the trace."""
    try:
        with open(path, encoding="utf-8") as f:
            json.load(f)
        return True
    except (OSError, ValueError):
        return False


def record(chromium, page, scratch):
    """Headless chromium keeps the page open: it is stopped once the
    trace it writes after 3 s is whole."""
    trace = os.path.join(scratch, "trace.json")
    process = subprocess.Popen([chromium, "--headless=new", "--no-sandbox", "--disable-gpu",
                                f"--user-data-dir={scratch}/profile",
                                "--trace-startup=disabled-by-default-v8.cpu_profiler,devtools.timeline,v8.execute,blink.user_timing",
                                f"--trace-startup-file={trace}", "--trace-startup-duration=3",
                                "--trace-startup-format=json", "file://" + os.path.abspath(page)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not complete(trace):
        time.sleep(0.5)
    process.kill()
    process.wait()
    return trace


def expected_stacks(events):
    """The JavaScript samples of each profile, as Strata names its threads."""
    names = {(e.get("pid"), e.get("tid")): e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name" and "args" in e}
    profiles = collections.OrderedDict()
    for event in events:
        if event.get("ph") != "P" or event.get("name") not in ("Profile", "ProfileChunk"):
            continue
        key = (event.get("pid"), event.get("id"))
        profile = profiles.setdefault(key, {"thread": (event.get("pid"), event.get("tid")), "start": 0,
                                            "nodes": [], "samples": [], "deltas": []})
        data = event.get("args", {}).get("data", {})
        if event["name"] == "Profile":
            profile["start"] = data.get("startTime", 0)
            continue
        cpu = data.get("cpuProfile", {})
        profile["nodes"] += cpu.get("nodes", [])
        samples = cpu.get("samples", [])
        deltas = data.get("timeDeltas", [])
        profile["samples"] += samples
        profile["deltas"] += deltas + [0] * (len(samples) - len(deltas))
    weights = collections.Counter()
    for profile in profiles.values():
        thread = names.get(profile["thread"], "")
        v8profile.folded(profile["nodes"], profile["samples"], profile["deltas"], profile["start"], timeline=True,
                         thread=thread, weights=weights)
    return weights, len(profiles), sum(len(p["samples"]) for p in profiles.values())


def measured_share(events):
    """spin()'s share of the time of the calls the page measured with
    performance.measure (async "b"/"e" pairs of blink.user_timing)."""
    begins, totals = {}, collections.Counter()
    for event in events:
        name = event.get("name")
        if name not in ("spin-call", "light-call") or event.get("ph") not in ("b", "e"):
            continue
        key = (name, event.get("id", event.get("id2", {}).get("local")))
        if event["ph"] == "b":
            begins[key] = event["ts"]
        elif key in begins:
            totals[name] += event["ts"] - begins.pop(key)
    both = totals["spin-call"] + totals["light-call"]
    return totals["spin-call"] / both if both else None


def main():
    strata, page = sys.argv[1:3]
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("1..0 # SKIP chromium is not installed (build-aux/install-peers.sh)")
        return 0
    results = []
    with tempfile.TemporaryDirectory() as scratch:
        trace = record(chromium, page, scratch)
        if not complete(trace):
            print("1..0 # SKIP chromium wrote no trace")
            return 0
        with open(trace, encoding="utf-8") as f:
            document = json.load(f)
        events = document["traceEvents"] if isinstance(document, dict) else document
        expected, n_profiles, n_samples = expected_stacks(events)
        report = json.loads(subprocess.run([strata, "-r", "--format=json", trace], capture_output=True, text=True,
                                           check=True).stdout)
        javascript = {v8profile.folded_name(m["name"]) for m in report["methods"] if m.get("class") == "JavaScript"}
        run = subprocess.run([strata, "-r", "--format=folded", trace], capture_output=True, text=True, check=True)
        got = v8profile.strata_folded(run.stdout, frames=lambda frame: frame in javascript)
        # The page's own script is compared; the browser's own pages
        # run at startup too, among many more trace events.
        page = {k: v for k, v in expected.items() if "/spin.html:" in k}
        page_got = {k: v for k, v in got.items() if "/spin.html:" in k}
        total = sum(page.values())
        moved = sum(abs(page.get(k, 0) - page_got.get(k, 0)) for k in set(page) | set(page_got)) / 2
        everything = sum(abs(expected.get(k, 0) - got.get(k, 0)) for k in set(expected) | set(got)) / 2
        n_differ, detail = v8profile.differences(page, page_got, limit=3)
        results.append((f"{n_samples} samples of {n_profiles} profiles: the folded stacks of the page's script "
                        f"without trace events give the {len(page)} paths rebuilt from the chunks all but 1 % of the time",
                        n_samples > 0 and total > 0 and moved <= 0.01 * total,
                        f"{moved / max(total, 1):.2%} of {total / 1e6:.1f} ms elsewhere, on {n_differ} paths "
                        f"({everything / max(sum(expected.values()), 1):.2%} of all the recording's script); {detail}"))
        incl = {m["name"].split(" (")[0]: m["clocks"]["wall"]["inclusive"]
                for m in report["methods"] if "/spin.html:" in m["name"]}
        # The page measured each call itself: the share spin() took of
        # spin() and light() in this run, whatever else the machine did.
        measured = measured_share(events)
        both = incl.get("spin", 0) + incl.get("light", 0)
        share = incl.get("spin", 0) / both if both else 0
        results.append(("spin() holds the share of spin() and light() the page measured, within 5 points",
                        measured is not None and abs(share - measured) < 0.05,
                        f"{share:.3f} sampled, {measured if measured is None else round(measured, 3)} measured"))
    return v8profile.print_tap(results)


if __name__ == "__main__":
    sys.exit(main())
