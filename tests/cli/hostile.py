#!/usr/bin/env python3
"""hostile.py STRATA [DATA_DIR]: every class of hostile input found so far.

Makes each input in a temporary folder (bombs, zeros, sparse files, a file
cut after its load, pipes and devices as every kind of argument, nesting
past every limit, giant names, many threads, records of unknown kinds, files
cut at their section boundaries), runs `strata -r` on it under an address
space limit and a time limit, and checks the exit status, the message, and
that no figure of a report that loaded is negative or impossible. TAP out.

DATA_DIR is tests/data (the heap dump fixture); cases that need it are
skipped without it.
"""
import gzip
import json
import os
import re
import resource
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib

STRATA = sys.argv[1]
DATA = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "data")
TMP = tempfile.mkdtemp(prefix="strata-hostile-")
TIMEOUT = 60
ADDRESS_SPACE = 3 << 30
results = []


# ---- Writers ----

def path(name):
    return os.path.join(TMP, name)


def write(name, data):
    with open(path(name), "wb") as f:
        f.write(data)
    return path(name)


def sparse(name, head, size):
    """head, then zeros to size, as holes: no disk taken."""
    p = write(name, head)
    os.truncate(p, size)
    return p


def gzip_bomb(name, head, fill, size):
    z = zlib.compressobj(1, zlib.DEFLATED, 31)
    block = bytes([fill]) * (1 << 20)
    out = [z.compress(head)]
    for done in range(0, size, 1 << 20):
        out.append(z.compress(block[:min(1 << 20, size - done)]))
    out.append(z.flush())
    return write(name, b"".join(out))


def dmtrace_key(methods, threads, clock="dual", extra=""):
    lines = ["*version", "3", "data-file-overflow=false", "clock=" + clock, "elapsed-time-usec=1000",
             "clock-call-overhead-nsec=0", "vm=art" + extra, "*threads"]
    lines += ["%d\t%s" % (tid, name) for tid, name in threads]
    lines.append("*methods")
    lines += ["0x%x\t%s" % (mid, text) for mid, text in methods]
    lines.append("*end")
    return ("\n".join(lines) + "\n").encode()


def dmtrace_header(record_size=14):
    return b"SLOW" + struct.pack("<HHQH", 3, 32, 0, record_size) + b"\0" * 14


def dmtrace_record(tid, method, action, t):
    return struct.pack("<HIII", tid, method | action, t, t)


def dmtrace(records, methods=None, threads=((1, "main"),)):
    methods = methods or [(0x1000, "com.example.A\trun\t()V\tA.java"), (0x1004, "com.example.A\twork\t()V\tA.java")]
    return dmtrace_key(methods, threads) + dmtrace_header() + b"".join(records)


def nested_dmtrace(depth):
    methods = [(0x1000, "com.example.A\tdeep\t()V\tA.java")]
    enters = [dmtrace_record(1, 0x1000, 0, i) for i in range(depth)]
    exits = [dmtrace_record(1, 0x1000, 1, depth + i) for i in range(depth)]
    return dmtrace(enters + exits, methods)


def json_events(events):
    return json.dumps({"traceEvents": events}).encode()


def hprof_records(data):
    """The offsets of the top-level records of an HPROF dump, and its end."""
    nul = data.index(b"\0")
    pos = nul + 1 + 12
    offsets = []
    while pos + 9 <= len(data):
        offsets.append(pos)
        pos += 9 + struct.unpack(">I", data[pos + 5:pos + 9])[0]
    return offsets


def fixture_dump():
    p = os.path.join(DATA, "allocations.hprof.gz")
    return gzip.open(p).read() if os.path.exists(p) else None


# ---- Running ----

def limit_address_space():
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def can_limit():
    """Under AddressSanitizer no program starts in a few GB: time is the check."""
    try:
        return subprocess.run([STRATA, "--version"], preexec_fn=limit_address_space,
                              capture_output=True, timeout=TIMEOUT).returncode == 0
    except subprocess.TimeoutExpired:
        return False


LIMITED = can_limit()


def run(args, env=None):
    """strata -r ARGS, or strata ARGS to export."""
    if not any(a.startswith("--export") for a in args):
        args = ["-r"] + args
    start = time.monotonic()
    try:
        done = subprocess.run([STRATA] + args, preexec_fn=limit_address_space if LIMITED else None,
                              capture_output=True, timeout=TIMEOUT, env=env)
    except subprocess.TimeoutExpired:
        return None, b"", b"timed out after %d s" % TIMEOUT, time.monotonic() - start
    return done.returncode, done.stdout, done.stderr, time.monotonic() - start


