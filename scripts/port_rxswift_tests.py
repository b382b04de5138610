#!/usr/bin/env python3
"""Writes flowrun scenarios that state what RxSwift's own operator tests assert.

Reads `Tests/RxSwiftTests/Observable+<Name>Tests.swift` from a checkout of RxSwift (its path is
the first argument) and writes, for every test this script can read — hot and cold test
observables of Int/String/Bool values, one operator call in `scheduler.start { … }` that the
table below knows, the expected events and subscriptions — one `library: rxswift` scenario to
`Tests/FlowrunScenarioTests/Ports/rxswift/<name>.yaml`. A virtual-time tick is one frame; the
test scheduler subscribes at 200 and disposes at 1000, so a time t is frame t - 200.

Usage: python3 scripts/port_rxswift_tests.py /path/to/RxSwift [--report]
"""
import json
import os
import re
import sys

SUBSCRIBE, DISPOSE = 200, 1000
ERRORS = {"testError": "error", "testError1": "error1", "testError2": "error2", "testError3": "error3",
          "RxError.timeout": "timeout", "RxError.moreThanOneElement": "moreThanOneElement",
          "RxError.noElements": "noElements"}


def value(text):
    text = text.strip()
    array = re.fullmatch(r"EquatableArray\(\[(.*)\]\)", text)
    if array:
        return [value(item) for item in array.group(1).split(",") if item.strip()]
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if re.fullmatch(r'"[^"\\]*"', text):
        return text[1:-1]
    if text in ("true", "false"):
        return text == "true"
    raise ValueError(text)


def events(text):
    """The `.next(t, v)`, `.completed(t)`, `.error(t, e)` of a list; raises on anything else."""
    found = []
    for item in re.finditer(r"\.(next|completed|error)\(([^()]*(?:\([^()]*\))?[^()]*)\)", text):
        kind, args = item.group(1), item.group(2)
        parts = [p.strip() for p in args.split(",", 1)]
        time = int(parts[0])
        if kind == "next":
            found.append((time, "next", value(parts[1])))
        elif kind == "completed":
            found.append((time, "completed", None))
        else:
            if parts[1] not in ERRORS:
                raise ValueError(parts[1])
            found.append((time, "error", ERRORS[parts[1]]))
    rest = re.sub(r"\.(next|completed|error)\(([^()]*(?:\([^()]*\))?[^()]*)\)", "", text)
    rest = re.sub(r"Recorded\.events|Recorded<Event<\w+>>|Int\.self|String\.self|\[|\]|\(|\)|,|\s", "", rest)
    if rest:
        raise ValueError("unread events: " + rest[:40])
    return found


class Legend:
    def __init__(self):
        self.tokens = {}

    def token(self, v):
        if isinstance(v, int) and 0 <= v <= 9:
            return str(v)
        key = json.dumps(v)
        if key not in self.tokens:
            self.tokens[key] = "v%d" % len(self.tokens)
        return "'%s'" % self.tokens[key]

    def values(self):
        return {name: json.loads(key) for key, name in self.tokens.items()}


def marble(evts, legend, offset):
    """Events at frame time - offset, grouped by frame; None if an event is before frame 0."""
    frames = {}
    for time, kind, v in evts:
        frame = time - offset
        if frame < 0:
            return None
        frames.setdefault(frame, []).append(
            legend.token(v) if kind == "next" else ("|" if kind == "completed" else "#"))
    out, frame = [], 0
    for at in sorted(frames):
        out.append("-" * (at - frame))
        tokens = frames[at]
        out.append(tokens[0] if len(tokens) == 1 else "(" + "".join(tokens) + ")")
        frame = at + 1
    return "".join(out) or "-"


def error_of(evts):
    errors = {v for _, kind, v in evts if kind == "error"}
    return errors.pop() if len(errors) == 1 else None


def expression(closure):
    body = closure.strip()
    if not re.fullmatch(r"[$\d\s+\-*/%<>=!&|()]+", body):
        raise ValueError("closure " + body)
    return body


def seconds(text):
    m = re.fullmatch(r"\.(?:seconds|milliseconds)\((\d+)\)|(\d+)", text.strip())
    if not m:
        raise ValueError(text)
    return int(m.group(1) or m.group(2))


