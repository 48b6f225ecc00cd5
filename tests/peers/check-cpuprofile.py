#!/usr/bin/env python3
"""check-cpuprofile.py STRATA HOT_JS: a CPU profile node writes now, read
by Strata and by this script on its own.

node --cpu-prof profiles hot.js (work() calls spin() for 15 ms and
light() for 5 ms, twenty times). Strata's collapsed stacks
(strata -r --format=folded) must equal, path for path and nanosecond for
nanosecond, the stacks rebuilt here from the profile's nodes, samples
and time deltas: each sample lasts until the next in time order (the
last until the end), its stack is its node and the node's parents
without "(root)", and "(idle)" samples are no stack. And spin() must
hold about three quarters of the time spin() and light() take in
Strata's JSON report.
Skips without node.

usage: check-cpuprofile.py STRATA HOT_JS
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import v8profile  # noqa: E402


def main():
    strata, hot_js = sys.argv[1:3]
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        print("1..0 # SKIP node is not installed")
        return 0
    results = []
    with tempfile.TemporaryDirectory() as scratch:
        script = os.path.join(scratch, "hot.js")
        shutil.copy(hot_js, script)
        subprocess.run([node, "--cpu-prof", "--cpu-prof-dir", scratch, "--cpu-prof-name", "hot.cpuprofile", script],
                       check=True, capture_output=True)
        path = os.path.join(scratch, "hot.cpuprofile")
        with open(path, encoding="utf-8") as f:
            profile = json.load(f)
        expected = v8profile.folded(profile["nodes"], profile["samples"], profile["timeDeltas"],
                                    profile["startTime"], profile["endTime"])
        run = subprocess.run([strata, "-r", "--format=folded", path], capture_output=True, text=True, check=True)
        n_differ, detail = v8profile.differences(expected, v8profile.strata_folded(run.stdout))
        results.append((f"the folded stacks equal the {len(expected)} paths rebuilt from the profile", n_differ == 0,
                        detail))
        report = json.loads(subprocess.run([strata, "-r", "--format=json", path], capture_output=True, text=True,
                                           check=True).stdout)
        incl = {m["method"]: m["clocks"]["wall"]["inclusive"]
                for m in report["methods"] if m["source"].endswith("/hot.js")}
        # Both loop on the wall clock, 15 ms and 5 ms: whatever else runs
        # (the loop itself, the collector, other tests on the machine),
        # spin() holds 3/4 of the time the two take.
        both = incl.get("spin", 0) + incl.get("light", 0)
        share = incl.get("spin", 0) / both if both else 0
        results.append(("spin() holds 3/4 of the time spin() and light() take, within 5 points",
                        abs(share - 0.75) < 0.05, f"{share:.3f}"))
    return v8profile.print_tap(results)


if __name__ == "__main__":
    sys.exit(main())
