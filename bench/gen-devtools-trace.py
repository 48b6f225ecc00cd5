#!/usr/bin/env python3
"""Write a Chrome DevTools Performance recording of about SIZE megabytes
whose JavaScript samples are most of its bytes.

Shaped as Chrome writes one: thread names, then per renderer thread a
task of 2-15 ms in every 20 ("RunTask" holding "FunctionCall",
"EvaluateScript" or "TimerFire", with a "Layout" or "MinorGC" inside),
a "Profile" event on the thread and "ProfileChunk" events on the
profiler's own thread every 100 samples (about 200 µs apart, the odd
negative delta), adding the call-tree nodes they use first. Tasks carry
a thread clock (tts, tdur) beside the wall, as Chrome's do. Between
tasks the samples are "(idle)"; in a task they walk a stack of
functions (each calls a few others) over scripts and node packages,
changing at one sample in 20 (the corpus's recordings: one in 5 to
300). The shape sets the rest:

  wide    2,000 functions over 60 scripts, stacks up to 25 deep
  deep    stacks 40-120 frames deep, few functions
  threads four renderer threads (main and workers), a profile each
  busy    no idle: script all the time, changing at one sample in 7
  random  busy, every sample a fresh random stack of any functions:
          the worst case, millions of distinct paths

usage: gen-devtools-trace.py SIZE_MB OUT.json [--shape=wide|deep|threads|busy|random] [--seed=S]
"""

import argparse
import json
import random


class Profile:
    """One thread's profile: its node tree, grown as samples need."""

    def __init__(self, rng, functions, max_depth):
        self.rng = rng
        self.functions = functions
        # Each function calls a few others, as code does.
        self.callees = [rng.sample(range(len(functions)), 4) for _ in functions]
        self.max_depth = max_depth
        self.nodes = {(): 1}            # path of function indexes -> node id
        self.new_nodes = [{"id": 1, "callFrame": {"functionName": "(root)", "scriptId": "0", "url": "",
                                                  "lineNumber": -1, "columnNumber": -1}}]
        self.special = {}
        self.stack = []

    def node(self, path):
        if path not in self.nodes:
            parent = self.node(path[:-1])
            self.nodes[path] = len(self.nodes) + 1
            name, url, line = self.functions[path[-1]]
            self.new_nodes.append({"id": self.nodes[path], "parent": parent,
                                   "callFrame": {"functionName": name, "scriptId": str(hash(url) % 997), "url": url,
                                                 "lineNumber": line, "columnNumber": 4, "codeType": "JS"}})
        return self.nodes[path]

    def special_node(self, name):
        if name not in self.special:
            self.special[name] = len(self.nodes) + 1 + len(self.special) + 100000
            self.new_nodes.append({"id": self.special[name], "parent": 1,
                                   "callFrame": {"functionName": name, "scriptId": "0", "url": "",
                                                 "lineNumber": -1, "columnNumber": -1}})
        return self.special[name]

    def enter(self, depth):
        """A task starts: its script from an entry point, @depth deep."""
        self.stack = [self.rng.randrange(8)]
        while len(self.stack) < depth:
            self.stack.append(self.rng.choice(self.callees[self.stack[-1]]))

    def sample(self, shape, change):
        r = self.rng.random()
        if shape == "random":
            depth = self.rng.randint(1, self.max_depth)
            self.stack = [self.rng.randrange(len(self.functions)) for _ in range(depth)]
        elif r < 0.01:
            return self.special_node(self.rng.choice(["(program)", "(garbage collector)"]))
        elif r > change and self.stack:
            pass                                           # the same function still runs
        elif r < change * 0.45 and len(self.stack) < self.max_depth:
            self.stack.append(self.rng.choice(self.callees[self.stack[-1]]))
        elif r < change * 0.85 and len(self.stack) > 1:
            self.stack.pop()
        else:
            keep = self.rng.randint(1, max(len(self.stack), 1))
            self.stack = self.stack[:keep]
            self.stack[-1] = self.rng.choice(self.callees[self.stack[-2]]) if keep > 1 else self.rng.randrange(8)
        return self.node(tuple(self.stack))

    def take_new_nodes(self):
        nodes, self.new_nodes = self.new_nodes, []
        return nodes


def functions_for(shape, rng):
    n_functions, n_scripts = {"wide": (2000, 60), "deep": (120, 8)}.get(shape, (400, 20))
    scripts = []
    for s in range(n_scripts):
        if s % 3 == 0:
            package = rng.choice(["react-dom", "lodash", "@babel/core", "three", "rxjs", "@angular/core"])
            scripts.append(f"https://example.com/node_modules/{package}/dist/index{s}.js")
        else:
            scripts.append(f"https://example.com/static/js/chunk-{s}.js")
    names = ["render", "update", "dispatch", "reduce", "map", "forEach", "parse", "compile", "layout",
             "commitWork", "beginWork", "flush", "emit", "subscribe", "next", "visit", "walk", ""]
    return [(rng.choice(names) + (str(i) if i % 4 else ""), rng.choice(scripts), rng.randint(0, 5000))
            for i in range(n_functions)]


