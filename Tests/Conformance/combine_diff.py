#!/usr/bin/env python3
"""Differential conformance of flowrun against OpenCombine 0.14.0 (Combine).

usage: python3 Tests/Conformance/combine_diff.py [--seed N] [--count N] [--library | --default]
                                                  [--keep DIR] [--flowrun PATH] [--combine PATH]

Generates `count` random graphs (deterministic for a seed): hot sources, PassthroughSubject and
CurrentValueSubject fed by a timeline, and Combine operators. Each graph is run by the harness
executable `CombineDiff` (Tests/CombineDifferential: OpenCombine on combine-schedulers'
TestScheduler, integer frames, subscribed at frame 0) and written as a flowrun scenario whose
`expect:` holds OpenCombine's events; flowrun runs the directory once and every scenario where it
disagrees is reported with its seed.

--library (the default): scenarios say `library: combine` and use Combine's spellings
  (`removeDuplicates`, `prepend`, `throttle: { for, latest }`, `flatMap: { maxPublishers }` …).
--default: scenarios without `library:`, generated only from the operators whose default meaning
  is Combine's (map, filter, scan with a seed, distinctUntilChanged, startWith, concatWith,
  skip, take, catchAndReturn, retry, merge, zip, flatMap, flatMapLatest, subjects), in the
  default spellings; this runs today, before flowrun reads `library:`.

Exits 0 when all agree, 1 on a difference, 2 when the harness or flowrun cannot be run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from marble_text import Event, Legend, digit_token, dump, marble, random_events  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HARNESS = os.path.join(ROOT, "Tests", "CombineDifferential")
END = 40  # `until:` of every scenario; the harness advances to the same frame

MAPS = ["$0 + 1", "$0 * 2", "$0 % 3", "$0 - 4"]
FILTERS = ["$0 % 2 == 0", "$0 > 3", "$0 < 6"]


@dataclass
class Node:
    ir: dict          # the harness's description (Tests/CombineDifferential/Sources/CombineDiff/Graph.swift)
    steps: list       # flowrun steps, first a source
    # Demand as flowrun models it (flatMap(maxPublishers:), docs/libraries.md): values come from a
    # hot source, a PassthroughSubject or a cold marble (dropped without demand), or from Just and
    # Sequence (waiting for demand), through map, filter and prepend only.
    push: bool = False
    # May send a value during subscription (Just, Sequence, a CurrentValueSubject, prepend …),
    # which OpenCombine's Throttle drops (docs/libraries.md).
    sync: bool = True


@dataclass
class Graph:
    rng: random.Random
    library: bool
    hot: list = field(default_factory=list)        # (name, events, error)
    subjects: list = field(default_factory=list)   # (name, kind, value)
    timeline: list = field(default_factory=list)   # (frame, verb, subject, value)
    colds: list = field(default_factory=list)     # (name, events, error): named cold marbles
    ops: set = field(default_factory=set)
    counter: int = 0
    zip: bool = False  # OpenCombine 0.14.0's Zip can crash (unowned parent) or finish twice
    vocabulary: bool = True  # Combine's whole vocabulary (--first-set: the operators of the first harness)
    spelling: int = 0  # turns through a key's other spellings without drawing from rng

    def alternate(self, n: int) -> int:
        """0, 1, … n-1 in turn: which of a key's spellings to write (Combine's aliases and
        labelled forms), without changing the graphs a seed draws."""
        self.spelling += 1
        return self.spelling % n

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return "%s%d" % (prefix, self.counter)


def ir_events(events: list[Event]) -> list:
    return [[f, k] if k == "C" else [f, k, v] for f, k, v in events]


# ---- sources ----------------------------------------------------------------------------------

def hot_source(g: Graph) -> Node:
    rng = g.rng
    if g.hot and rng.random() < 0.5:
        name = rng.choice(g.hot)[0]
    else:
        name = "h%d" % len(g.hot)
        error = "e%d" % len(g.hot)
        events = random_events(rng, rng.randint(4, 18), error, density=rng.choice([0.3, 0.45, 0.6]))
        g.hot.append((name, events, error))
    g.ops.add("hot")
    return Node({"op": "hot", "name": name}, [{"from": name}], push=True, sync=False)


def subject_source(g: Graph) -> Node:
    rng = g.rng
    # A subject gets one subscriber: OpenCombine keeps a subject's subscribers in a Set, so with
    # several of them the delivery order is the hash order, not the subscription order.
    if True:
        name = "s%d" % len(g.subjects)
        kind = rng.choice(["passthrough", "current"])
        g.subjects.append((name, kind, rng.randint(0, 9)))
        frame = 0
        for _ in range(rng.randint(1, 6)):
            frame += rng.randint(1, 4)
            g.timeline.append((frame, "send", name, rng.randint(0, 9)))
        r = rng.random()
        if r < 0.4:
            g.timeline.append((frame + rng.randint(1, 3), "complete", name, None))
        elif r < 0.55:
            g.timeline.append((frame + rng.randint(1, 3), "fail", name, "x" + name))
    g.ops.add("PassthroughSubject" if kind == "passthrough" else "CurrentValueSubject")
    return Node({"op": "subject", "name": name}, [{"from": name}], push=kind == "passthrough",
                sync=kind != "passthrough")


def cold_source(g: Graph, length: int | None = None, density: float = 0.45) -> Node:
    """A cold marble, declared as a signal of its own so that its `.subscriptions` log is
    compared with the frames OpenCombine subscribed and cancelled it."""
    rng = g.rng
    error = g.fresh("c")
    events = random_events(rng, length or rng.randint(2, 10), error, density=density)
    name = "k%d" % len(g.colds)
    g.colds.append((name, events, error))
    g.ops.add("cold")
    return Node({"op": "cold", "events": ir_events(events), "log": name}, [{"from": name}], push=True,
                sync=any(f == 0 and k == "N" for f, k, _ in events))


def leaf(g: Graph) -> Node:
    rng = g.rng
    r = rng.random()
    if r < 0.40:
        return hot_source(g)
    if r < 0.55:
        return subject_source(g)
    if r < 0.78:
        return cold_source(g)
    if r < 0.84:
        v = rng.randint(0, 9)
        g.ops.add("Just")
        return Node({"op": "just", "value": v}, [{"Just" if g.library else "just": v}], push=True)
    if r < 0.90:
        vs = [rng.randint(0, 9) for _ in range(rng.randint(0, 3))]
        g.ops.add("Sequence")
        return Node({"op": "of", "values": vs}, [{"publisher" if g.library else "of": vs}], push=True)
    if g.library and r < 0.915:
        inner = leaf_simple(g)
        if rng.random() < 0.5:
            g.ops.add("Future")
            return Node({"op": "future", "src": inner.ir}, [{"Future": inner.steps}], push=True, sync=True)
        g.ops.add("Deferred")
        return Node({"op": "deferred", "src": inner.ir}, [{"Deferred": inner.steps}], push=inner.push,
                    sync=inner.sync)
    if g.library and r < 0.93:
        vs = [rng.randint(0, 9) for _ in range(rng.randint(0, 3))]
        g.ops.add("Record")
        if rng.random() < 0.3:
            e = g.fresh("r")
            return Node({"op": "record", "values": vs, "error": e},
                        [{"Record": {"output": vs, "completion": {"failure": e}}}], push=True)
        return Node({"op": "record", "values": vs}, [{"Record": {"output": vs, "completion": "finished"}}],
                    push=True)
    if r < 0.94:
        g.ops.add("Empty")
        return Node({"op": "empty"}, [{"Empty" if g.library else "empty": True}], push=True, sync=False)
    if r < 0.97:
        e = g.fresh("f")
        g.ops.add("Fail")
        return Node({"op": "fail", "error": e}, [{"Fail" if g.library else "fail": e}], push=True, sync=False)
    g.ops.add("Empty(completeImmediately: false)")
    step = {"Empty": {"completeImmediately": False}} if g.library else {"never": True}
    return Node({"op": "never"}, [step], push=True, sync=False)


def leaf_simple(g: Graph) -> Node:
    """A source for a notifier or a Future: a hot or a cold marble."""
    return hot_source(g) if g.rng.random() < 0.5 else cold_source(g)


# ---- operators ---------------------------------------------------------------------------------

def derive(g: Graph, base: Node, ir: dict, step: Any, label: str) -> Node:
    g.ops.add(label)
    ir = dict(ir)
    ir["src"] = base.ir
    value_by_value = label in ("map", "filter", "prepend")
    sync = (base.sync or label.startswith(("makeConnectable", "multicast"))
            or label in ("prepend", "append", "replaceEmpty", "replaceError", "flatMap",
                                  "flatMap(maxPublishers)", "map+switchToLatest", "reduce", "count", "min",
                                  "max", "contains", "allSatisfy", "first", "last", "tryReduce", "min(by:)",
                                  "max(by:)", "tryMin", "tryMax", "contains(where:)", "tryContains", "catch",
                                  "tryCatch"))
    if label in ("receive(on:)", "subscribe(on:)"):
        sync = False
    steps = step if isinstance(step, list) else [step]
    return Node(ir, base.steps + steps, push=base.push and value_by_value, sync=sync)


def buffers(ir: Any) -> bool:
    """Whether a harness description holds a merge or a flatMap (which buffer without demand)."""
    if isinstance(ir, dict):
        return ir.get("op") in ("merge", "flatMap", "switchMap") or any(buffers(v) for v in ir.values())
    if isinstance(ir, list):
        return any(buffers(v) for v in ir)
    return False


def combine_unary(g: Graph, base: Node, choice: str) -> Node:
    """The operators of Combine's vocabulary beyond the first set (CombineDiff Operators.swift)."""
    rng = g.rng
    if choice == "compactMap":
        fn, pred = rng.choice(MAPS), rng.choice(FILTERS)
        return derive(g, base, {"op": "compactMap", "fn": fn, "pred": pred},
                      {"compactMap": "(%s) ? (%s) : null" % (pred, fn)}, "compactMap")
    if choice == "tryMap":
        fn, pred, e = rng.choice(MAPS), rng.choice(FILTERS), g.fresh("t")
        return derive(g, base, {"op": "tryMap", "fn": fn, "pred": pred, "error": e},
                      {"tryMap": '(%s) ? throw("%s") : (%s)' % (pred, e, fn)}, "tryMap")
    if choice == "tryFilter":
        pred, throw_if, e = rng.choice(FILTERS), rng.choice(["$0 > 7", "$0 == 5"]), g.fresh("t")
        return derive(g, base, {"op": "tryFilter", "pred": pred, "throwIf": throw_if, "error": e},
                      {"tryFilter": '(%s) ? throw("%s") : (%s)' % (throw_if, e, pred)}, "tryFilter")
    if choice == "tryScan":
        throw_if, e, seed = rng.choice(["$0 > 7", "$0 == 5"]), g.fresh("t"), rng.randint(0, 3)
        return derive(g, base, {"op": "tryScan", "throwIf": throw_if, "error": e, "seed": seed},
                      {"tryScan": '(%s) ? throw("%s") : $0 + $1' % (throw_if.replace("$0", "$1"), e), "seed": seed},
                      "tryScan")
    if choice == "mapError":
        return derive(g, base, {"op": "mapError", "prefix": "m"}, {"mapError": '"m" + $0'}, "mapError")
    if choice in ("first", "last"):
        if rng.random() < 0.5:
            return derive(g, base, {"op": choice}, choice, choice)
        pred = rng.choice(FILTERS)
        key = choice if g.alternate(2) == 0 else "try" + choice.capitalize()
        return derive(g, base, {"op": choice, "pred": pred}, {key: {"where": pred}}, choice)
    if choice == "output":
        lower = rng.randint(0, 3)
        upper = lower + rng.randint(0, 2)
        return derive(g, base, {"op": "output", "lower": lower, "upper": upper},
                      {"output": {"at": lower}} if lower == upper else {"output": {"in": "%d...%d" % (lower, upper)}},
                      "output")
    if choice in ("dropWhile", "prefixWhile"):
        pred = rng.choice(FILTERS)
        key = "drop" if choice == "dropWhile" else "prefix"
        return derive(g, base, {"op": choice, "pred": pred}, {key: {"while": pred}}, choice)
    if choice in ("dropUntilOutput", "prefixUntilOutput"):
        other = leaf_simple(g)
        key = "drop" if choice == "dropUntilOutput" else "prefix"
        return derive(g, base, {"op": choice, "other": other.ir}, {key: {"untilOutputFrom": other.steps}}, choice)
    if choice == "ignoreOutput":
        return derive(g, base, {"op": "ignoreOutput"}, "ignoreOutput", "ignoreOutput")
    if choice == "reduce":
        seed = rng.randint(0, 3)
        return derive(g, base, {"op": "reduce", "seed": seed}, {"reduce": "$0 + $1", "seed": seed}, "reduce")
    if choice in ("count", "min", "max"):
        return derive(g, base, {"op": choice}, choice, choice)
    if choice == "contains":
        v = rng.randint(0, 9)
        return derive(g, base, {"op": "contains", "value": v}, [{"contains": v}, {"map": "$0 ? 1 : 0"}], "contains")
    if choice == "allSatisfy":
        pred = rng.choice(FILTERS)
        key = "allSatisfy" if g.alternate(2) == 0 else "tryAllSatisfy"
        return derive(g, base, {"op": "allSatisfy", "pred": pred}, [{key: pred}, {"map": "$0 ? 1 : 0"}],
                      "allSatisfy")
    if choice == "removeDuplicatesBy":
        key = "removeDuplicates" if g.alternate(2) == 0 else "tryRemoveDuplicates"
        return derive(g, base, {"op": "removeDuplicatesBy"}, {key: {"by": "$1 - $0 == 1"}},
                      "removeDuplicates(by:)")
    if choice == "subscribeOn" and not buffers(base.ir):
        return derive(g, base, {"op": "subscribeOn"}, {"subscribe": {"on": "scheduler"}}, "subscribe(on:)")
    if choice == "subscribeOn":
        # subscribe(on:) sends its downstream's demand as a scheduler action; until it arrives a
        # merge or flatMap below buffers its inners' values and then sends them in arrival order,
        # which flowrun, without a demand model, does not do (docs/libraries.md): not generated.
        choice = "receiveOn"
    if choice == "receiveOn":
        step = {"receive": {"on": "scheduler"}} if g.alternate(2) == 0 else {"receiveOn": "scheduler"}
        return derive(g, base, {"op": "receiveOn"}, step, "receive(on:)")
    if choice == "measureInterval":
        return derive(g, base, {"op": "measureInterval"}, "measureInterval", "measureInterval")
    if choice == "share":
        return derive(g, base, {"op": "share"}, "share", "share")
    if choice == "multicast":
        return derive(g, base, {"op": "multicast"}, ["multicast", "autoconnect"], "multicast+autoconnect")
    if choice in NEW_CHOICES:
        return combine_unary3(g, base, choice)
    vs = [rng.randint(0, 9) for _ in range(rng.randint(2, 3))]
    key = "prepend" if choice == "prependMany" else "append"
    return derive(g, base, {"op": key, "values": vs}, {key: vs}, key)


