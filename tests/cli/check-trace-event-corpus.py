#!/usr/bin/env python3
"""Every Trace Event file of the corpus, loaded by `strata -r --format=json`.

Counts of events by phase must equal the ones this script finds with
Python's own json module, applying the same repairs as the loader: a
missing closing "]", a trailing comma and a last event cut mid-object
keep the complete events before them. Per-thread call counts and depths
must match the snapshot in tests/data/trace-event-corpus.json (rewrite it
with --update after a deliberate change). Files that are not traces must
be refused with a message. Output is TAP.

usage: check-trace-event-corpus.py STRATA SNAPSHOT [--update]
(the corpus is $STRATA_CORPUS_DIR)
"""
import gzip
import json
import os
import re
import subprocess
import sys
import zlib

REFUSED = {
    "catapult/google_cloud_trace.json": "not a Trace Event file",
    "catapult/simple_trace_zip.zip": "Zip archive",
}


def read_content(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        # A cut gzip stream still yields what came before the cut.
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            data = inflater.decompress(data)
        except zlib.error:
            data = b""
    return data.decode("utf-8", errors="replace")


def events_by_streaming(text):
    """The events of a damaged file: decode one at a time until it breaks."""
    match = re.search(r'"traceEvents"\s*:\s*\[', text)
    if match:
        pos = match.end()
    else:
        pos = text.index("[") + 1
    decoder = json.JSONDecoder()
    events = []
    while True:
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        if pos >= len(text) or text[pos] == "]":
            return events
        try:
            event, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError:
            return events
        events.append(event)


def load_events(path):
    text = read_content(path).lstrip("\ufeff")
    try:
        root = json.loads(text)
    except json.JSONDecodeError:
        return events_by_streaming(text)
    if isinstance(root, dict):
        root = root.get("traceEvents", [])
    return root if isinstance(root, list) else []


def count_phases(events):
    counts = {}
    for event in events:
        if not isinstance(event, dict):
            continue
        ph = event.get("ph")
        key = ph[0] if isinstance(ph, str) and ph and ord(ph[0]) < 128 else ""
        counts[key] = counts.get(key, 0) + 1
    return counts


def corpus_files(corpus):
    root = os.path.join(corpus, "json")
    for folder, _, names in sorted(os.walk(root)):
        for name in sorted(names):
            if name == "LICENSE":
                continue
            path = os.path.join(folder, name)
            yield os.path.relpath(path, root), path


def thread_shape(report):
    return sorted("%s/%s: %d calls, %d depths" % (t["pid"], t["id"], t["spans"], t["depths"])
                  for t in report["threads"] if t["spans"] > 0)


def main():
    strata, snapshot_path = sys.argv[1:3]
    corpus = os.environ.get("STRATA_CORPUS_DIR", "")
    update = "--update" in sys.argv
    try:
        with open(snapshot_path) as f:
            snapshot = json.load(f)
    except FileNotFoundError:
        snapshot = {}

    files = list(corpus_files(corpus))
    if not files:
        print("1..0 # SKIP needs the shared corpus (STRATA_CORPUS_DIR=%s has no json/)" % (corpus or "unset"))
        return 0

    print("1..%d" % len(files))
    failed = 0
    shapes = {}
    for number, (name, path) in enumerate(files, 1):
        run = subprocess.run([strata, "-r", "--format=json", path], capture_output=True, text=True, timeout=120)
        problem = None
        if name in REFUSED:
            if run.returncode != 1 or REFUSED[name] not in run.stderr:
                problem = "expected a refusal naming %r, got exit %d: %s" % (REFUSED[name], run.returncode, run.stderr.strip())
        elif run.returncode != 0:
            problem = "exit %d: %s" % (run.returncode, run.stderr.strip()[-500:])
        else:
            report = json.loads(run.stdout)
            expected = count_phases(load_events(path))
            if report.get("phases", {}) != expected:
                problem = "phases %s, python finds %s" % (report.get("phases"), expected)
            shapes[name] = thread_shape(report)
            if not update and shapes[name] != snapshot.get(name):
                problem = "threads %s, snapshot has %s" % (shapes[name], snapshot.get(name))
        if problem:
            failed += 1
            print("not ok %d - %s # %s" % (number, name, problem))
        else:
            print("ok %d - %s" % (number, name))

    if update:
        with open(snapshot_path, "w") as f:
            json.dump(shapes, f, indent=1, sort_keys=True)
            f.write("\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
