#!/usr/bin/env python3
"""check-reports.py STRATA FILE...: every output of the command line,
on every file, read back by a parser of its own.

For each file given and each file of the shared corpus (when
STRATA_CORPUS_DIR names one), `strata -r` runs in every format: text,
JSON, CSV, folded stacks, the call tree top down and bottom up (text and
JSON), and a diff against itself (text and JSON); the picture of it goes
through --export as SVG and PDF. Python's json reads the JSON, its csv
the CSV, patterns the text's rows and each folded line, xmllint the SVG,
pdfinfo the PDF. Beyond parsing:

- a file that cannot be read fails with exit 1 in every format, and a
  file with no calls refuses trees and stacks with exit 2;
- nothing is printed on standard error but what the file's own mapping
  or damage calls for: no GLib critical or warning, no sanitizer report;
- the top-down tree adds up (a node's total is its self plus its
  children's totals, on every clock) and bottom up every method has the
  profile's calls (recursive ones included), zero-time calls too;
- folded stacks start with the clock they are on and add up to the
  profile's total on it;
- a file against itself has no differences.

usage: check-reports.py STRATA FILE...
"""

import concurrent.futures
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

FOLDED_LINE = re.compile(r"^.+ \d+$")
NOISE = re.compile(r"CRITICAL|WARNING \*\*|-WARNING|ERROR: AddressSanitizer|runtime error:|LeakSanitizer")
UNREADABLE = 1
USAGE = 2


def corpus_files():
    root = os.environ.get("STRATA_CORPUS_DIR")
    if not root or not os.path.isdir(root):
        return []
    found = []
    for folder, _, names in os.walk(root):
        found += [os.path.join(folder, n) for n in names if not n.endswith(".md")]
    return sorted(found)


def run(strata, *args):
    done = subprocess.run([strata, *args], capture_output=True, timeout=600)
    return done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")


def adds_up(nodes, clocks):
    """The first node of @nodes' trees whose total is not its self plus
    its children's totals, or None."""
    stack = list(nodes)
    while stack:
        node = stack.pop()
        for clock in clocks:
            below = sum(child["total"][clock] for child in node["children"])
            if node["total"][clock] != node["self"][clock] + below:
                return f"{node['name']} on {clock}: {node['total'][clock]} != {node['self'][clock]} + {below}"
        stack.extend(node["children"])
    return None


METHOD_ROW = re.compile(r"^ *\d+\.\d% +\S.* +\d+\.\d% +\S.* +\d+\+\d+ +\S.*  \S")


def text_problems(text, profile):
    """The text report read back: its clock line, and a row per method
    called, each with its columns."""
    lines = text.splitlines()
    if not any(line.startswith("Clock: ") for line in lines):
        return ["text: no Clock line"]
    try:
        start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("Incl %")) + 1
    except StopIteration:
        return ["text: no table of methods"]
    rows = []
    for line in lines[start:]:
        if not line.strip():
            break
        rows.append(line)
    bad = [row for row in rows if not METHOD_ROW.match(row)]
    called = sum(1 for m in profile["methods"] if m["calls"] + m["recursive"] > 0)
    if bad:
        return [f"text: {len(bad)} rows unreadable, e.g. {bad[0][:120]!r}"]
    if len(rows) != called:
        return [f"text: {len(rows)} rows for {called} methods called"]
    return []


def csv_problems(table, profile):
    """The CSV report read back by Python's csv: a header, then a row per
    method called (a heap dump: per class), each as wide as the header."""
    if table is None:
        return []
    try:
        rows = list(csv.reader(io.StringIO(table, newline="")))
    except csv.Error as e:
        return [f"csv: {e}"]
    if not rows or any(len(row) != len(rows[0]) for row in rows):
        return ["csv: rows of differing widths"]
    if profile["calls"] == 0 and "classes" in profile:
        wanted = len(profile["classes"])
    else:
        wanted = sum(1 for m in profile["methods"] if m["calls"] + m["recursive"] > 0)
    if len(rows) - 1 != wanted:
        return [f"csv: {len(rows) - 1} rows for {wanted}"]
    return []