COMBINE_CHOICES = ["compactMap", "tryMap", "tryFilter", "tryScan", "mapError", "first", "last", "output",
                   "dropWhile", "prefixWhile", "dropUntilOutput", "prefixUntilOutput", "ignoreOutput", "reduce",
                   "count", "min", "max", "contains", "allSatisfy", "removeDuplicatesBy", "subscribeOn",
                   "receiveOn", "measureInterval", "share", "multicast", "prependMany", "appendMany"]
# The third set (CombineDiff Operators2.swift): the throwing and `by:` / `where:` forms, catch,
# the connectables on their own, buffer, encode + decode, replaceNil over an Int? map.
NEW_CHOICES = ["tryCompactMap", "tryReduce", "minBy", "maxBy", "containsWhere", "catch", "tryCatch",
               "connectable", "buffer", "encodeDecode", "replaceNil"]
COMBINE_CHOICES += NEW_CHOICES
NEW_LABELS = {"tryCompactMap", "tryReduce", "min(by:)", "max(by:)", "tryMin", "tryMax", "contains(where:)",
              "tryContains", "catch", "tryCatch", "makeConnectable", "makeConnectable+autoconnect", "multicast",
              "buffer", "encode+decode", "replaceNil"}


def catch_template(g: Graph) -> tuple[dict, list]:
    """A catch handler's publisher: a cold marble (its log compared), a Just or an Empty."""
    rng = g.rng
    r = rng.random()
    if r < 0.75:
        inner = cold_source(g, rng.randint(1, 7), density=0.5)
    elif r < 0.9:
        v = rng.randint(0, 9)
        inner = Node({"op": "just", "value": v}, [{"Just": v}])
    else:
        inner = Node({"op": "empty"}, [{"Empty": True}])
    return {"source": inner.ir, "addOuter": False}, inner.steps