def impossible_figures(report):
    """What no report that loaded may hold: negative or inconsistent figures."""
    problems = []
    totals = report.get("total", {})
    for clock, total in (totals.items() if isinstance(totals, dict) else []):
        if isinstance(total, (int, float)) and total < 0:
            problems.append("total %s %s" % (clock, total))
    for m in report.get("methods", []):
        if m.get("calls", 0) < 0 or m.get("recursive", 0) < 0:
            problems.append("%s: calls %s" % (m.get("name", "?")[:60], m.get("calls")))
        for clock, t in m.get("clocks", {}).items():
            incl, excl = t.get("inclusive", 0), t.get("exclusive", 0)
            if incl < 0 or excl < 0 or excl > incl:
                problems.append("%s %s: inclusive %s exclusive %s" % (m.get("name", "?")[:60], clock, incl, excl))
    for e in report.get("edges", []):
        for clock, t in (e.get("clocks", {}) or {}).items():
            if isinstance(t, (int, float)) and t < 0:
                problems.append("edge %s" % e)
    for c in report.get("classes", []):
        for key in ("instances", "shallow", "retained"):
            if isinstance(c.get(key), (int, float)) and c[key] < 0:
                problems.append("class %s %s %s" % (c.get("name"), key, c[key]))
    return problems[:5]


def case(name, args, status, message=None, figures=True, env=None, max_seconds=None):
    """status: the exit statuses allowed; message: a pattern stderr (or the
    report's diagnostics) must hold."""
    rc, out, err, seconds = run(args, env)
    text = err.decode("utf-8", "replace")
    why = []
    if rc is None:
        why.append(text)
    elif rc not in status:
        why.append("exit %d (want %s)" % (rc, "/".join(map(str, status))))
    if rc is not None and rc != 0 and not text.strip():
        why.append("exit %d without a message" % rc)
    if rc == 0 and not out.strip():
        why.append("exit 0 with no report")
    if max_seconds is not None and seconds > max_seconds:
        why.append("took %.1f s (at most %d)" % (seconds, max_seconds))
    diagnostics = ""
    if rc == 0 and figures:
        jrc, jout, jerr, _ = run(["--format=json"] + args, env)
        try:
            report = json.loads(jout)
            why += impossible_figures(report)
            diagnostics = " ".join(report.get("diagnostics", []))
        except (ValueError, TypeError) as e:
            why.append("JSON report unreadable (exit %s): %s" % (jrc, e))
    if message and not re.search(message, text + " " + diagnostics):
        why.append("no message like /%s/: %s" % (message, (text + diagnostics)[:300]))
    said = (text.strip().splitlines() or [diagnostics[:120] or "loaded"])[0][:160]
    results.append((not why, "%s: exit %s in %.2f s, %s%s" % (name, rc, seconds, said,
                                                             "" if not why else " -- " + "; ".join(why))))


def skip(name, reason):
    results.append((None, "%s # SKIP %s" % (name, reason)))


# ---- The cases ----

def bombs():
    head = dmtrace(())
    case("gzip bomb: a method trace's header, then 256 MB of zeros",
         [gzip_bomb("zeros.trace.gz", head, 0, 256 << 20)], {0, 1}, "zero", max_seconds=30)
    case("gzip bomb: JSON of 256 MB of spaces",
         [gzip_bomb("spaces.json.gz", b"[", 0x20, 256 << 20)], {0}, "before any event", max_seconds=30)
    case("gzip bomb: an HPROF header, then 1 GB of zeros",
         [gzip_bomb("zeros.hprof.gz", b"JAVA PROFILE 1.0.2\0" + struct.pack(">IQ", 8, 0), 0, 1 << 30)],
         {1}, "no kind a heap dump has", max_seconds=5)


def zeros():
    head = dmtrace(())
    case("sparse: a method trace's header, then 1 GB of zeros",
         [sparse("sparse.trace", head, 1 << 30)], {0, 1}, "zero", max_seconds=30)
    case("sparse: an HPROF header, then 1 GB of zeros",
         [sparse("sparse.hprof", b"JAVA PROFILE 1.0.2\0" + struct.pack(">IQ", 8, 0), 1 << 30)],
         {1}, "no kind a heap dump has", max_seconds=5)
    case("sparse: a JSON array, then 1 GB of zeros",
         [sparse("sparse.json", b'[{"ph":"X","name":"a","ts":0,"dur":1,"pid":1,"tid":1},', 1 << 30)],
         {0}, "zero bytes begin", max_seconds=30)
    case("only zeros, 1 MB", [sparse("zeros.bin", b"", 1 << 20)], {1}, "zero bytes")
    case("only zeros, 100 bytes", [write("zeros100.bin", b"\0" * 100)], {1}, "zero bytes")
    case("a zero prefix of 70 KB before a trace",
         [write("prefix.json", b"\0" * 70000 + json_events([]))], {1}, "zero bytes")


