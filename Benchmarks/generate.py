#!/usr/bin/env python3
"""Writes the benchmark scenarios (W1-W5 and the extra cases) as flowrun YAML files.

usage: generate.py OUT_DIR [--small]

The workloads are those of shared/bench-peers (README there): same inputs, same frames, same
operators, and every output event is checked, here by the scenario's own expected marble, so
recording and comparison are part of the measured work.

Values: 1,000,000 distinct integers cannot be single-character marble tokens, so W1-W4 write
each value as a quoted token holding its decimal digits (`'123'`) and give the file a `values:`
legend mapping each such token to the integer (`'123': 123`). The hot marble then emits value i
at frame i exactly as the peer's HotSource does (no interval/take/map stand-in), and the
expected marble lists every output value at its frame.
"""
import os
import sys


def tok(v):
    return "'%d'" % v


def legend(values):
    return "values:\n" + "".join("  '%d': %d\n" % (v, v) for v in sorted(set(values)))


def marble(events, end=None, end_symbol="|"):
    """events: list of (frame, token) with strictly increasing frames >= 0."""
    out = []
    frame = 0
    for f, t in events:
        if f > frame:
            out.append("-" * (f - frame))
        out.append(t)
        frame = f + 1
    if end is not None:
        if end > frame:
            out.append("-" * (end - frame))
        out.append(end_symbol)
    return "".join(out)


def header(name, frames):
    return (
        "flowrun: 1\n"
        "name: %s\n"
        "tags: [benchmark]\n"
        "limit: { time: %d, steps: %d, events: %d }\n" % (name, frames + 10, 4 * frames + 100, frames + 10)
    )


def w1(n):
    hot = marble([(i, tok(i)) for i in range(1, n + 1)], end=n + 1)
    exp = marble([(i, tok(i + 10)) for i in range(1, n + 1)], end=n + 1)
    maps = "".join("    - map: '$0 + 1'\n" for _ in range(10))
    return (
        header("W1 map x10 over %d values" % n, n + 1)
        + legend(list(range(1, n + 11)))
        + "signals:\n  source: { hot: \"%s\" }\n  out:\n    - from: source\n%s" % (hot, maps)
        + "expect:\n  out: \"%s\"\n" % exp
    )


def w2(n):
    a = marble([(2 * k, tok(k)) for k in range(1, n + 1)], end=2 * n + 2)
    b = marble([(2 * k + 1, tok(k)) for k in range(1, n + 1)], end=2 * n + 2)
    exp = marble([(2 * k + 1, tok(2 * k)) for k in range(1, n + 1)], end=2 * n + 2)
    return (
        header("W2 combineLatest map filter over 2 x %d values" % n, 2 * n + 2)
        + legend(list(range(1, n + 1)) + [2 * k for k in range(1, n + 1)])
        + "signals:\n"
        + "  a: { hot: \"%s\" }\n  b: { hot: \"%s\" }\n" % (a, b)
        + "  out:\n    - combineLatest: [a, b]\n    - map: '$0 + $1'\n    - filter: '$0 % 2 == 0'\n"
        + "expect:\n  out: \"%s\"\n" % exp
    )


def w3(n):
    bursts = n // 10
    evs = []
    v = 0
    for b in range(bursts):
        for j in range(10):
            v += 1
            evs.append((30 * b + 1 + j, tok(v)))
    end = 30 * bursts + 1
    exp = marble([(30 * b + 15, tok((b + 1) * 10)) for b in range(bursts)], end=end)
    return (
        header("W3 debounce over %d values in bursts" % n, end)
        + legend(list(range(1, v + 1)))
        + "signals:\n  source: { hot: \"%s\" }\n" % marble(evs, end=end)
        + "  out:\n    - from: source\n    - debounce: 5f\n"
        + "expect:\n  out: \"%s\"\n" % exp
    )


def w4(n):
    outer = marble([(3 * k, tok(k)) for k in range(1, n + 1)], end=3 * n + 3)
    out = []
    for k in range(1, n):
        out += [(3 * k + 1, tok(k * 10 + 1)), (3 * k + 2, tok(k * 10 + 2))]
    out += [(3 * n + 1, tok(n * 10 + 1)), (3 * n + 2, tok(n * 10 + 2)), (3 * n + 4, tok(n * 10 + 3))]
    values = list(range(1, n + 1)) + [int(t.strip("'")) for _, t in out]
    # The inner's values k*10+1, k*10+2, k*10+3 at +1, +2, +4, completed at +5 (as the peer's
    # ColdSource(k)): a cold marble of 1, 2, 3 mapped with the outer value.
    return (
        header("W4 switch to latest over %d outer values" % n, 3 * n + 5)
        + legend(values)
        + "signals:\n  outer: { hot: \"%s\" }\n" % outer
        + "  out:\n    - from: outer\n    - flatMapLatest:\n"
        + "        - cold: \"-12-3|\"\n        - map: 'outer * 10 + $0'\n"
        + "expect:\n  out: \"%s\"\n" % marble(out, end=3 * n + 5)
    )