def combine_unary3(g: Graph, base: Node, choice: str) -> Node:
    rng = g.rng
    if choice == "tryCompactMap":
        fn, pred, e = rng.choice(MAPS), rng.choice(FILTERS), g.fresh("t")
        throw_if = rng.choice(["$0 > 7", "$0 == 5"])
        return derive(g, base, {"op": "tryCompactMap", "fn": fn, "pred": pred, "throwIf": throw_if, "error": e},
                      {"tryCompactMap": '(%s) ? throw("%s") : ((%s) ? (%s) : null)' % (throw_if, e, pred, fn)},
                      "tryCompactMap")
    if choice == "tryReduce":
        throw_if, e, seed = rng.choice(["$0 > 7", "$0 == 5"]), g.fresh("t"), rng.randint(0, 3)
        return derive(g, base, {"op": "tryReduce", "throwIf": throw_if, "error": e, "seed": seed},
                      {"tryReduce": '(%s) ? throw("%s") : $0 + $1' % (throw_if.replace("$0", "$1"), e),
                       "seed": seed}, "tryReduce")
    if choice in ("minBy", "maxBy"):
        kind = choice[:3]
        by = rng.choice(["$0 < $1", "$0 > $1"])
        if rng.random() < 0.5:
            return derive(g, base, {"op": "comparison", "kind": kind, "by": by}, {kind: {"by": by}},
                          "%s(by:)" % kind)
        e, total = g.fresh("t"), rng.randint(6, 12)
        key = "try" + kind.capitalize()
        return derive(g, base, {"op": "comparison", "kind": kind, "by": by, "error": e, "throwSum": total},
                      {key: {"by": '($0 + $1 == %d) ? throw("%s") : (%s)' % (total, e, by)}}, key)
    if choice == "containsWhere":
        pred = rng.choice(FILTERS)
        if rng.random() < 0.5:
            return derive(g, base, {"op": "containsWhere", "pred": pred},
                          [{"contains": {"where": pred}}, {"map": "$0 ? 1 : 0"}], "contains(where:)")
        throw_if, e = rng.choice(["$0 > 7", "$0 == 5"]), g.fresh("t")
        return derive(g, base, {"op": "containsWhere", "pred": pred, "throwIf": throw_if, "error": e},
                      [{"tryContains": {"where": '(%s) ? throw("%s") : (%s)' % (throw_if, e, pred)}},
                       {"map": "$0 ? 1 : 0"}], "tryContains")
    if choice == "catch":
        ir_inner, steps = catch_template(g)
        return derive(g, base, {"op": "catch", "inner": ir_inner}, {"catch": steps}, "catch")
    if choice == "tryCatch":
        ir_inner, steps = catch_template(g)
        if rng.random() < 0.3:
            # A handler that throws fails at once, as a handler that returns Fail does.
            e = g.fresh("t")
            return derive(g, base, {"op": "tryCatch", "inner": ir_inner, "throw": e}, {"tryCatch": [{"Fail": e}]},
                          "tryCatch")
        return derive(g, base, {"op": "tryCatch", "inner": ir_inner}, {"tryCatch": steps}, "tryCatch")
    if choice == "connectable":
        auto = rng.random() < 0.5
        if rng.random() < 0.5:
            # makeConnectable needs Failure == Never: replaceError(with:) first, as in an app.
            v = rng.randint(0, 9)
            steps = [{"replaceError": v}, "makeConnectable"] + (["autoconnect"] if auto else [])
            return derive(g, base, {"op": "connectable", "kind": "makeConnectable", "value": v, "autoconnect": auto},
                          steps, "makeConnectable" + ("+autoconnect" if auto else ""))
        return derive(g, base, {"op": "connectable", "kind": "multicast", "autoconnect": auto},
                      ["multicast"] + (["autoconnect"] if auto else []), "multicast" + ("+autoconnect" if auto else ""))
    if choice == "buffer" and base.sync:
        # OpenCombine's Buffer requests from upstream before it hands its subscription downstream
        # (OC Publishers.Buffer.swift Inner.receive(subscription:)): what a source sends during
        # subscription fills the buffer with no demand (dropped when full), and a failure is sent
        # before the downstream's subscription and lost (docs/libraries.md): not generated.
        choice = "encodeDecode"
    if choice == "buffer":
        size = rng.randint(1, 4)
        prefetch, full = rng.choice(["byRequest", "keepFull"]), rng.choice(["dropNewest", "dropOldest"])
        return derive(g, base, {"op": "buffer", "size": size, "prefetch": prefetch, "whenFull": full},
                      {"buffer": {"size": size, "prefetch": prefetch, "whenFull": full}}, "buffer")
    if choice == "replaceNil":
        # An Int? publisher: a map that gives null where `pred` holds, then replaceNil(with:).
        fn, pred, v = rng.choice(MAPS), rng.choice(FILTERS), rng.randint(0, 9)
        return derive(g, base, {"op": "replaceNil", "fn": fn, "pred": pred, "value": v},
                      [{"map": "(%s) ? null : (%s)" % (pred, fn)}, {"replaceNil": v}], "replaceNil")
    return derive(g, base, {"op": "encodeDecode"}, ["encode", "decode"], "encode+decode")


