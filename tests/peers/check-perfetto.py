#!/usr/bin/env python3
"""check-perfetto.py STRATA PROTO FILE...: Perfetto protobuf traces, read
by Strata and, on its own, by this script with the protobuf package and
Perfetto's perfetto_trace.proto (compiled here with protoc).

The script follows Perfetto's rules as its own code: packets on
sequences, interned event names and categories cleared with a
sequence's incremental state, the sequence's default track, tracks that
describe threads (a thread described again by another track is a new
one), deflate-compressed packets, and a track of 0 on a typed event
meaning the default track. It counts the slices begun on each thread's
track (TYPE_SLICE_BEGIN, legacy B and X), per thread and per name.
Strata's JSON report must give the same: each thread's calls (by tid)
and each name's calls, summed over its categories.

Each FILE is checked (a .gz is inflated first); with chromium installed
a recording made now, of a page with the same categories Chrome's
DevTools records, is checked too. Skips without protoc or the protobuf
package.

usage: check-perfetto.py STRATA PROTO FILE...
"""

import collections
import gzip
import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zlib

SEQ_INCREMENTAL_STATE_CLEARED = 1
CATEGORIES = "toplevel,blink,v8,devtools.timeline,blink.user_timing,loading,cc,gpu"


def compile_proto(proto, scratch):
    subprocess.run(["protoc", f"--python_out={scratch}", f"-I{os.path.dirname(proto)}", proto],
                   check=True, capture_output=True)
    sys.path.insert(0, scratch)
    return importlib.import_module("perfetto_trace_pb2")


def packets(pb, data):
    trace = pb.Trace()
    trace.ParseFromString(data)
    for packet in trace.packet:
        if packet.HasField("compressed_packets"):
            yield from packets(pb, zlib.decompress(packet.compressed_packets))
        else:
            yield packet


class Counts:
    def __init__(self):
        self.names = {}                  # (sequence, iid) -> name
        self.default_track = {}          # sequence -> uuid
        self.sequence_thread = {}        # sequence -> tid
        self.track_thread = {}           # uuid -> thread key
        self.tid_owner = {}              # tid -> uuid
        self.threads = 0
        self.per_thread = collections.Counter()
        self.per_name = collections.Counter()
        self.thread_tid = {}

    def describe(self, sequence, track):
        if not track.HasField("thread"):
            return
        tid = track.thread.tid
        if self.tid_owner.get(tid) not in (None, track.uuid):
            self.threads += 1            # tid reuse: a new thread
        self.tid_owner[tid] = track.uuid
        key = (tid, self.threads)
        self.track_thread[track.uuid] = key
        self.sequence_thread.setdefault(sequence, key)

    def clear(self, sequence):
        for key in [k for k in self.names if k[0] == sequence]:
            del self.names[key]
        self.default_track.pop(sequence, None)

    def thread_of(self, sequence, event):
        typed = event.type != 0
        if event.HasField("track_uuid") and (event.track_uuid != 0 or typed):
            return self.track_thread.get(event.track_uuid)
        if sequence in self.default_track:
            return self.track_thread.get(self.default_track[sequence])
        return self.sequence_thread.get(sequence)

    def take(self, packet):
        sequence = packet.trusted_packet_sequence_id
        if packet.incremental_state_cleared or packet.sequence_flags & SEQ_INCREMENTAL_STATE_CLEARED:
            self.clear(sequence)
        if packet.HasField("trace_packet_defaults"):
            defaults = packet.trace_packet_defaults.track_event_defaults
            if defaults.HasField("track_uuid"):
                self.default_track[sequence] = defaults.track_uuid
        for name in packet.interned_data.event_names:
            self.names[(sequence, name.iid)] = name.name
        if packet.HasField("track_descriptor"):
            self.describe(sequence, packet.track_descriptor)
        if not packet.HasField("track_event"):
            return
        event = packet.track_event
        phase = chr(event.legacy_event.phase) if event.HasField("legacy_event") else ""
        if event.type != 1 and not (event.type == 0 and phase in ("B", "X")):
            return
        thread = self.thread_of(sequence, event)
        if thread is None:
            return                       # an async track's slice: not a call
        name_iid = event.name_iid or event.legacy_event.name_iid
        name = event.name if event.HasField("name") else self.names.get((sequence, name_iid), "")
        self.per_thread[thread[0]] += 1
        self.per_name[name or "(unnamed)"] += 1


