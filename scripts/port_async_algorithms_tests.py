#!/usr/bin/env python3
"""Port swift-async-algorithms' `validate { … }` marble diagrams to flowrun scenarios.

Usage: python3 scripts/port_async_algorithms_tests.py GIT_DIR [TAG] [OUT_DIR]

GIT_DIR is a clone (or a bare mirror, such as /opt/swift-packages/apple/swift-async-algorithms.git)
of apple/swift-async-algorithms; TAG defaults to 1.1.4; OUT_DIR defaults to
Tests/FlowrunScenarioTests/Ports/async. The script reads Tests/AsyncAlgorithmsTests/Test*.swift
at TAG, finds every `validate { … }` block (the input lanes, the sequence under test, the expected
lane), maps the expression to `library: async` steps with the table below, and writes one YAML
file per test file, one scenario per diagram. Only the derived marbles are written, never the
package's code.

Reading the package's diagrams (Sources/AsyncSequenceValidation, Validation.md):
- every symbol is one frame; spaces are skipped; `[ab]` is one frame (flowrun's `(ab)`); `^` is a
  thrown error (flowrun's `#`); `'foo'` is one value (flowrun's quoted token);
- an input lane is an iterator of its emissions: once they are used up, `next()` returns nil at
  once, so a lane without `|` ends in the frame of its last event;
- the consumer pulls at once after each value; `,` in the expected lane delays its next pull to
  the next step and `;` cancels the iterating task (a cancelled input returns nil: `[;|]`). Both
  are flowrun's own marks of an expectation under `library: async` and are written as they are
  (`[1,]` is `(1,)`, `[;|]` is `(;|)`); in an input lane they have no meaning and the diagram is
  listed as not ported;
- a clock-driven sequence (`AsyncTimerSequence`, `.repeating(every:)`) starts one step before the
  first column of the diagram (its first tick of interval n is in column n - 1); such a diagram is
  ported with every lane shifted one frame later, so the run subscribes at frame 0, one frame
  before the diagram's first column;
- a diagram with `expectedFailures:` tests the harness itself: it is ported to OUT_DIR-failing
  (`Ports/async-failing`), its description holding the package's messages, and flowrun must fail
  in the same place (PortTests): a diagram the harness refuses to parse (an unbalanced or nested
  group, a step in a group) does not load, and a wrong expectation fails at the frame of the
  package's first message; one that needs an operator violating the iterator protocol
  (`violatingSpecification`) is not ported;
- `validate(theme: EmojiTokens())` is read with that theme's symbols;
- an expression that passes a closure is ported when the table says the closure in flowrun's
  expressions (`chunked(by:)`, `chunked(on:)`, `LaggingAsyncSequence`); the port carries a
  comment with the test's name and what the closure does.
"""

import json
import pathlib
import re
import subprocess
import sys

INPUT = r"\$0\.inputs\[(\d)\]"
STEPS = r"\.steps\((\d+)\)"

# (pattern over the expression with spaces removed, steps builder, uses a clock, closure)
# `closure`: the expression passes a closure, said here in flowrun's expression language; the
# port's comment names the test and what the closure does.
TABLE = []


def rule(pattern, clock=False, closure=None):
    def register(build):
        TABLE.append((re.compile("^" + pattern + "$"), build, clock, closure))
        return build

    return register


def chained(first, rest):
    return [{"from": f"in{first}"}] + rest


@rule(INPUT)
def identity(m):
    return chained(m.group(1), [])


CAPITALIZE = [{"map": "$0.uppercased()"}]


@rule(INPUT + r"\.map\{itemin(?:await)?Task\{item\.capitalized\}\.value\}")
@rule(INPUT + r"\.map\{\$0\.capitalized\}")
def capitalized(m):
    return chained(m.group(1), CAPITALIZE)