def template(g: Graph) -> tuple[dict, list]:
    """An inner publisher per outer value: (harness description, flowrun template steps)."""
    rng = g.rng
    r = rng.random()
    if r < 0.8:
        inner = cold_source(g, rng.randint(1, 7), density=0.5)
    elif r < 0.9:
        v = rng.randint(0, 9)
        inner = Node({"op": "just", "value": v}, [{"just": v}])
    else:
        inner = Node({"op": "empty"}, [{"empty": True}])
    add_outer = rng.random() < 0.7
    steps = inner.steps + ([{"map": "$0 + outer * 10"}] if add_outer else [])
    return {"source": inner.ir, "addOuter": add_outer}, steps


def unary(g: Graph, base: Node) -> Node:
    rng = g.rng
    lib = g.library
    choices = ["map", "filter", "scan", "removeDuplicates", "prepend", "append", "dropFirst",
               "replaceError", "retry", "flatMap", "switchToLatest"]
    if lib:
        # prefix(n) finishes when the value after the n-th arrives (docs/libraries.md,
        # combine-prefix-finishes-on-next-value), unlike the default's `take: n`.
        choices += ["prefix", "debounce", "throttle", "delay", "timeout", "replaceEmpty", "flatMap(maxPublishers)"]
        if g.vocabulary:
            choices += COMBINE_CHOICES
    choice = rng.choice(choices)
    if choice in COMBINE_CHOICES:
        return combine_unary(g, base, choice)
    # Known differences, not generated (docs/libraries.md): OpenCombine's Throttle drops values
    # sent during subscription; flowrun models flatMap(maxPublishers:)'s demand only over a push
    # chain.
    if choice == "throttle" and base.sync:
        choice = "debounce"
    if choice == "flatMap(maxPublishers)" and not base.push:
        choice = "flatMap"
    if choice == "map":
        fn = rng.choice(MAPS)
        # Type-only steps pass events on (docs/libraries.md): one after each map, in turn.
        only = ["eraseToAnyPublisher", "print", "handleEvents", "setFailureType", "assertNoFailure"]
        typed = [{"map": fn}] + ([only[(len(g.colds) + len(g.hot) + g.counter + MAPS.index(fn)) % 5]] if lib else [])
        return derive(g, base, {"op": "map", "fn": fn}, typed, "map")
    if choice == "filter":
        fn = rng.choice(FILTERS)
        return derive(g, base, {"op": "filter", "fn": fn}, {"filter": fn}, "filter")
    if choice == "scan":
        seed = rng.randint(0, 3)
        return derive(g, base, {"op": "scan", "seed": seed}, {"scan": "$0 + $1", "seed": seed}, "scan")
    if choice == "removeDuplicates":
        return derive(g, base, {"op": "removeDuplicates"}, "removeDuplicates" if lib else "distinctUntilChanged",
                      "removeDuplicates")
    if choice == "prepend":
        v = rng.randint(0, 9)
        return derive(g, base, {"op": "prepend", "value": v}, {"prepend": v} if lib else {"startWith": v}, "prepend")
    if choice == "append":
        v = rng.randint(0, 9)
        return derive(g, base, {"op": "append", "value": v},
                      {"append": v} if lib else {"concatWith": {"just": v}}, "append")
    if choice == "dropFirst":
        n = rng.randint(0, 3)
        return derive(g, base, {"op": "dropFirst", "n": n}, {"skip": n}, "dropFirst")
    if choice == "prefix":
        n = rng.randint(0, 4)
        return derive(g, base, {"op": "prefix", "n": n}, {"prefix": n}, "prefix")
    if choice == "replaceError":
        v = rng.randint(0, 9)
        return derive(g, base, {"op": "replaceError", "value": v},
                      {"replaceError": v} if lib else {"catchAndReturn": v}, "replaceError")
    if choice == "retry":
        n = rng.randint(0, 3)
        return derive(g, base, {"op": "retry", "n": n}, {"retry": n}, "retry")
    if choice == "replaceEmpty":
        v = rng.randint(0, 9)
        return derive(g, base, {"op": "replaceEmpty", "value": v}, {"replaceEmpty": v}, "replaceEmpty")
    if choice == "debounce":
        d = rng.randint(1, 5)
        return derive(g, base, {"op": "debounce", "d": d}, {"debounce": {"for": d}}, "debounce")
    if choice == "throttle":
        d, latest = rng.randint(1, 5), rng.random() < 0.5
        return derive(g, base, {"op": "throttle", "d": d, "latest": latest},
                      {"throttle": {"for": d, "latest": latest}}, "throttle")
    if choice == "delay":
        d = rng.randint(1, 5)
        return derive(g, base, {"op": "delay", "d": d}, {"delay": {"for": d}}, "delay")
    if choice == "timeout":
        d = rng.randint(1, 6)
        if rng.random() < 0.5:
            return derive(g, base, {"op": "timeout", "d": d}, {"timeout": {"for": d}}, "timeout")
        e = g.fresh("t")
        return derive(g, base, {"op": "timeout", "d": d, "customError": e},
                      {"timeout": {"for": d, "customError": e}}, "timeout")
    ir_inner, steps = template(g)
    if choice == "switchToLatest":
        return derive(g, base, {"op": "switchMap", "inner": ir_inner}, {"flatMapLatest": steps},
                      "map+switchToLatest")
    if choice == "flatMap(maxPublishers)":
        n = rng.randint(1, 2)
        return derive(g, base, {"op": "flatMap", "max": n, "inner": ir_inner},
                      {"flatMap": {"maxPublishers": n, "signal": steps}}, "flatMap(maxPublishers)")
    return derive(g, base, {"op": "flatMap", "inner": ir_inner}, {"flatMap": steps}, "flatMap")