def strata_counts(strata, path):
    report = json.loads(subprocess.run([strata, "-r", "--format=json", path], capture_output=True, text=True,
                                       check=True).stdout)
    per_thread, per_name = collections.Counter(), collections.Counter()
    for thread in report["threads"]:
        per_thread[thread["id"]] += thread["spans"]
    for method in report["methods"]:
        # Calls made inside a call of the same method are counted apart.
        per_name[method["name"]] += method["calls"] + method["recursive"]
    return per_thread, per_name


def differences(expected, got):
    keys = sorted(set(expected) | set(got), key=str)
    wrong = [f"{k}: {expected.get(k, 0)} here, {got.get(k, 0)} in Strata" for k in keys if expected.get(k, 0) != got.get(k, 0)]
    return wrong


def check(pb, strata, path, results):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    counts = Counts()
    for packet in packets(pb, data):
        counts.take(packet)
    per_thread, per_name = strata_counts(strata, path)
    name = os.path.basename(path)
    wrong = differences(counts.per_thread, per_thread)
    results.append((f"{name}: {sum(counts.per_thread.values())} slices on {len(counts.per_thread)} threads, "
                    f"thread by thread", not wrong, "; ".join(wrong[:3])))
    wrong = differences(counts.per_name, per_name)
    results.append((f"{name}: {len(counts.per_name)} names, name by name", not wrong, "; ".join(wrong[:3])))


def record(chromium, page, scratch):
    trace = os.path.join(scratch, "recording.pftrace")
    subprocess.run([chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                    f"--user-data-dir={scratch}/profile", f"--trace-startup={CATEGORIES}",
                    "--trace-startup-format=proto", f"--trace-startup-file={trace}",
                    "--trace-startup-duration=3", "--virtual-time-budget=2000", "file://" + os.path.abspath(page)],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
    return trace if os.path.exists(trace) and os.path.getsize(trace) > 0 else None


def print_tap(results):
    print(f"1..{len(results)}")
    for i, (what, ok, detail) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} {what}")
        if detail:
            print(f"# {detail}")
    return 0 if all(ok for _, ok, _ in results) else 1


def main():
    strata, proto, *files = sys.argv[1:]
    if shutil.which("protoc") is None:
        print("1..0 # SKIP protoc is not installed (build-aux/install-deps.sh reference-packages.txt)")
        return 0
    try:
        importlib.import_module("google.protobuf")
    except ImportError:
        # Debian's python3-protobuf is the system Python's: another
        # python3 first on the PATH (a virtualenv, pyenv) lacks it.
        system = "/usr/bin/python3"
        if os.path.exists(system) and os.path.realpath(sys.executable) != os.path.realpath(system):
            os.execv(system, [system] + sys.argv)
        print("1..0 # SKIP the protobuf package is not installed (python3-protobuf)")
        return 0
    results = []
    with tempfile.TemporaryDirectory() as scratch:
        pb = compile_proto(proto, scratch)
        for path in files:
            check(pb, strata, path, results)
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        if chromium is not None:
            started = time.monotonic()
            trace = record(chromium, os.path.join(os.path.dirname(files[0]), "user-timing.html"), scratch)
            if trace is not None:
                check(pb, strata, trace, results)
                results[-1] = (results[-1][0] + f" (recorded now in {time.monotonic() - started:.0f} s)",
                               results[-1][1], results[-1][2])
    return print_tap(results)


if __name__ == "__main__":
    sys.exit(main())