@rule(INPUT + r"\.debounce\(for:" + STEPS + r",clock:\$0\.clock\)", clock=False)
def debounce(m):
    return chained(m.group(1), [{"debounce": int(m.group(2))}])


@rule(INPUT + r"\._throttle\(for:" + STEPS + r",clock:\$0\.clock(?:,latest:(true|false))?\)")
def throttle(m):
    latest = m.group(3) != "false"
    return chained(m.group(1), [{"throttle": {"for": int(m.group(2)), "latest": latest}}])


@rule(r"merge\(" + INPUT + "," + INPUT + r"(?:," + INPUT + r")?\)")
def merge(m):
    inputs = [g for g in m.groups() if g is not None]
    return [{"merge": [f"in{i}" for i in inputs]}]


@rule(INPUT + r"\.map\{\$0\.first\.map\{String\(\$0\)\}\?\?\"X\"\}")
def first_character(m):
    return chained(m.group(1), [{"map": '$0.isEmpty ? "X" : $0.prefix(1)'}])


@rule(INPUT + r"\.buffer\(policy:\.(bounded|bufferingOldest|bufferingLatest)\((\d+)\)\)")
def buffer(m):
    policy = {"bufferingLatest": "bufferingNewest"}.get(m.group(2), m.group(2))
    return chained(m.group(1), [{"buffer": {"policy": {policy: int(m.group(3))}}}])


@rule(r"AsyncTimerSequence\(interval:" + STEPS + r",clock:\$0\.clock\)\.map\{_in\"x\"\}", clock=True)
def timer(m):
    return [{"interval": int(m.group(1))}, {"map": '"x"'}]


# The package's values are strings (a digit in a lane is quoted, so that flowrun reads the
# string). `sumCharacters` is ported only over lanes of 1s, where the sum is the count.
JOIN = {"concatCharacters": {"map": '$0.joined("")'}, "sumCharacters": {"map": "String($0.count)"}}


@rule(INPUT + r"\.chunks\(ofCount:(\d+)\)\.map\((concatCharacters|sumCharacters)\)")
def chunks(m):
    return chained(m.group(1), [{"chunks": int(m.group(2))}, JOIN[m.group(3)]])


@rule(INPUT + r"\.chunked\(by:" + INPUT + r"\)\.map\((concatCharacters|sumCharacters)\)")
def chunked_signal(m):
    return chained(m.group(1), [{"chunked": {"by": f"in{m.group(2)}"}}, JOIN[m.group(3)]])


@rule(INPUT + r"\.chunks\(ofCount:(\d+),or:" + INPUT + r"\)\.map\((concatCharacters|sumCharacters)\)")
def chunks_signal(m):
    return chained(m.group(1), [{"chunks": {"ofCount": int(m.group(2)), "or": f"in{m.group(3)}"}}, JOIN[m.group(4)]])


@rule(
    INPUT + r"\.chunked\(by:\.repeating\(every:" + STEPS + r",clock:\$0\.clock\)\)\.map\((concatCharacters|sumCharacters)\)",
    clock=True,
)
def chunked_timer(m):
    return chained(m.group(1), [{"chunked": {"by": {"every": int(m.group(2))}}}, JOIN[m.group(3)]])


@rule(
    INPUT
    + r"\.chunks\(ofCount:(\d+),or:\.repeating\(every:"
    + STEPS
    + r",clock:\$0\.clock\)\)\.map\((concatCharacters|sumCharacters)\)",
    clock=True,
)
def chunks_timer(m):
    every = {"every": int(m.group(3))}
    return chained(m.group(1), [{"chunks": {"ofCount": int(m.group(2)), "or": every}}, JOIN[m.group(4)]])


# Closures, in flowrun's expressions. `chunked(on:)` sends [projection, [values]] ($0, $1).
SAME_CASE = '$0.first.matches("[A-Z]") == $1.first.matches("[A-Z]")'
INITIALS = {"map": '$1.map($0.first).joined("")'}