def shrinking(dump):
    if dump is None:
        return skip("a heap dump cut after its load", "no tests/data")
    p = write("shrinks.hprof", dump)
    marker = path("loaded")
    env = dict(os.environ, STRATA_TEST_AFTER_LOAD_MARKER=marker)
    proc = subprocess.Popen([STRATA, "-r", p], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    for _ in range(600):
        if os.path.exists(marker) or proc.poll() is not None:
            break
        time.sleep(0.1)
    os.truncate(p, 4096)
    if os.path.exists(marker):
        os.unlink(marker)
    try:
        _, err = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        err = b"timed out"
    text = err.decode("utf-8", "replace")
    ok = proc.returncode == 1 and "became shorter" in text
    results.append((ok, "a heap dump cut after its load: exit %s, %s" % (proc.returncode, text.strip()[:160])))


def pipes_and_devices():
    fifo = path("pipe")
    os.mkfifo(fifo)
    trace = write("ok.json", json_events([{"ph": "X", "name": "a", "ts": 0, "dur": 5, "pid": 1, "tid": 1}]))
    folder = path("folder")
    os.mkdir(folder)
    for what, target in (("a pipe", fifo), ("/dev/zero", "/dev/zero"), ("/dev/urandom", "/dev/urandom"),
                         ("a folder", folder)):
        case("trace from %s" % what, [target], {1}, "not a regular file|folder", max_seconds=5)
        case("--mapping from %s" % what, ["--mapping=" + target, trace], {1}, "not a regular file|folder",
             max_seconds=5)
        case("--diff against %s" % what, ["--diff=" + target, trace], {1}, "not a regular file|folder",
             max_seconds=5)
    os.mkfifo(path("pipe.svg"))
    case("--export into a pipe named .svg", ["--export=" + path("pipe.svg"), trace], {2}, "not a regular file",
         figures=False, max_seconds=5)
    case("--export to /dev/null", ["--export=/dev/null", trace], {2}, "writes .png, .svg or .pdf",
         figures=False, max_seconds=5)
    os.symlink("/dev/null", path("null.svg"))
    case("--export through a link to /dev/null", ["--export=" + path("null.svg"), trace], {2}, "not a regular file",
         figures=False, max_seconds=5)
    # A method trace in two files: the partner of the key is a pipe.
    write("split.key", dmtrace_key([(0x1000, "com.example.A\trun\t()V\tA.java")], [(1, "main")]))
    os.mkfifo(path("split.data"))
    case("--mapping that is missing", ["--mapping=" + path("missing.txt"), trace], {1}, "No such file|not exist|missing",
         max_seconds=5)
    data = bytearray(dmtrace([dmtrace_record(1, 0x1000, 0, 1), dmtrace_record(1, 0x1000, 1, 2)]))
    header = data.index(b"SLOW")
    data[header + 6:header + 8] = b"\0\0"
    case("a method trace whose data header claims a length of 0", [write("header0.trace", bytes(data))], {1},
         "shorter than the 16 bytes|claims a length of 0", max_seconds=5)
    case("the records of a split method trace from a pipe", [path("split.key")], {1}, "not a regular file",
         max_seconds=5)


def deep():
    events = [{"ph": "B", "name": "f%d" % (i % 3), "ts": i, "pid": 1, "tid": 1} for i in range(70000)]
    events += [{"ph": "E", "ts": 70000 + i, "pid": 1, "tid": 1} for i in range(70000)]
    case("B/E calls 70,000 deep", [write("deep-be.json", json_events(events))], {0}, max_seconds=30)
    case("JSON arrays nested 1,000,000 deep", [write("nested.json", b"[" * 1000000 + b"]" * 1000000)],
         {1}, "", max_seconds=10)
    args = "{\"a\":" * 500000 + "1" + "}" * 500000
    case("event args nested 500,000 deep",
         [write("args.json", ('[{"ph":"X","name":"a","ts":0,"dur":1,"pid":1,"tid":1,"args":%s}]' % args).encode())],
         {0, 1}, max_seconds=10)
    case("a method trace 100,000 calls deep", [write("deep.trace", nested_dmtrace(100000))], {0}, max_seconds=30)
    nodes = [{"id": 1, "callFrame": {"functionName": "(root)", "url": ""}}]
    nodes += [{"id": i, "parent": i - 1, "callFrame": {"functionName": "f", "url": "a.js", "lineNumber": 1}}
              for i in range(2, 100002)]
    profile = {"nodes": nodes, "startTime": 0, "endTime": 1000, "samples": [100001, 2], "timeDeltas": [0, 10]}
    case("a CPU profile's stack 100,000 frames deep",
         [write("deep.cpuprofile", json.dumps(profile).encode())], {0}, "deeper than 65,536 frames", max_seconds=30)
    frames = {str(i): {"name": "f%d" % (i % 5), "category": "c", "parent": str(i - 1)} for i in range(2, 70001)}
    frames["1"] = {"name": "root", "category": "c"}
    samples = [{"cpu": 0, "tid": 1, "ts": 1, "name": "s", "sf": "70000", "weight": 1},
               {"cpu": 0, "tid": 1, "ts": 2, "name": "s", "sf": "3", "weight": 1}]
    trace = {"traceEvents": [{"ph": "X", "name": "a", "ts": 0, "dur": 10, "pid": 1, "tid": 1}],
             "stackFrames": frames, "samples": samples}
    case("a sampled stack 70,000 frames deep", [write("deep-samples.json", json.dumps(trace).encode())], {0},
         "deeper than 65,536 frames", max_seconds=30)
    lines = ["JAVA PROFILE 1.0.1, created Wed Nov 20 00:00:00 2024", "", "--------", "", "TRACE 300001:"]
    lines += ["\tcom.A.f%d(A.java:%d)" % (i, i + 1) for i in range(1100)]
    lines += ["CPU SAMPLES BEGIN (total = 10) Wed Nov 20 00:00:01 2024", "rank   self  accum   count trace method",
              "   1 100.00% 100.00%      10 300001 com.A.f0", "CPU SAMPLES END"]
    rows = ["JAVA PROFILE 1.0.1, created Wed Nov 20 00:00:00 2024", "", "--------", "", "TRACE 300001:",
            "\tcom.A.f(A.java:1)", "TRACE 300002:", "\tcom.A.g(A.java:2)",
            "CPU SAMPLES BEGIN (total = 10) Wed Nov 20 00:00:01 2024", "rank   self  accum   count trace method",
            "   1 99.99% 99.99% COUNT 300001 com.A.f", "   2  0.01% 100.00%      10 300002 com.A.g", "CPU SAMPLES END"]
    rc, out, err, _ = run([write("count.hprof.txt", "\n".join(rows).replace("COUNT", "3000000000").encode())])
    results.append((rc == 0 and b" 3000000000 " in out, "a CPU sample count of 3,000,000,000 is kept whole: exit %s" % rc))
    case("a CPU sample count past what the time axis holds",
         [write("huge.hprof.txt", "\n".join(rows).replace("COUNT", "5000000000000").encode())], {0},
         "1 stack weighs more than the time axis holds and was left out")
    negative = rows[:8] + ["CPU TIME (ms) BEGIN (total = 265) Wed Nov 20 00:00:01 2024",
                           "rank   self  accum   count trace method",
                           "   1 -7.32% -7.32%      10 300001 com.A.f", "   2 50.00% 42.68%      10 300002 com.A.g",
                           "CPU TIME (ms) END"]
    case("a negative share in a CPU TIME row", [write("negative.hprof.txt", "\n".join(negative).encode())], {0},
         "could not be read")
    case("an hprof text stack trace of 1,100 frames", [write("deep.hprof.txt", "\n".join(lines).encode() + b"\n")],
         {0}, "76 frames past the 1,024th", max_seconds=10)


def giant_names():
    name = "n" * (64 << 20)
    p = write("giant.json", json_events([{"ph": "X", "name": name, "ts": 0, "dur": 10, "pid": 1, "tid": 1}]))
    rc, out, err, seconds = run([p])
    ok = rc == 0 and len(out) < 20000
    results.append((ok, "a 64 MB event name: exit %s in %.2f s, a report of %d bytes" % (rc, seconds, len(out))))
    methods = [(0x1000, "com.example.A\t" + "m" * (16 << 20) + "\t()V\tA.java")]
    records = [dmtrace_record(1, 0x1000, 0, 1), dmtrace_record(1, 0x1000, 1, 5)]
    p = write("giant.trace", dmtrace(records, methods))
    rc, out, err, seconds = run([p])
    ok = rc == 0 and len(out) < 20000
    results.append((ok, "a 16 MB method name: exit %s in %.2f s, a report of %d bytes" % (rc, seconds, len(out))))


def many_threads():
    events = [{"ph": "X", "name": "t", "ts": i, "dur": 1, "pid": 1, "tid": i} for i in range(100000)]
    case("100,000 threads of one call each", [write("threads.json", json_events(events))], {0}, max_seconds=30)
    threads = [(tid, "t%d" % tid) for tid in range(1, 65536)]
    records = []
    for tid in range(1, 65536):
        records += [dmtrace_record(tid, 0x1000, 0, tid), dmtrace_record(tid, 0x1000, 1, tid + 1)]
    case("a method trace of 65,535 threads", [write("threads.trace", dmtrace(records, threads=threads))], {0},
         max_seconds=30)


def unknown_records(dump):
    records = [dmtrace_record(1, 0x1000, 0, 1), dmtrace_record(1, 0x1000, 3, 2), dmtrace_record(1, 0x1000, 1, 3)]
    case("a method trace with an action of no kind", [write("action.trace", dmtrace(records))], {0}, "")
    events = [{"ph": "X", "name": "a", "ts": 0, "dur": 5, "pid": 1, "tid": 1},
              {"ph": "Q", "name": "q", "ts": 1, "pid": 1, "tid": 1}, {"ph": "?", "ts": 2}]
    case("JSON events of unknown phases", [write("phases.json", json_events(events))], {0}, "phase|unknown|kind")
    if dump is None:
        return skip("a heap dump with records of unknown kinds", "no tests/data")
    offsets = hprof_records(dump)
    at = offsets[3]
    unknown = b"".join(b"\x99" + struct.pack(">II", 0, 4) + b"abcd" for _ in range(50))
    case("a heap dump with 50 records of an unknown kind",
         [write("unknown.hprof", dump[:at] + unknown + dump[at:])], {0}, "unknown kind")


def cut_files(dump):
    data = dmtrace([dmtrace_record(1, 0x1000, 0, 1), dmtrace_record(1, 0x1004, 0, 2),
                    dmtrace_record(1, 0x1004, 1, 3), dmtrace_record(1, 0x1000, 1, 4)])
    key_end = data.index(b"*end\n") + 5
    marks = sorted({m.start() for m in re.finditer(b"\n", data[:key_end])} | {key_end, key_end + 10, key_end + 32,
                                                                             key_end + 32 + 7, key_end + 32 + 14 + 3})
    for cut in marks:
        case("a method trace cut at byte %d" % cut, [write("cut-%d.trace" % cut, data[:cut])], {0, 1}, None)
    events = json_events([{"ph": "X", "name": "e%d" % i, "ts": i * 10, "dur": 5, "pid": 1, "tid": 1}
                          for i in range(50)])
    for cut in (1, 15, len(events) // 3, len(events) // 2, len(events) - 2):
        case("JSON cut at byte %d" % cut, [write("cut-%d.json" % cut, events[:cut])], {0, 1}, None)
    profile = json.dumps({"nodes": [{"id": 1, "callFrame": {"functionName": "(root)"}, "children": [2]},
                                    {"id": 2, "callFrame": {"functionName": "f", "url": "a.js"}}],
                          "startTime": 0, "endTime": 100, "samples": [2, 2, 2], "timeDeltas": [0, 10, 10]}).encode()
    for cut in (10, len(profile) // 2, len(profile) - 1):
        case("a CPU profile cut at byte %d" % cut, [write("cut-%d.cpuprofile" % cut, profile[:cut])], {0, 1}, None)
    if dump is None:
        return skip("a heap dump cut at its records", "no tests/data")
    offsets = hprof_records(dump)
    picks = offsets[:4] + offsets[len(offsets) // 2:len(offsets) // 2 + 2] + offsets[-3:]
    for cut in sorted(set(picks + [p + 5 for p in offsets[-3:]] + [offsets[-1] + 1000, 40])):
        if cut < len(dump):
            case("a heap dump cut at byte %d" % cut, [write("cut-%d.hprof" % cut, dump[:cut])], {0, 1}, None)


def main():
    dump = fixture_dump()
    try:
        bombs()
        zeros()
        shrinking(dump)
        pipes_and_devices()
        deep()
        giant_names()
        many_threads()
        unknown_records(dump)
        cut_files(dump)
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
    failed = 0
    for i, (ok, text) in enumerate(results, 1):
        if ok is None:
            print("ok %d - %s" % (i, text))
        elif ok:
            print("ok %d - %s" % (i, text))
        else:
            failed += 1
            print("not ok %d - %s" % (i, text))
    print("# address space limit: %s" % ("%d GB" % (ADDRESS_SPACE >> 30) if LIMITED else "none (sanitizers)"))
    print("1..%d" % len(results))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    main()