S = r"\s*"
A = r"(\w+)"
T = r"(\.\w+\(\d+\)|\d+)"
SCH = r",\s*scheduler:\s*scheduler"
# (pattern over the start closure's body, builder of (signal plan, inputs used)).
CALLS = [
    (rf"{A}\.throttle\({T}, latest: false{SCH}\)", lambda m: ([{"from": m[1]}, {"throttle": seconds(m[2]), "latest": False}])),
    (rf"{A}\.throttle\({T}(?:, latest: true)?{SCH}\)", lambda m: ([{"from": m[1]}, {"throttle": seconds(m[2])}])),
    (rf"{A}\.delay\({T}{SCH}\)", lambda m: ([{"from": m[1]}, {"delay": seconds(m[2])}])),
    (rf"{A}\.debounce\({T}{SCH}\)", lambda m: ([{"from": m[1]}, {"debounce": seconds(m[2])}])),
    (rf"{A}\.timeout\({T}{SCH}\)", lambda m: ([{"from": m[1]}, {"timeout": seconds(m[2])}])),
    (rf"{A}\.timeout\({T}, other: {A}{SCH}\)", lambda m: ([{"from": m[1]}, {"timeout": seconds(m[2]), "fallback": m[3]}])),
    (rf"{A}\.delaySubscription\({T}{SCH}\)", lambda m: ([{"from": m[1]}, {"delaySubscription": seconds(m[2])}])),
    (rf"{A}\.sample\({A}\)", lambda m: ([{"from": m[1]}, {"sample": m[2]}])),
    (rf"{A}\.sample\({A}, defaultValue: (-?\d+)\)", lambda m: ([{"from": m[1]}, {"sample": {"signal": m[2], "defaultValue": int(m[3])}}])),
    (rf"{A}\.skip\(until: {A}\)", lambda m: ([{"from": m[1]}, {"skipUntil": m[2]}])),
    (rf"{A}\.take\(until: {A}\)", lambda m: ([{"from": m[1]}, {"take": {"until": m[2]}}])),
    (rf"{A}\.take\((\d+)\)", lambda m: ([{"from": m[1]}, {"take": int(m[2])}])),
    (rf"{A}\.take\(for: {T}{SCH}\)", lambda m: ([{"from": m[1]}, {"take": {"for": seconds(m[2])}}])),
    (rf"{A}\.skip\((\d+)\)", lambda m: ([{"from": m[1]}, {"skip": int(m[2])}])),
    (rf"{A}\.skip\({T}{SCH}\)", lambda m: ([{"from": m[1]}, {"skip": {"for": seconds(m[2])}}])),
    (rf"{A}\.take\(while: \{{(.*)\}}\)", lambda m: ([{"from": m[1]}, {"take": {"while": expression(m[2])}}])),
    (rf"{A}\.take\(while: \{{(.*)\}}, behavior: \.(inclusive|exclusive)\)", lambda m: ([{"from": m[1]}, {"take": {"while": expression(m[2]), "behavior": m[3]}}])),
    (rf"{A}\.skip\(while: \{{(.*)\}}\)", lambda m: ([{"from": m[1]}, {"skip": {"while": expression(m[2])}}])),
    (rf"{A}\.takeLast\((\d+)\)", lambda m: ([{"from": m[1]}, {"takeLast": int(m[2])}])),
    (rf"{A}\.element\(at: (\d+)\)", lambda m: ([{"from": m[1]}, {"element": {"at": int(m[2])}}])),
    (rf"{A}\.distinctUntilChanged\(\)", lambda m: ([{"from": m[1]}, "distinctUntilChanged"])),
    (rf"{A}\.single\(\)", lambda m: ([{"from": m[1]}, "single"])),
    (rf"{A}\.single\s*\{{(.*)\}}", lambda m: ([{"from": m[1]}, {"single": expression(m[2])}])),
    (rf"{A}\.asSingle\(\)(?:\.asObservable\(\))?", lambda m: ([{"from": m[1]}, "asSingle"])),
    (rf"{A}\.asMaybe\(\)(?:\.asObservable\(\))?", lambda m: ([{"from": m[1]}, "asMaybe"])),
    (rf"{A}\.toArray\(\)(?:\.asObservable\(\))?", lambda m: ([{"from": m[1]}, "toArray"])),
    (rf"{A}\.ifEmpty\(default: (-?\d+)\)", lambda m: ([{"from": m[1]}, {"ifEmpty": {"default": int(m[2])}}])),
    (rf"{A}\.buffer\(timeSpan: {T}, count: (\d+){SCH}\)\.map \{{ EquatableArray\(\$0\) \}}",
     lambda m: ([{"from": m[1]}, {"buffer": {"timeSpan": seconds(m[2]), "count": int(m[3])}}])),
    (rf"{A}\.ifEmpty\(switchTo: {A}(?:\.asObservable\(\))?\)", lambda m: ([{"from": m[1]}, {"ifEmpty": {"switchTo": m[2]}}])),
    (rf"Observable\.generate\(initialState: (-?\d+), condition: \{{ x in (.*?) \}}{SCH}\) \{{ x in (.*?)(?: \}})?",
     lambda m: ({"generate": {"initialState": int(m[1]), "condition": expression(m[2].replace("x", "$0")),
                              "iterate": expression(m[3].replace("x", "$0"))}})),
    (rf"Observable\.range\(start: (-?\d+), count: (\d+){SCH}\)",
     lambda m: ({"range": {"start": int(m[1]), "count": int(m[2])}})),
    (rf"{A}\.amb\({A}\)", lambda m: ([{"from": m[1]}, {"amb": m[2]}])),
    (rf"{A}\.retry\((\d+)\)", lambda m: ([{"from": m[1]}, {"retry": int(m[2])}])),
    (rf"{A}\.retry\(\)", lambda m: ([{"from": m[1]}, "retry"])),
    (rf"{A}\.catchAndReturn\((-?\d+)\)", lambda m: ([{"from": m[1]}, {"catchAndReturn": int(m[2])}])),
    (rf"{A}\.startWith\((-?\d+)\)", lambda m: ([{"from": m[1]}, {"startWith": int(m[2])}])),
    (rf"{A}\.map\s*\{{(.*)\}}", lambda m: ([{"from": m[1]}, {"map": expression(m[2])}])),
    (rf"{A}\.filter\s*\{{(.*)\}}", lambda m: ([{"from": m[1]}, {"filter": expression(m[2])}])),
    (rf"{A}\.scan\((-?\d+)\)\s*\{{(.*)\}}", lambda m: ([{"from": m[1]}, {"scan": {"seed": int(m[2]), "accumulator": expression(m[3])}}])),
    (rf"{A}\.scan\((-?\d+), accumulator: \+\)", lambda m: ([{"from": m[1]}, {"scan": {"seed": int(m[2]), "accumulator": "$0 + $1"}}])),
    (rf"{A}\.reduce\((-?\d+), accumulator: \+\)", lambda m: ([{"from": m[1]}, {"reduce": {"seed": int(m[2]), "accumulator": "$0 + $1"}}])),
    (rf"{A}\.withLatestFrom\({A}\)", lambda m: ([{"from": m[1]}, {"withLatestFrom": m[2]}, {"map": "$1"}])),
    (rf"{A}\.ignoreElements\(\)(?:\.asObservable\(\))?", lambda m: ([{"from": m[1]}, "ignoreElements"])),
    (rf"Observable\.zip\({A}, {A}\)\s*\{{\s*\$0 \+ \$1\s*\}}", lambda m: ([{"zip": [m[1], m[2]]}, {"map": "$0 + $1"}])),
    (rf"Observable\.combineLatest\({A}, {A}\)\s*\{{\s*\$0 \+ \$1\s*\}}", lambda m: ([{"combineLatest": [m[1], m[2]]}, {"map": "$0 + $1"}])),
    (rf"Observable\.merge\({A}, {A}\)", lambda m: ({"merge": [m[1], m[2]]})),
    (rf"Observable\.concat\(\[{A}, {A}\]\)", lambda m: ({"concat": [m[1], m[2]]})),
    (rf"Observable\.amb\(\[{A}, {A}\]\)", lambda m: ([{"from": m[1]}, {"amb": m[2]}])),
]