@rule(
    INPUT + r"\.chunked\(by:\{\$0\.first!\.isUppercase==\$1\.first!\.isUppercase\}\)\.map\(concatCharacters\)",
    closure="chunked(by:) with a closure: two adjacent values belong together when their first characters are both uppercase or both not",
)
def chunked_same_case(m):
    return chained(m.group(1), [{"chunked": {"by": SAME_CASE}}, JOIN["concatCharacters"]])


@rule(
    INPUT + r"\.chunked\(by:\{_,_intrue\}\)\.map\(concatCharacters\)",
    closure="chunked(by:) with a closure that is always true: one chunk",
)
def chunked_always(m):
    return chained(m.group(1), [{"chunked": {"by": True}}, JOIN["concatCharacters"]])


@rule(
    INPUT
    + r"\.chunked\(on:\{\$0\.first!\.lowercased\(\)\}\)\.map\{concatCharacters\(\$0\.1\.map\(\{String\(\$0\.first!\)\}\)\)\}",
    closure="chunked(on:) the first character lowercased; each chunk mapped to its values' first characters, joined",
)
def chunked_on_initial(m):
    return chained(m.group(1), [{"chunked": {"on": "$0.first.lowercased()"}}, INITIALS])


@rule(
    INPUT + r"\.chunked\(on:\{_in42\}\)\.map\{concatCharacters\(\$0\.1\.map\(\{String\(\$0\.first!\)\}\)\)\}",
    closure="chunked(on:) a constant projection (one chunk); the chunk mapped to its values' first characters, joined",
)
def chunked_on_constant(m):
    return chained(m.group(1), [{"chunked": {"on": 42}}, INITIALS])


@rule(
    r"LaggingAsyncSequence\(" + INPUT + r",delayBy:" + STEPS + r",using:\$0\.clock\)",
    closure="LaggingAsyncSequence: each next() pulls the base, then sleeps n steps before returning its value; "
    + "said as the sequential flatMap of an inner that sends the value n frames after it starts",
)
def lagging(m):
    inner = [{"just": 0}, {"delay": int(m.group(2))}, {"map": "outer"}]
    return chained(m.group(1), [{"flatMap": inner}])


def lane(text, is_input):
    """The package's lane as a flowrun marble, or None when it cannot be one."""
    out = []
    i = 0
    events = 0
    terminated = False
    text = text.replace(" ", "")
    while i < len(text):
        ch = text[i]
        if ch == "-":
            out.append("-")
        elif ch == "[":
            end = text.index("]", i)
            inner = lane_group(text[i + 1 : end], is_input)
            if inner is None:
                return None
            out.append("(" + inner + ")")
            events += 1
            terminated = terminated or any(c in inner for c in "|#")
            i = end
        elif ch == "'":
            end = text.index("'", i + 1)
            out.append("'" + text[i + 1 : end] + "'")
            events += 1
            i = end
        elif ch == "|":
            out.append("|")
            terminated = True
        elif ch == "^":
            out.append("#")
            terminated = True
        elif ch in ",;":
            if is_input:
                return None
            out.append(ch)
        else:
            out.append("'" + ch + "'" if ch.isdigit() else ch)
            events += 1
        i += 1
        if is_input and terminated:
            break  # the iteration ends at its terminal event: later ones are never reached
    if is_input and not terminated:
        # The emissions are used up after the last event: nil in that frame.
        while out and out[-1] == "-":
            out.pop()
        if not out:
            return "|"
        last = out.pop()
        out.append("(" + last[1:-1] + "|)" if last.startswith("(") else "(" + last + "|)")
    return "".join(out)


def lane_group(inner, is_input):
    parts = []
    i = 0
    while i < len(inner):
        ch = inner[i]
        if ch == "'":
            end = inner.index("'", i + 1)
            parts.append(inner[i : end + 1])
            i = end
        elif ch == "^":
            parts.append("#")
        elif ch in ",;" and not is_input:
            parts.append(ch)
        elif ch in ",;-[":
            return None
        else:
            parts.append("'" + ch + "'" if ch.isdigit() else ch)
        i += 1
    return "".join(parts)