def gen(g: Graph, depth: int) -> Node:
    rng = g.rng
    if depth <= 0 or rng.random() < 0.18:
        return leaf(g)
    r = rng.random()
    if r < 0.75:
        return unary(g, gen(g, depth - 1))
    a, b = gen(g, depth - 1), gen(g, depth - 1)
    if r < 0.88 or not g.zip:
        g.ops.add("merge")
        form = g.alternate(3) if g.library else 0
        steps = [{"merge": [a.steps, b.steps]}] if form == 0 else \
            a.steps + [{"merge": {"with": [b.steps]}}] if form == 1 else a.steps + [{"mergeWith": [b.steps]}]
        return Node({"op": "merge", "srcs": [a.ir, b.ir]}, steps, push=False, sync=a.sync or b.sync)
    g.ops.add("zip")
    return Node({"op": "zip", "srcs": [a.ir, b.ir]}, [{"zip": [a.steps, b.steps]}, {"map": "$0 + $1"}],
                push=False, sync=a.sync or b.sync)


# ---- one scenario ------------------------------------------------------------------------------

def graph_ir(g: Graph, out: Node) -> dict:
    return {
        "until": END,
        "hot": [{"name": n, "events": ir_events(evs)} for n, evs, _ in g.hot],
        "subjects": [{"name": n, "kind": k, "value": v} for n, k, v in g.subjects],
        "timeline": [[f, verb, s] + ([v] if v is not None else []) for f, verb, s, v in g.timeline],
        "out": out.ir,
    }