def check_file(strata, path, scratch):
    """What is wrong with the outputs for @path, as a list of texts, and
    a note of what was checked."""
    problems = []

    def outputs(name, *args, allowed=(0,)):
        rc, out, err = run(strata, *args, path)
        if NOISE.search(err):
            problems.append(f"{name}: noise on standard error: {err.strip()[:200]}")
        if rc not in allowed:
            problems.append(f"{name}: exit {rc}: {err.strip()[:200]}")
            return rc, None
        return rc, out

    rc, text = outputs("text", "-r", allowed=(0, UNREADABLE))
    if rc == UNREADABLE:
        # Every format must fail the same way.
        for name, args in (("json", ["-r", "--format=json"]), ("folded", ["-r", "--format=folded"]),
                           ("tree", ["-r", "--tree=top-down"])):
            outputs(name, *args, allowed=(UNREADABLE,))
        return problems, "unreadable, exit 1 in every format"

    _, report = outputs("json", "-r", "--format=json")
    try:
        profile = json.loads(report)
    except (TypeError, ValueError) as e:
        problems.append(f"json: {e}")
        return problems, "json unreadable"
    clock = profile["clock"]
    if profile["calls"] > 0:
        problems += text_problems(text, profile)

    _, table = outputs("csv", "-r", "--format=csv")
    problems += csv_problems(table, profile)

    if profile["calls"] == 0:
        for name, args in (("folded", ["-r", "--format=folded"]), ("tree", ["-r", "--tree=top-down"])):
            rc, _ = outputs(name, *args, allowed=(USAGE,))
        return problems, "no calls: trees and stacks refused"

    _, folded = outputs("folded", "-r", "--format=folded")
    if folded is not None:
        lines = folded.splitlines()
        unit = "samples" if clock == "samples" else "ns"
        if not lines or lines[0] != f"# clock={clock} unit={unit}":
            problems.append(f"folded: first line {lines[:1]}")
        bad = [line for line in lines[1:] if not FOLDED_LINE.match(line)]
        if bad:
            problems.append(f"folded: {len(bad)} lines unreadable, e.g. {bad[0][:120]!r}")

    _, tree = outputs("tree json", "-r", "--tree=top-down", "--format=json")
    try:
        top_down = json.loads(tree)
        wrong = adds_up(top_down["nodes"], top_down["clocks"])
        if wrong:
            problems.append(f"tree: does not add up: {wrong}")
        if top_down["clock"] != clock:
            problems.append(f"tree: clock {top_down['clock']}, the report's {clock}")
    except (TypeError, ValueError) as e:
        problems.append(f"tree json: {e}")

    _, tree = outputs("bottom-up json", "-r", "--tree=bottom-up", "--format=json", "--depth=1")
    try:
        roots = {}
        for node in json.loads(tree)["nodes"]:
            roots[node["name"]] = roots.get(node["name"], 0) + node["calls"]
        wanted = {}
        for method in profile["methods"]:
            wanted[method["name"]] = wanted.get(method["name"], 0) + method["calls"] + method["recursive"]
        differ = [(name, roots.get(name, 0), n) for name, n in wanted.items() if roots.get(name, 0) != n]
        if differ:
            problems.append(f"bottom-up: {len(differ)} methods' calls differ from the profile's, e.g. {differ[0]}")
    except (TypeError, ValueError) as e:
        problems.append(f"bottom-up json: {e}")

    outputs("tree text", "-r", "--tree=bottom-up", "--depth=3")
    _, table = outputs("tree csv", "-r", "--tree=top-down", "--format=csv")
    try:
        rows = list(csv.reader(io.StringIO(table, newline="")))
        nodes, stack = 0, list(top_down["nodes"])
        while stack:
            node = stack.pop()
            nodes += 1
            stack.extend(node["children"])
        if len(rows) - 1 != nodes or any(len(row) != len(rows[0]) for row in rows):
            problems.append(f"tree csv: {len(rows) - 1} rows for {nodes} nodes")
    except (TypeError, ValueError, csv.Error, NameError) as e:
        problems.append(f"tree csv: {e}")

    _, diff = outputs("diff", "-r", f"--diff={path}")
    if diff is not None and "no differences" not in diff:
        problems.append("diff: the file differs from itself")
    _, diff = outputs("diff json", "-r", "--format=json", f"--diff={path}")
    try:
        json.loads(diff)
    except (TypeError, ValueError) as e:
        problems.append(f"diff json: {e}")

    svg = os.path.join(scratch, os.path.basename(path) + ".svg")
    rc, _ = outputs("svg", f"--export={svg}")
    if rc == 0 and shutil.which("xmllint"):
        lint = subprocess.run(["xmllint", "--noout", "--huge", svg], capture_output=True, text=True)
        if lint.returncode != 0:
            problems.append(f"svg: xmllint: {lint.stderr[:200]}")
    if os.path.exists(svg):
        os.unlink(svg)
    pdf = os.path.join(scratch, os.path.basename(path) + ".pdf")
    rc, _ = outputs("pdf", f"--export={pdf}")
    if rc == 0 and shutil.which("pdfinfo"):
        info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True)
        if info.returncode != 0 or "Pages:" not in info.stdout:
            problems.append(f"pdf: pdfinfo: {info.stderr[:200]}")
    if os.path.exists(pdf):
        os.unlink(pdf)
    return problems, f"{profile['calls']} calls on {clock}"


def main():
    strata = sys.argv[1]
    files = sys.argv[2:] + corpus_files()
    if not os.environ.get("STRATA_CORPUS_DIR"):
        print("# no corpus (STRATA_CORPUS_DIR): only the repository's files")
    with tempfile.TemporaryDirectory() as scratch, concurrent.futures.ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda p: check_file(strata, p, scratch), files))
    print(f"1..{len(files)}")
    failed = 0
    for n, (path, (problems, note)) in enumerate(zip(files, results), 1):
        name = os.path.relpath(path)
        if problems:
            failed += 1
            print(f"not ok {n} - {name}")
            for problem in problems:
                print(f"# {problem}")
        else:
            print(f"ok {n} - {name}: {note}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