BLOCK = re.compile(r"validate(\((?:[^()]|\([^()]*\))*\))?\s*\{", re.S)
STRING = re.compile(r'^\s*"((?:[^"\\]|\\.)*)"\s*$')


def diagrams(source):
    """(test name, options, [lines]) for every validate block, in file order."""
    found = []
    for match in BLOCK.finditer(source):
        before = source[: match.start()]
        names = re.findall(r"func (test\w*)\(", before)
        depth, end = 1, match.end()
        while depth and end < len(source):  # the block's closing brace (an expression may hold braces)
            depth += {"{": 1, "}": -1}.get(source[end], 0)
            end += 1
        body = [line for line in source[match.end() : end - 1].split("\n") if line.strip()]
        found.append((names[-1] if names else "test", match.group(1) or "", body))
    return found


# The emoji theme of TestValidationTests.test_diagram_emoji, as the package's symbols.
EMOJI_THEME = {"➖": "-", "❗️": "^", "❌": "|", "➡️": "'", "⬅️": "'", "⏳": ","}


def themed(text, options):
    if "EmojiTokens" not in options:
        return text
    for symbol, meaning in EMOJI_THEME.items():
        text = text.replace(symbol, meaning)
    return text


def raw_lane(text):
    """A lane the package's harness refuses to parse, with flowrun's symbols: flowrun refuses it too."""
    return text.replace(" ", "").replace("[", "(").replace("]", ")").replace("^", "#")


def port(name, options, body):
    """({scenario, closure, failures}, None) or (None, why not).

    `failures`: the package's `expectedFailures:` messages (the diagram is ported to the failing
    folder, where flowrun must fail in the same place), or None."""
    failures = None
    if "expectedFailures" in options:
        failures = [re.sub(r"\\(.)", r"\1", f) for f in re.findall(r'"((?:[^"\\]|\\.)*)"', options)]
    if "theme" in options and "EmojiTokens" not in options:
        return None, "a theme the script does not read"
    if failures and any(f.startswith("specification violation") for f in failures):
        return None, "an operator that violates the iterator protocol (a value or a failure after nil), which no flowrun step is"
    strings = []
    expression = []
    for line in body:
        m = STRING.match(line)
        if m:
            strings.append(themed(m.group(1), options))
        elif line.strip().startswith("$0") or re.match(r"\s*(merge|zip|combineLatest|chain|AsyncTimerSequence)\b", line):
            expression.append(line.strip())
        elif "diagram in" in line or line.strip().startswith("//"):
            return None, (
                "a closure over the diagram's clock that cannot be said (its sleep ignores the task's "
                "cancellation, try?, and it returns a value after ';'; a flowrun step ends at the cancellation)"
            )
        else:
            expression.append(line.strip())
    if not expression or len(strings) < 1:
        return None, "not one expression between the lanes"
    inputs, output = strings[:-1], strings[-1]
    text = re.sub(r"\s+", "", "".join(expression))  # an expression may span lines
    if "sumCharacters" in text and any(c.isdigit() and c != "1" for lane_text in inputs for c in lane_text):
        return None, "sumCharacters over digits other than 1"
    for pattern, build, clock, closure in TABLE:
        m = pattern.match(text)
        if m:
            break
    else:
        return None, f"operator not in the table: {expression[0]}"
    if failures and all(f.startswith("validation diagram") for f in failures):
        # The package refuses the diagram before running it: the lanes as written.
        signals = {f"in{i}": {"hot": raw_lane(x)} for i, x in enumerate(inputs)}
        signals["out"] = build(m)
        scenario = {"flowrun": 1, "name": name, "description": "; ".join(failures), "library": "async"}
        scenario.update({"signals": signals, "expect": {"out": raw_lane(output)}})
        return {"scenario": scenario, "closure": closure, "failures": failures}, None
    lanes = [lane(s, True) for s in inputs]
    expected = lane(output, False)
    if expected is None or any(x is None for x in lanes):
        return None, "an input lane with ',' or ';'"
    if clock:
        lanes = ["-" + x for x in lanes]
        expected = "-" + expected
    signals = {f"in{i}": {"hot": x} for i, x in enumerate(lanes)}
    signals["out"] = build(m)
    scenario = {"flowrun": 1, "name": name, "library": "async", "signals": signals, "expect": {"out": expected}}
    if "EmojiTokens" in options:
        closure = "read with its theme: ➖ is '-', ❌ is '|', and each emoji is a one-character value"
    if failures:
        scenario = {"flowrun": 1, "name": name, "description": "; ".join(failures), **{k: v for k, v in scenario.items() if k not in ("flowrun", "name")}}
    return {"scenario": scenario, "closure": closure, "failures": failures}, None