def subscription_marble(entries: list) -> Any:
    """flowrun's subscription marble for OpenCombine's `[start, end]` entries."""
    def one(start: int, end: int | None) -> str:
        if end is None:
            return "-" * start + "^"
        if end == start:
            return "-" * start + "(^!)"
        return "-" * start + "^" + "-" * (end - start - 1) + "!"
    marbles = [one(start, end) for start, end in entries]
    return marbles[0] if len(marbles) == 1 else ("" if not marbles else marbles)


def scenario_yaml(title: str, g: Graph, out: Node, events: list[Event], logs: dict | None = None) -> str:
    lines = ["flowrun: 1\n", "name: %s\n" % dump(title)]
    if g.library:
        lines.append("library: combine\n")
    lines += ["tags: [conformance, combine]\n", "until: %d\n" % END]
    if g.subjects:
        lines.append("subjects:\n")
        for name, kind, value in g.subjects:
            lines.append("  %s: %s\n" % (name, dump({} if kind == "passthrough" else {"behavior": value})))
    lines.append("signals:\n")
    for name, hot_events, error in g.hot:
        step: dict[str, Any] = {"hot": marble(hot_events, digit_token)}
        if any(k == "E" for _, k, _ in hot_events):
            step["error"] = error
        lines.append("  %s: %s\n" % (name, dump(step)))
    for name, cold_events, error in g.colds:
        step = {"cold": marble(cold_events, digit_token)}
        if any(k == "E" for _, k, _ in cold_events):
            step["error"] = error
        lines.append("  %s: %s\n" % (name, dump(step)))
    lines.append("  out:\n")
    lines += ["    - %s\n" % dump(step) for step in out.steps]
    if g.timeline:
        lines.append("timeline:\n")
        for frame, verb, subject, value in g.timeline:
            action = {"send": {subject: value}} if verb == "send" else \
                {"complete": subject} if verb == "complete" else {"fail": {subject: value}}
            lines.append("  - %s\n" % dump({"at": frame, **action}))
    legend = Legend()
    expectation: dict[str, Any] = {"marble": marble(events, legend.token)}
    if legend.entries:
        expectation["values"] = legend.values()
    errors = [v for _, k, v in events if k == "E"]
    if errors:
        expectation["error"] = errors[0]
    lines.append("expect:\n  out: %s\n" % dump(expectation))
    for name in sorted((logs or {}).keys()):
        lines.append("  %s.subscriptions: %s\n" % (name, dump(subscription_marble(logs[name]))))
    return "".join(lines)