def plan_of(body):
    body = " ".join(body.split())
    for pattern, build in CALLS:
        m = re.fullmatch(pattern, body)
        if m:
            return build(m)
    raise ValueError("call " + body[:60])


def functions(source):
    for m in re.finditer(r"\n    func (test\w*)\(\) \{\n(.*?)\n    \}\n", source, re.S):
        yield m.group(1), m.group(2)


def port(name, body):
    if "TestScheduler(initialClock: 0)" not in body or "#if" in body:
        raise ValueError("not a TestScheduler test")
    inputs = {}
    for m in re.finditer(r"let (\w+)(?:: TestableObservable<\w+>)? = scheduler\.create(Hot|Cold)Observable\(\[(.*?)\]\)", body, re.S):
        evts = events(m.group(3))
        ends = [i for i, e in enumerate(evts) if e[1] != "next"]
        # A test observable may list events after its terminal one; no subscriber sees them.
        inputs[m.group(1)] = (m.group(2).lower(), evts[: ends[0] + 1] if ends else evts)
    start = re.search(r"scheduler\.start(?:\(disposed: (\d+)\))?\s*\{(.*?)\n\s*\}\n", body, re.S)
    if not start:
        raise ValueError("no scheduler.start")
    disposed = int(start.group(1) or DISPOSE)
    call = re.sub(r"^\s*\(\) -> Observable<\w+> in", "", start.group(2))
    factory = re.fullmatch(r"\s*factory\(((?:e\d+, )*e\d+)\)\s*", call)
    if factory:
        # The arity tests run each of their `factories` (the closure and the `map` form of one
        # call) over the same observables: one scenario states them.
        names = factory.group(1).split(", ")
        kind = re.search(r"Observable\.(zip|combineLatest)\(e0", body)
        if not kind:
            raise ValueError("factory")
        if "a0 + a1" in body or "x1 + x2" in body:
            selector = " + ".join("$%d" % i for i in range(len(names)))
        elif re.search(r"return 42\b", body):
            selector = "42"
        else:
            raise ValueError("factory selector")
        plan = [{kind.group(1): names}, {"map": selector}]
    else:
        plan = plan_of(call)
    named = set(re.findall(r'"(?:from|sample|skipUntil|until|amb|fallback|signal|withLatestFrom|switchTo)": "(\w+)"', json.dumps(plan)))
    named |= {n for lst in re.findall(r'"(?:zip|combineLatest|merge|concat)": \[([^\]]*)\]', json.dumps(plan)) for n in re.findall(r'"(\w+)"', lst)}
    if not named <= set(inputs):
        raise ValueError("an input that is not a test observable: %s" % sorted(named - set(inputs)))
    tail = body[start.end():]
    expected = re.search(r"XCTAssertEqual\(res\.events, (\[.*?\])\)(?:\n|$)", tail, re.S)
    if expected:
        expected_events = events(expected.group(1))
    else:
        correct = re.search(r"let correct(?:: \[Recorded<Event<\w+>>\])? = (.*?)\n\n", tail, re.S)
        if not correct or "XCTAssertEqual(res.events, correct)" not in tail:
            raise ValueError("no expected events")
        expected_events = events(correct.group(1))
    legend = Legend()
    signals = {}
    for input_name, (kind, evts) in inputs.items():
        if kind == "hot":
            seen = [e for e in evts if e[0] > SUBSCRIBE]
            signals[input_name] = {"hot": marble(seen, legend, SUBSCRIBE)}
        else:
            signals[input_name] = {"cold": marble(evts, legend, 0)}
        err = error_of(evts)
        if err and err != "error":
            signals[input_name]["error"] = err
    signals["out"] = plan
    out = marble(expected_events, legend, SUBSCRIBE)
    if out is None:
        raise ValueError("event before subscription")
    expect = {"out": out}
    err = error_of(expected_events)
    if err and err != "error":
        expect["out"] = {"marble": out, "error": err}
    for m in re.finditer(r"XCTAssertEqual\((\w+)\.subscriptions, \[(.*?)\]\)", tail, re.S):
        if m.group(1) not in inputs:
            continue
        marbles = []
        for s in re.finditer(r"Subscription\((\d+)(?:,\s*(\d+))?\)", m.group(2)):
            begin = int(s.group(1)) - SUBSCRIBE
            if begin < 0:
                raise ValueError("subscription before start")
            line = "-" * begin + "^"
            if s.group(2) and int(s.group(2)) < disposed:
                end = int(s.group(2)) - SUBSCRIBE
                line = "-" * begin + ("(^!)" if end == begin else "^" + "-" * (end - begin - 1) + "!")
            marbles.append(line)
        expect[m.group(1) + ".subscriptions"] = marbles
    doc = {"flowrun": 1, "name": name, "library": "rxswift"}
    if legend.tokens:
        doc["values"] = legend.values()
    doc["signals"] = signals
    # The disposal at `disposed` comes before a cold observable's event due then.
    has_cold = any(kind == "cold" for kind, _ in inputs.values())
    doc["until"] = disposed - SUBSCRIBE - (1 if has_cold else 0)
    doc["expect"] = expect
    return doc