def write(out, event):
    out.write(json.dumps(event, separators=(",", ":")))
    out.write(",\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("size_mb", type=float)
    parser.add_argument("out")
    parser.add_argument("--shape", default="wide", choices=["wide", "deep", "threads", "busy", "random"])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    functions = functions_for(args.shape, rng)
    max_depth = {"deep": 120, "wide": 25}.get(args.shape, 30)
    n_threads = 4 if args.shape == "threads" else 1
    pid, target = 4242, args.size_mb * 1e6
    threads = [(pid, 100 + t, "CrRendererMain" if t == 0 else f"DedicatedWorker thread {t}") for t in range(n_threads)]
    profiles = [Profile(rng, functions, max_depth) for _ in threads]

    with open(args.out, "w") as out:
        out.write('{"traceEvents":[\n')
        write(out, {"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "ts": 0, "args": {"name": "Renderer"}})
        for _, tid, name in threads:
            write(out, {"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "ts": 0, "args": {"name": name}})
        write(out, {"ph": "M", "name": "thread_name", "pid": pid, "tid": 99, "ts": 0, "args": {"name": "v8:ProfEvntProc"}})
        now = 1_000_000
        for t, (_, tid, _) in enumerate(threads):
            write(out, {"ph": "P", "name": "Profile", "id": hex(t + 1), "pid": pid, "tid": tid, "ts": now,
                        "cat": "disabled-by-default-v8.cpu_profiler", "args": {"data": {"startTime": now}}})
        # Busy: script all the time, its stack changing at one sample in
        # seven; otherwise tasks of 2-15 ms in every 20, idle between,
        # the stack changing at one sample in 20 (real ones: 15 to 300).
        change = 1 / 7 if args.shape in ("busy", "random") else 1 / 20

        def thread_time(ts):
            """The thread clock, running at 95 % of the wall's."""
            return 500_000 + (ts - 1_000_000) * 19 // 20
        while out.tell() < target:
            for t, (_, tid, _) in enumerate(threads):
                profile = profiles[t]
                begin, length = (0, 100) if args.shape in ("busy", "random") else (rng.randint(0, 20), rng.randint(10, 75))
                start = now + begin * 200
                # As Chrome writes them: each task on the thread clock too.
                write(out, {"ph": "X", "name": "RunTask", "cat": "disabled-by-default-devtools.timeline",
                            "pid": pid, "tid": tid, "ts": start, "dur": length * 200, "tts": thread_time(start),
                            "tdur": length * 190, "args": {}})
                write(out, {"ph": "X", "name": rng.choice(["FunctionCall", "EvaluateScript", "TimerFire"]),
                            "cat": "devtools.timeline", "pid": pid, "tid": tid, "ts": start + 5, "dur": length * 200 - 10,
                            "tts": thread_time(start) + 5, "tdur": length * 190 - 10,
                            "args": {"data": {"frame": "F1", "url": functions[0][1]}}})
                write(out, {"ph": "X", "name": rng.choice(["Layout", "MinorGC", "UpdateLayoutTree"]),
                            "cat": "devtools.timeline", "pid": pid, "tid": tid, "ts": start + length * 100,
                            "dur": 900, "tts": thread_time(start) + length * 95, "tdur": 850, "args": {}})
                samples, deltas = [], []
                profile.enter(40 if args.shape == "deep" else 3)
                for i in range(100):
                    if begin <= i < begin + length:
                        samples.append(profile.sample(args.shape, change))
                    else:
                        samples.append(profile.special_node("(idle)"))
                    deltas.append(rng.choice([200, 199, 201, 187, 214]) if rng.random() > 0.001 else -37)
                cpu = {"samples": samples}
                nodes = profile.take_new_nodes()
                if nodes:
                    cpu["nodes"] = nodes
                write(out, {"ph": "P", "name": "ProfileChunk", "id": hex(t + 1), "pid": pid, "tid": 99,
                            "ts": now + 20000, "cat": "disabled-by-default-v8.cpu_profiler",
                            "args": {"data": {"cpuProfile": cpu, "timeDeltas": deltas}}})
            now += 20000
        out.write('{"ph":"M","name":"trace_end","pid":%d,"tid":0,"ts":%d,"args":{}}]}\n' % (pid, now))


if __name__ == "__main__":
    main()