@dataclass
class Scenario:
    seed: str
    graph: Graph
    out: Node


def generate(seed: int, count: int, library: bool, with_zip: bool, vocabulary: bool = True) -> list[Scenario]:
    scenarios = []
    for attempt in range(count):
        sub_seed = "%d.%d" % (seed, attempt)
        g = Graph(random.Random("combine " + sub_seed), library, zip=with_zip, vocabulary=vocabulary)
        out = gen(g, g.rng.randint(1, 4))
        if library and vocabulary and g.rng.random() < 0.08:
            if g.rng.random() < 0.5:
                g.ops.add("collect")
                out = derive(g, out, {"op": "collect"}, "collect", "collect")
            else:
                n = g.rng.randint(1, 3)
                out = derive(g, out, {"op": "collectCount", "n": n}, {"collect": {"count": n}}, "collect(n)")
        scenarios.append(Scenario(sub_seed, g, out))
    return scenarios


# ---- running -----------------------------------------------------------------------------------

def find_combine(explicit: str | None) -> str:
    if explicit:
        return explicit
    for scratch in (".build-combine",):
        candidate = os.path.join(ROOT, scratch, "release", "CombineDiff")
        if os.path.exists(candidate):
            return candidate
    print("combine_diff: build the harness first: swift build -c release --package-path "
          "Tests/CombineDifferential --scratch-path .build-combine", file=sys.stderr)
    sys.exit(2)