def write(out_dir, stem, tag, scenarios, failing):
    source = f"swift-async-algorithms' Tests/AsyncAlgorithmsTests/{stem}.swift ({tag})"
    if failing:
        header = (
            f"# The validate diagrams of {source} that expect its harness to report\n"
            f"# failures (`expectedFailures:`, in each description), as flowrun scenarios that fail in the\n"
            f"# same place (written by scripts/port_async_algorithms_tests.py).\n"
        )
    else:
        header = (
            f"# What {source} asserts in its\n"
            f"# validate diagrams, as flowrun scenarios (written by scripts/port_async_algorithms_tests.py).\n"
        )
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / f"{stem.removeprefix('Test')}.yaml").write_text(header + "\n---\n".join(scenarios))


def main():
    git_dir = sys.argv[1]
    tag = sys.argv[2] if len(sys.argv) > 2 else "1.1.4"
    out_dir = pathlib.Path(sys.argv[3] if len(sys.argv) > 3 else "Tests/FlowrunScenarioTests/Ports/async")
    failing_dir = out_dir.parent / f"{out_dir.name}-failing"
    files = subprocess.run(
        ["git", "-C", git_dir, "ls-tree", "--name-only", tag, "Tests/AsyncAlgorithmsTests/"],
        check=True, capture_output=True, text=True,
    ).stdout.split()
    total = ported = failing = 0
    skipped = {}
    for path in sorted(files):
        if not re.search(r"/Test\w+\.swift$", path):
            continue
        source = subprocess.run(
            ["git", "-C", git_dir, "show", f"{tag}:{path}"], check=True, capture_output=True, text=True
        ).stdout
        stem = pathlib.Path(path).stem
        scenarios = {False: [], True: []}
        seen = {}
        for name, options, body in diagrams(source):
            total += 1
            result, why = port(name, options, body)
            if result is None:
                skipped.setdefault(why, []).append(f"{stem}.{name}")
                continue
            scenario, closure = result["scenario"], result["closure"]
            seen[name] = seen.get(name, 0) + 1
            if seen[name] > 1:
                scenario["name"] = f"{name}_{seen[name]}"
            comment = f"# {stem}.{name}: {closure}\n" if closure else ""
            scenarios[result["failures"] is not None].append(comment + json.dumps(scenario, ensure_ascii=False) + "\n")
        ported += len(scenarios[False])
        failing += len(scenarios[True])
        for is_failing, written in scenarios.items():
            if written:
                write(failing_dir if is_failing else out_dir, stem, tag, written, is_failing)
    print(f"{total} validate diagrams read, {ported + failing} ported ({failing} of them expected to fail)")
    for why, names in sorted(skipped.items()):
        print(f"  not ported ({len(names)}): {why}: {', '.join(names)}")


if __name__ == "__main__":
    main()
