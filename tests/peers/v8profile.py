"""v8profile.py: V8 CPU profiles rebuilt as collapsed stacks, on their own.

The peers' tests read a profile with a few lines of Python, independently
of Strata's reader, and compare Strata's collapsed stacks with these:
each sample lasts until the next in time order (the last until the end),
its stack is its node and the node's parents without "(root)", and
"(idle)" samples are no stack. As a timeline among trace events shows
them (timeline=True), "(program)" samples are no stack either and a
"(garbage collector)" sample runs on the stack of the last sample of a
function before it.
"""

import collections


def label(frame):
    """A frame's name as DevTools (and Strata) write it."""
    name = frame.get("functionName") or "(anonymous)"
    url = frame.get("url", "")
    line = frame.get("lineNumber", -1)
    if not url:
        return name
    if line < 0:
        return f"{name} ({url})"
    return f"{name} ({url}:{line + 1}:{frame.get('columnNumber', -1) + 1})"


def folded(nodes, samples, deltas, start_us, end_us=None, thread="Main thread", weights=None, timeline=False):
    """Adds the profile's collapsed stacks to @weights (path -> ns)."""
    weights = weights if weights is not None else collections.Counter()
    by_id = {node["id"]: node for node in nodes}
    parent = {node["id"]: node["parent"] for node in nodes if "parent" in node}
    for node in nodes:
        for child in node.get("children", []):
            parent[child] = node["id"]
    timed, time = [], start_us
    for i, sample in enumerate(samples):
        time += deltas[i] if i < len(deltas) else 0
        if sample in by_id:
            timed.append((time * 1000, sample))
    timed.sort(key=lambda s: s[0])
    if not timed:
        return weights
    end = timed[-1][0] + ((timed[-1][0] - timed[0][0]) // (len(timed) - 1) if len(timed) > 1 else 0)
    if end_us is not None:
        end = max(end, end_us * 1000)
    last_function = None
    for i, (begin, node_id) in enumerate(timed):
        stop = timed[i + 1][0] if i + 1 < len(timed) else end
        function = by_id[node_id]["callFrame"].get("functionName")
        if function == "(idle)" or (timeline and function == "(program)"):
            continue
        names = stack_names(by_id, parent, node_id)
        if timeline and function == "(garbage collector)" and last_function is not None:
            names += stack_names(by_id, parent, last_function)
        elif function not in ("(program)", "(garbage collector)"):
            last_function = node_id
        if not names:
            continue
        weights[";".join([thread] + [folded_name(name) for name in names[::-1]])] += stop - begin
    return weights


def stack_names(by_id, parent, node_id):
    """A node's frames, innermost first, without "(root)"."""
    names, at, seen = [], node_id, set()
    while at is not None and at not in seen:
        seen.add(at)
        if by_id[at]["callFrame"].get("functionName", "") != "(root)":
            names.append(label(by_id[at]["callFrame"]))
        at = parent.get(at)
    return names


def folded_name(name):
    """A frame's name as collapsed stacks hold it: ';' separates frames
    and a line ends at a newline."""
    return name.replace(";", ":").replace("\n", " ").replace("\r", " ")


def strata_folded(text, keep=lambda thread: True, frames=lambda frame: True):
    """Strata's collapsed stacks with frames, of the threads @keep takes,
    with only the frames @frames takes."""
    weights = collections.Counter()
    # Only "\n" ends a line: a name may hold other line separators.
    for line in text.split("\n")[1:]:
        if not line:
            continue
        stack, _, weight = line.rpartition(" ")
        thread, *names = stack.split(";")
        names = [name for name in names if frames(name)]
        if names and keep(thread):
            weights[";".join([thread] + names)] += int(weight)
    return weights


def differences(expected, got, limit=5):
    """The paths whose weights differ, as text."""
    differ = [(k, expected.get(k), got.get(k)) for k in set(expected) | set(got) if expected.get(k) != got.get(k)]
    return len(differ), "; ".join(f"{k[-60:]}: {e} here, {g} from Strata" for k, e, g in differ[:limit])


def print_tap(results):
    """@results, (name, ok, detail) each, as TAP; the exit status."""
    print(f"1..{len(results)}")
    failed = 0
    for n, (name, ok, detail) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {n} - {name}" + (f" # {detail}" if detail else ""))
        failed += not ok
    return 1 if failed else 0