def find_flowrun(explicit: str | None) -> str:
    if explicit:
        return explicit
    candidate = os.path.join(ROOT, ".build", "debug", "flowrun")
    if os.path.exists(candidate):
        return candidate
    found = shutil.which("flowrun")
    if found:
        return found
    print("combine_diff: flowrun not found: build it with `swift build` or pass --flowrun PATH", file=sys.stderr)
    sys.exit(2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Differential conformance of flowrun against OpenCombine.")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=300)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--library", dest="library", action="store_true", default=True,
                      help="scenarios say `library: combine` (default)")
    mode.add_argument("--default", dest="library", action="store_false",
                      help="scenarios without `library:`, from the operators whose default meaning is Combine's")
    parser.add_argument("--zip", action="store_true",
                        help="also generate zip (OpenCombine 0.14.0's Zip may crash or finish twice)")
    parser.add_argument("--first-set", dest="vocabulary", action="store_false",
                        help="only the operators of the first harness (no Combine vocabulary beyond them)")
    parser.add_argument("--no-subscriptions", dest="subscriptions", action="store_false",
                        help="do not compare the cold marbles' subscription logs")
    parser.add_argument("--keep", metavar="DIR", help="write the scenarios into DIR and keep them")
    parser.add_argument("--corpus", metavar="FILE",
                        help="also write every scenario, with OpenCombine's events, as the documents of one "
                             "file (Tests/Conformance/combine-seed-1.yaml, run by swift test)")
    parser.add_argument("--flowrun", metavar="PATH")
    parser.add_argument("--combine", metavar="PATH", help="the CombineDiff executable")
    args = parser.parse_args(argv)

    started = time.monotonic()
    combine, flowrun = find_combine(args.combine), find_flowrun(args.flowrun)
    scenarios = generate(args.seed, args.count, args.library, args.zip, args.vocabulary)
    cleanup = None
    if args.keep:
        directory = os.path.abspath(args.keep)
        os.makedirs(directory, exist_ok=True)
    else:
        cleanup = tempfile.TemporaryDirectory(prefix="combine-diff-")
        directory = cleanup.name
    graphs_path = os.path.join(directory, "graphs.json")
    with open(graphs_path, "w", encoding="utf-8") as f:
        json.dump([graph_ir(s.graph, s.out) for s in scenarios], f)
    environment = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1")
    proc = subprocess.run([combine, graphs_path], capture_output=True, text=True, env=environment)
    os.remove(graphs_path)
    try:
        results = json.loads(proc.stdout)
    except json.JSONDecodeError:
        print("combine_diff: CombineDiff printed no JSON (exit %d):\n%s" % (proc.returncode, proc.stderr[-2000:]),
              file=sys.stderr)
        return 2
    ran_combine = time.monotonic()

    paths: dict[str, Scenario] = {}
    documents: list[str] = []
    contract_breaks = []
    for index, (scenario, result) in enumerate(zip(scenarios, results)):
        if "error" in result:
            print("combine_diff: the harness rejected graph %s: %s" % (scenario.seed, result["error"]),
                  file=sys.stderr)
            return 2
        if result["afterTerminal"]:
            contract_breaks.append(scenario.seed)
        lists = result.get("lists", [])

        def decoded(value: Any) -> Any:
            # `collect`'s arrays come as codes (CombineDiff GraphRun.encode).
            if isinstance(value, int) and value <= -1_000_000:
                return lists[-1_000_000 - value]
            return value
        events = [(e[0], e[1], decoded(e[2]) if len(e) > 2 else None) for e in result["events"]]
        path = os.path.join(directory, "combine-%d-%04d.yaml" % (args.seed, index))
        # A run where OpenCombine sent after its terminal event broke the Subscriber contract; its
        # subscription logs are not compared (OC FlatMap keeps an inner subscription that arrives
        # after it failed, docs/libraries.md), its events up to the terminal are.
        logs = result.get("subscriptions") if args.subscriptions and not result["afterTerminal"] else None
        text = scenario_yaml("combine %s" % scenario.seed, scenario.graph, scenario.out, events, logs)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        documents.append(text)
        paths[path] = scenario
    if args.corpus:
        with open(args.corpus, "w", encoding="utf-8") as f:
            f.write("# Generated by Tests/Conformance/combine_diff.py --seed %d --count %d%s --corpus: each\n"
                    "# document's expectation is what OpenCombine 0.14.0 sent. Do not edit.\n"
                    % (args.seed, args.count, "" if args.library else " --default"))
            f.write("---\n".join(documents))

    proc = subprocess.run([flowrun, "--reporter", "json", "--color", "never", directory],
                          capture_output=True, text=True)
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError:
        print("combine_diff: flowrun printed no JSON report (exit %d):\n%s\n%s"
              % (proc.returncode, proc.stdout[-2000:], proc.stderr[-2000:]), file=sys.stderr)
        return 2

    failures = [e for e in report.get("scenarios", []) if e.get("status") != "passed"]
    seen = len(report.get("scenarios", []))
    load_errors: dict[str, int] = {}
    for entry in failures:
        path = os.path.abspath(entry.get("path", "?"))
        scenario = paths.get(path)
        messages = [d.get("message", "") for d in entry.get("diagnostics", [])]
        if entry.get("status") not in ("passed", "failed") and messages:
            key = messages[0]
            load_errors[key] = load_errors.get(key, 0) + 1
            continue
        print("DIFFERENCE seed %s  %s" % (scenario.seed if scenario else "?", path))
        for message in messages:
            print("  %s" % message)
        for exp in entry.get("expectations", []):
            if exp.get("status") != "passed":
                print("  expected (OpenCombine) %s" % exp.get("expected"))
                print("  actual (flowrun)       %s" % exp.get("actual"))
                if exp.get("legend"):
                    print("  legend %s" % json.dumps(exp.get("legend"), ensure_ascii=False))
        if not args.keep and scenario:
            with open(path, encoding="utf-8") as f:
                print("  ---\n" + "".join("  " + line for line in f))
    if load_errors:
        print("not loaded by flowrun: %d" % sum(load_errors.values()))
        for message, n in sorted(load_errors.items(), key=lambda item: -item[1])[:10]:
            print("  %4d  %s" % (n, message))
    if contract_breaks:
        print("OpenCombine sent events after a terminal event in %d graphs (not recorded; known "
              "OpenCombine 0.14.0 bugs such as those of Zip and DropUntilOutput, docs/libraries.md): %s"
              % (len(contract_breaks), ", ".join(contract_breaks[:10])))
    ops: set = set()
    for s in scenarios:
        ops |= s.graph.ops
    print("operators covered: %s" % ", ".join(sorted(ops)))
    third = [s for s in scenarios if s.graph.ops & NEW_LABELS]
    print("graphs with a key of the third set (%s): %d" % (", ".join(sorted(NEW_LABELS)), len(third)))
    print("seed %d (%s): %d scenarios, OpenCombine ran in %.1f s, flowrun in %.1f s"
          % (args.seed, "library: combine" if args.library else "default spellings", len(scenarios),
             ran_combine - started, time.monotonic() - ran_combine))
    if seen != len(scenarios):
        print("combine_diff: flowrun reported %d scenarios, %d were written" % (seen, len(scenarios)))
    print("combine-diff: %d passed, %d failed" % (len(scenarios) - len(failures), len(failures)))
    if cleanup:
        cleanup.cleanup()
    return 0 if not failures and seen == len(scenarios) else 1


if __name__ == "__main__":
    sys.exit(main())