def main():
    root = sys.argv[1]
    out_dir = os.path.join(os.path.dirname(__file__), "..", "Tests", "FlowrunScenarioTests", "Ports", "rxswift")
    os.makedirs(out_dir, exist_ok=True)
    tests_dir = os.path.join(root, "Tests", "RxSwiftTests")
    total = ported = 0
    skipped = {}
    for file in sorted(os.listdir(tests_dir)):
        m = re.fullmatch(r"Observable\+(\w+)Tests(\+arity)?\.swift", file)
        if not m:
            continue
        source = open(os.path.join(tests_dir, file)).read()
        docs = []
        for name, body in functions(source):
            total += 1
            try:
                docs.append(port(name, body))
            except (ValueError, KeyError) as error:
                skipped.setdefault(file, []).append((name, str(error)))
        ported += len(docs)
        path = os.path.join(out_dir, m.group(1) + (m.group(2) or "").replace("+", "-") + ".yaml")
        if docs:
            header = "# What RxSwift's Tests/RxSwiftTests/%s asserts, as flowrun scenarios\n" % file
            header += "# (written by scripts/port_rxswift_tests.py; one scenario per test it can read).\n"
            with open(path, "w") as f:
                f.write(header + "\n---\n".join(json.dumps(d, indent=None) + "\n" for d in docs))
        elif os.path.exists(path):
            os.remove(path)
    print("tests read: %d, ported: %d" % (total, ported), file=sys.stderr)
    if "--report" in sys.argv:
        for file, items in skipped.items():
            for name, why in items:
                print("%s %s: %s" % (file, name, why))


main()
