#!/usr/bin/env python3
"""compare-dmtracedump.py STRATA CORPUS_DIR

For every corpus dmtrace file, Strata's per-method inclusive and exclusive
time and calls (on the clock dmtracedump profiles: the first time field)
must equal AOSP's dmtracedump. Where dmtracedump cannot read a file or is
wrong by design, the case is named and Strata's documented behaviour is
asserted instead. Prints TAP."""
import collections
import glob
import json
import os
import re
import shutil
import subprocess
import sys

strata = sys.argv[1]
corpus = os.environ.get("STRATA_CORPUS_DIR", "")
results = []


def report(ok, name, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - {name}{(' # ' + detail) if detail else ''}")


def normalize(name):
    """dmtracedump prints Dalvik classes with slashes and, for ART's
    five-field lines, the source file after a tab."""
    name = name.split("\t")[0].strip()
    head, _, rest = name.partition(" ")
    return head.replace("/", ".") + (" " + rest if rest else "")


def parse_dmtracedump(text):
    """Exclusive times from the first table; inclusive times and calls from
    the main rows of the second and, for methods it leaves out, the rows of
    the last. dmtracedump lists no method that took no time at all."""
    excl, incl, calls, rec = (collections.Counter() for _ in range(4))
    seen = set()
    section = 0
    for line in text.splitlines():
        if line.startswith("Exclusive elapsed times for each method"):
            section = 1
        elif line.startswith("Inclusive elapsed times"):
            section = 2
        elif line.startswith("Exclusive elapsed time for each class"):
            section = 3
        elif line.startswith("Exclusive elapsed time for each method, summed"):
            section = 4
        if section == 1:
            m = re.match(r"^\s*(\d+)\s+[\d.]+\s+[\d.]+\s+\[\s*\d+\]\s+(.*)$", line)
            if m:
                excl[normalize(m.group(2))] += int(m.group(1))
        elif section == 2:
            m = re.match(r"^\[\s*(\d+)\]\s+[\d.]+%\s+(\d+)\+(\d+)\s+(\d+)\s+(.*)$", line)
            if m:
                name = normalize(m.group(5))
                seen.add(m.group(1))
                calls[name] += int(m.group(2))
                rec[name] += int(m.group(3))
                incl[name] += int(m.group(4))
        elif section == 4:
            m = re.match(r"^\s*\d+\s+(\d+)\s+[\d.]+\s+[\d.]+\s+(\d+)\+(\d+)\s+\[\s*(\d+)\]\s+(.*)$", line)
            if m and m.group(4) not in seen:
                name = normalize(m.group(5))
                seen.add(m.group(4))
                incl[name] += int(m.group(1))
                calls[name] += int(m.group(2))
                rec[name] += int(m.group(3))
    return excl, incl, calls, rec


def strata_profile(path):
    out = subprocess.run([strata, "-r", "--format=json", "--clock=cpu", path],
                         capture_output=True, text=True, check=True).stdout
    doc = json.loads(out)
    clock = "thread-cpu" if "thread-cpu" in doc["total"]["clocks"] else "wall"
    excl, incl, calls, rec = (collections.Counter() for _ in range(4))
    names = {}
    for m in doc["methods"]:
        name = "(unknown)" if m["name"].startswith("unknown method 0x") else m["name"]
        names[m["index"]] = name
        t = m["clocks"][clock]
        # dmtracedump works in whole microseconds
        excl[name] += t["exclusive"] // 1000
        incl[name] += t["inclusive"] // 1000
        calls[name] += m["calls"]
        rec[name] += m["recursive"]
    entered_before = collections.Counter()
    for thread in doc["threads"]:
        for method in thread.get("entered_before_tracing", []):
            entered_before[names[method]] += thread["clocks"][clock]["first"] // 1000
    return excl, incl, calls, rec, entered_before


def expect_refusal(path, reason_part):
    run = subprocess.run([strata, "-r", path], capture_output=True, text=True, errors="replace")
    report(run.returncode == 1 and reason_part in run.stderr,
           f"{os.path.basename(path)}: refused with a reason", run.stderr.strip())


# Files dmtracedump cannot profile, and what Strata does instead.
NAMED_CASES = {
    "firefox-profiler-art-trace-streaming.trace": "dmtracedump cannot read the streaming layout",
    "studio-perflib-streaming.trace": "dmtracedump cannot read the streaming layout",
    "studio-perflib-header.trace": "placeholder text instead of data: dmtracedump rejects the version",
    "studio-perflib-basic-special_char.trace": "binary data re-encoded by an editor: dmtracedump reads no records",
}


def compare(path):
    base = os.path.basename(path)
    dd = subprocess.run(["dmtracedump", path], capture_output=True, text=True, errors="replace")
    if base in NAMED_CASES:
        if "streaming" in base:
            run = subprocess.run([strata, "-r", path], capture_output=True, text=True)
            report(run.returncode == 0 and "calls:" in run.stdout, f"{base}: {NAMED_CASES[base]}; Strata loads it")
        elif "header" in base:
            expect_refusal(path, "unknown version")
        else:
            expect_refusal(path, "record size")
        return
    if dd.returncode != 0:
        report(False, f"{base}: dmtracedump failed", dd.stderr.strip()[:200])
        return

    d_excl, d_incl, d_calls, d_rec = parse_dmtracedump(dd.stdout)
    s_excl, s_incl, s_calls, s_rec, entered_before = strata_profile(path)
    names = set(d_calls) | set(s_calls)
    names.discard("(toplevel)")
    mismatches = []
    documented = 0
    omitted = 0
    for name in sorted(names):
        if name not in d_calls:
            # Not in dmtracedump's tables: it took no time at all.
            omitted += 1
            if s_incl[name] != 0 or s_excl[name] != 0:
                mismatches.append(f"{name}: not listed by dmtracedump but incl {s_incl[name]} excl {s_excl[name]}")
            continue
        if name in entered_before:
            # dmtracedump enters these at clock 0, keeps them off its stack
            # and gives the time the stack was empty to (toplevel). Strata
            # enters them at the thread's first timestamp with everything
            # the thread did before inside them, so their later calls there
            # are recursive and their exclusive time includes that gap.
            documented += 1
            if (s_calls[name] + s_rec[name] != d_calls[name] + d_rec[name]
                    or s_incl[name] > d_incl[name] or s_excl[name] < d_excl[name]):
                mismatches.append(f"{name} (entered before tracing): calls {s_calls[name]}+{s_rec[name]} vs "
                                  f"{d_calls[name]}+{d_rec[name]}, incl {s_incl[name]} vs {d_incl[name]}, "
                                  f"excl {s_excl[name]} vs {d_excl[name]}")
            continue
        if (s_calls[name], s_rec[name]) != (d_calls[name], d_rec[name]):
            mismatches.append(f"{name}: calls {s_calls[name]}+{s_rec[name]} vs {d_calls[name]}+{d_rec[name]}")
        elif s_incl[name] != d_incl[name] or s_excl[name] != d_excl[name]:
            mismatches.append(f"{name}: incl {s_incl[name]} vs {d_incl[name]}, excl {s_excl[name]} vs {d_excl[name]}")
    detail = (f"{len(names) - omitted - documented} methods equal"
              + (f", {documented} entered before tracing" if documented else "")
              + (f", {omitted} without time" if omitted else ""))
    report(not mismatches, f"{base}: equals dmtracedump", detail if not mismatches else "; ".join(mismatches[:5]))


if shutil.which("dmtracedump") is None:
    print("1..0 # SKIP dmtracedump is not installed")
    sys.exit(0)

files = sorted(glob.glob(os.path.join(corpus, "dmtrace", "*.trace")))
if not files:
    print("1..0 # SKIP needs the shared corpus (STRATA_CORPUS_DIR=%s has no dmtrace/)" % (corpus or "unset"))
    sys.exit(0)
for f in files:
    compare(f)
print(f"1..{len(results)}")
sys.exit(0 if all(results) else 1)
