#!/usr/bin/env python3
"""mutants.py STRATA N SEED_DIR...: strata -r on N mutants of the seeds.

Each mutant is a seed with stacked mutations (flipped bits, bytes set to
edge values, lengths widened, pieces cut, repeated or dropped, the file
cut short). Each runs under a time limit, gzip'd seeds mutated inside
their compression too. A mutant fails when strata crashes (a signal, or a
sanitizer's report), hangs, or answers silently: exit 0 with no report,
or an error exit without a message. Failing mutants are kept in
--keep=DIR. Prints the counts; exits 1 if any failed.

  mutants.py _build-tests/src/app/strata 3000 tests/fuzz/seeds tests/data
"""
import argparse
import concurrent.futures
import gzip
import os
import random
import shutil
import subprocess
import tempfile

MAX_SEED = 256 * 1024
EDGE_BYTES = (0x00, 0xFF, 0x7F, 0x80, 0x01, 0xFE)


def seeds_from(dirs):
    found = []
    for top in dirs:
        for root, _, names in os.walk(top):
            for name in sorted(names):
                p = os.path.join(root, name)
                if name.endswith((".md", ".expected", ".py")) or not os.path.isfile(p):
                    continue
                if 0 < os.path.getsize(p) <= MAX_SEED:
                    found.append(p)
    return found


def mutate(data, rng):
    data = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        if not data:
            data = bytearray(b"\0")
        kind = rng.randrange(7)
        at = rng.randrange(len(data))
        if kind == 0:
            data[at] ^= 1 << rng.randrange(8)
        elif kind == 1:
            data[at] = rng.choice(EDGE_BYTES)
        elif kind == 2 and len(data) >= 4:
            at = min(at, len(data) - 4)
            data[at:at + 4] = rng.choice((b"\xff\xff\xff\xff", b"\x7f\xff\xff\xff", b"\x00\x00\x00\x80",
                                          b"\x00\x00\x10\x00"))
        elif kind == 3:
            data = data[:at]
        elif kind == 4:
            end = min(len(data), at + rng.randint(1, 4096))
            data[at:at] = data[at:end] * rng.randint(1, 8)
        elif kind == 5:
            del data[at:at + rng.randint(1, 512)]
        else:
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
    return bytes(data)


def mutant_of(path, rng):
    raw = open(path, "rb").read()
    name = os.path.basename(path)
    if raw[:2] == b"\x1f\x8b" and rng.random() < 0.7:
        try:
            return name, gzip.compress(mutate(gzip.decompress(raw), rng), 1)
        except (OSError, EOFError):
            pass
    return name, mutate(raw, rng)


def run_one(strata, path, timeout):
    try:
        done = subprocess.run([strata, "-r", path], capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "hang", ""
    err = done.stderr.decode("utf-8", "replace")
    if done.returncode < 0 or "Sanitizer" in err or "runtime error:" in err:
        return "crash", err[-2000:]
    if done.returncode == 0 and not done.stdout.strip():
        return "silent", "exit 0 with no report"
    message = [line for line in err.splitlines() if line.startswith("strata:")]
    if done.returncode != 0 and not message:
        return "silent", "exit %d: %s" % (done.returncode, err[-300:])
    return "ok" if done.returncode == 0 else "refused", ""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("strata")
    parser.add_argument("count", type=int)
    parser.add_argument("dirs", nargs="+")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=int, default=30)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--keep", default=None)
    args = parser.parse_args()

    seeds = seeds_from(args.dirs)
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="strata-mutants-")
    jobs = []
    for i in range(args.count):
        seed = seeds[i % len(seeds)]
        name, data = mutant_of(seed, rng)
        path = os.path.join(work, "%05d-%s" % (i, name))
        with open(path, "wb") as f:
            f.write(data)
        jobs.append(path)

    counts = {}
    failures = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for path, (verdict, detail) in zip(jobs, pool.map(lambda p: run_one(args.strata, p, args.timeout), jobs)):
            counts[verdict] = counts.get(verdict, 0) + 1
            if verdict in ("crash", "hang", "silent"):
                failures.append((path, verdict, detail))
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        for path, _, _ in failures:
            shutil.copy(path, args.keep)
    shutil.rmtree(work, ignore_errors=True)

    print("%d mutants of %d seeds (seed %d): %s" % (args.count, len(seeds), args.seed,
                                                     ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    for path, verdict, detail in failures[:20]:
        print("%s: %s %s" % (verdict, os.path.basename(path), detail.strip().splitlines()[-1:] if detail else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