ACCOUNT = ["", "a", "ab", "abc", "ab", "a", "", "x", "xy", "xyz"]
PASSWORD = ["", "", "p", "pw", "", "", "q", "qw", "qwe", ""]


def w5_expected():
    merged = []
    for i in range(10):
        merged.append((210 + 10 * i, 0, ACCOUNT[i]))
        merged.append((215 + 10 * i, 1, PASSWORD[i]))
    merged.sort()
    a = p = last = None
    out = []
    for t, w, v in merged:
        if w == 0:
            a = v
        else:
            p = v
        if a is not None and p is not None:
            r = a != "" and p != ""
            if r != last:
                out.append((t, "t" if r else "f"))
                last = r
    return out


def text_token(s):
    if s == "":
        return "e"
    return s if len(s) == 1 else "'%s'" % s


def w5_document(i):
    acc = " ".join("@%df %s" % (210 + 10 * k, text_token(v)) for k, v in enumerate(ACCOUNT))
    pw = " ".join("@%df %s" % (215 + 10 * k, text_token(v)) for k, v in enumerate(PASSWORD))
    exp = " ".join("@%df %s" % (f, t) for f, t in w5_expected())
    return (
        "flowrun: 1\n"
        "name: W5 login form %d\n"
        "values: { e: \"\", t: true, f: false }\n"
        "signals:\n"
        "  account: { hot: \"%s\" }\n"
        "  password: { hot: \"%s\" }\n"
        "  enabled:\n"
        "    - combineLatest: [account, password]\n"
        "    - map: '$0.count > 0 && $1.count > 0'\n"
        "    - distinctUntilChanged\n"
        "expect:\n"
        "  enabled: \"%s\"\n" % (i, acc, pw, exp)
    )


def w5(tests):
    return "---\n".join(w5_document(i) for i in range(tests))


def graph(nodes):
    """A chain of `nodes` named signals, each one map step on the previous."""
    lines = [
        "flowrun: 1\n",
        "name: graph of %d nodes\n" % nodes,
        "signals:\n",
        "  s0: { hot: \"-1-2-3|\" }\n",
    ]
    for i in range(1, nodes):
        lines.append("  s%d: [{ from: s%d }, { map: '$0 + 1' }]\n" % (i, i - 1))
    lines.append("expect:\n  s%d: { marble: \"-a-b-c|\", values: { a: %d, b: %d, c: %d } }\n"
                 % (nodes - 1, nodes, nodes + 1, nodes + 2))
    return "".join(lines)


def reference_chain(n, cycle=False):
    """`n` named signals, each only `from` the next (`s0` from `s1` … from `s<n>`), ending in
    a hot marble, or with `cycle` in `from: s0` (a load error that lists the cycle)."""
    lines = ["flowrun: 1\n", "name: reference chain of %d names\n" % n, "signals:\n"]
    lines += ["  s%d: { from: s%d }\n" % (i, i + 1) for i in range(n)]
    lines.append("  s%d: %s\n" % (n, "{ from: s0 }" if cycle else '{ hot: "-a-b|" }'))
    lines.append('expect:\n  s0: "-a-b|"\n')
    return "".join(lines)


def silent(n):
    """n ticks of an interval bound to a property: nothing is recorded."""
    return (
        "flowrun: 1\n"
        "name: %d events recorded nowhere\n" % n
        + "limit: { time: %d, steps: %d, deliveries: %d }\n" % (n + 10, 2 * n + 100, 3 * n + 100)
        + "signals:\n  ticks: [{ interval: 1f }, { take: %d }, { map: '$0 + 1' }]\n" % n
        + "properties:\n  sink: ticks\n"
    )


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def main():
    out = sys.argv[1]
    small = "--small" in sys.argv
    os.makedirs(out, exist_ok=True)
    k = 100 if small else 1
    write(os.path.join(out, "W1.yaml"), w1(1_000_000 // k))
    write(os.path.join(out, "W2.yaml"), w2(500_000 // k))
    write(os.path.join(out, "W3.yaml"), w3(1_000_000 // k))
    write(os.path.join(out, "W4.yaml"), w4(300_000 // k))
    write(os.path.join(out, "W5.yaml"), w5(2_000 // (10 if small else 1)))
    # ~10 MB: a W1 scenario of 280,000 values.
    write(os.path.join(out, "load-10mb.yaml"), w1(280_000 // k).replace("W1 map", "10 MB load, map"))
    write(os.path.join(out, "graph-10k.yaml"), graph(10_000 // k))
    for n, name in ((20_000, "20k"), (200_000, "200k")):
        write(os.path.join(out, "chain-%s.yaml" % name), reference_chain(n // k))
        write(os.path.join(out, "chain-%s-cycle.yaml" % name), reference_chain(n // k, cycle=True))
    write(os.path.join(out, "silent-100k.yaml"), silent(100_000))
    write(os.path.join(out, "silent-10m.yaml"), silent(10_000_000 // k))
    files = os.path.join(out, "files-2000")
    os.makedirs(files, exist_ok=True)
    for i in range(2_000 // (10 if small else 1)):
        write(os.path.join(files, "login-%04d.yaml" % i), w5_document(i))


if __name__ == "__main__":
    main()
