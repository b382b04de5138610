#!/usr/bin/env python3
"""Differential conformance of flowrun against RxPY (reactivex 6.1.0).

usage: python3 Tests/Conformance/rxpy_diff.py [--seed N] [--count N] [--keep DIR] [--flowrun PATH]

Generates `count` random signal graphs (deterministic for a seed), computes each graph's events
with RxPY's TestScheduler (integer virtual time = flowrun frames, subscribed at frame 0), writes
each one as a flowrun scenario whose `expect:` holds RxPY's events, runs flowrun once over the
directory and reports every scenario where flowrun disagrees, with its seed and file. Exits 0
when all agree, 1 on a difference, 2 when RxPY or flowrun cannot be run.

Only operators whose RxPY semantics are the spec's are generated; where RxPY differs in a
corner (documented in docs/semantics.md, "Differential conformance"), the RxPY side detects the
corner while it runs and the graph is replaced by another one (counted as "skipped").
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
from typing import Any, Callable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

try:
    import reactivex
    from reactivex import operators as ops
except ImportError:  # pragma: no cover - reported to the user
    print(
        "rxpy_diff: the Python package 'reactivex' is missing: pip install reactivex==6.1.0",
        file=sys.stderr,
    )
    sys.exit(2)

from marble_text import (  # noqa: E402
    Event, Legend, digit_token, dump, hot_marble, marble, random_events, to_yaml_value,
)
from rxpy_model import FlowError, Run, materialized  # noqa: E402

END = 40  # `until:` of every scenario; RxPY advances to the same frame

# ---------------------------------------------------------------------------------------------
# Values and marbles


# ---------------------------------------------------------------------------------------------
# Graph nodes: each node is a flowrun signal (a list of steps) and the matching RxPY recipe.

Builder = Callable[[Run, dict], Any]


@dataclass
class Node:
    steps: list[Any]            # flowrun steps (first a source)
    build: Builder              # (run, env) -> Observable
    kind: str = "int"           # 'int' (small integers), 'pair' (2-list made by a combinator), 'any'
    name: str | None = None     # set once the node is declared under `signals:`


@dataclass
class Template:
    steps: list[Any]                           # flowrun template steps (`outer` bound)
    make: Callable[[Run, Any], Any]            # (run, outer) -> Observable


@dataclass
class Graph:
    rng: random.Random
    hot: list[tuple[str, list[Event], Any]] = field(default_factory=list)
    nodes: list[Node] = field(default_factory=list)
    ops_used: set[str] = field(default_factory=set)
    counter: int = 0

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return "%s%d" % (prefix, self.counter)


def ref(graph: Graph, node: Node) -> str:
    """Declares `node` under `signals:` (once) and returns its name."""
    if node.name is None:
        node.name = "n%d" % len(graph.nodes)
        graph.nodes.append(node)
    return node.name


def node_obs(node: Node, run: Run, env: dict) -> Any:
    if node.name is not None:
        if node.name not in env:
            env[node.name] = node.build(run, env)
        return env[node.name]
    return node.build(run, env)


def derive(graph: Graph, base: Node, step: Any, op: Callable[[Run, Any], Any], kind: str, label: str) -> Node:
    """`base` followed by one more step."""
    graph.ops_used.add(label)
    if base.name is None:
        steps = base.steps + [step]
    else:
        steps = [{"from": base.name}, step]

    def build(run: Run, env: dict) -> Any:
        return op(run, node_obs(base, run, env))

    return Node(steps, build, kind)


# ---- sources ----------------------------------------------------------------------------------


def hot_source(graph: Graph) -> Node:
    rng = graph.rng
    index = len(graph.hot)
    name = "h%d" % index
    error = "e%d" % index
    events = random_events(rng, rng.randint(4, 18), error, density=rng.choice([0.3, 0.45, 0.6]))
    if rng.random() < 0.25:
        # events before `^` (negative frames): they happen before the subscription at frame 0
        # and reach nobody, in RxPY as in flowrun. `^` takes frame 0, so frame 0 stays empty.
        before = rng.randint(1, 4)
        events = [(f - before, "N", rng.randint(0, 9)) for f in range(before) if rng.random() < 0.6] + \
            [e for e in events if e[0] > 0]
    graph.hot.append((name, events, error))
    graph.ops_used.add("hot")

    def build(run: Run, env: dict) -> Any:
        return env["hot:" + name]

    return Node([{"from": name}], build, "int", name=None)


def hot_ref(graph: Graph) -> Node:
    """An existing hot source (or a new one)."""
    if graph.hot and graph.rng.random() < 0.6:
        name = graph.rng.choice(graph.hot)[0]

        def build(run: Run, env: dict) -> Any:
            return env["hot:" + name]

        return Node([{"from": name}], build, "int")
    return hot_source(graph)


def cold_source(graph: Graph, length: int | None = None) -> Node:
    rng = graph.rng
    error = graph.fresh("c")
    events = random_events(rng, length or rng.randint(2, 10), error)
    step: dict[str, Any] = {"cold": marble(events, digit_token)}
    if any(k == "E" for _, k, _ in events):
        step["error"] = error
    graph.ops_used.add("cold")
    return Node([step], lambda run, env: run.cold(events), "int")


def leaf(graph: Graph) -> Node:
    rng = graph.rng
    r = rng.random()
    if r < 0.42:
        return hot_ref(graph)
    if r < 0.68:
        return cold_source(graph)
    if r < 0.73:
        v = rng.randint(0, 9)
        graph.ops_used.add("just")
        return Node([{"just": v}], lambda run, env: reactivex.just(v), "int")
    if r < 0.78:
        vs = [rng.randint(0, 9) for _ in range(rng.randint(0, 3))]
        graph.ops_used.add("of")
        return Node([{"of": vs}], lambda run, env: reactivex.of(*vs), "int")
    if r < 0.81:
        graph.ops_used.add("empty")
        return Node([{"empty": True}], lambda run, env: reactivex.empty(), "int")
    if r < 0.83:
        graph.ops_used.add("never")
        return Node([{"never": True}], lambda run, env: reactivex.never(), "int")
    if r < 0.86:
        e = graph.fresh("f")
        graph.ops_used.add("fail")
        return Node([{"fail": e}], lambda run, env: reactivex.throw(FlowError(e)), "int")
    if r < 0.92:
        d = rng.randint(1, 6)
        graph.ops_used.add("interval")
        return Node([{"interval": d}], lambda run, env: reactivex.interval(d, scheduler=run.scheduler), "int")
    if rng.random() < 0.5:
        d = rng.randint(0, 8)
        graph.ops_used.add("timer")
        return Node([{"timer": d}], lambda run, env: run.timer(d), "int")
    after, every = rng.randint(0, 6), rng.randint(1, 5)
    graph.ops_used.add("timer(after, every)")
    return Node(
        [{"timer": {"after": after, "every": every}}],
        lambda run, env: reactivex.timer(after, every, scheduler=run.scheduler),
        "int",
    )


# ---- templates (inner signals of the flatMap family, catch) ----------------------------------


def inner_template(graph: Graph, with_outer: bool = True) -> Template:
    rng = graph.rng
    r = rng.random()
    if r < 0.75:
        error = graph.fresh("i")
        events = random_events(rng, rng.randint(1, 7), error, density=0.5)
        step: dict[str, Any] = {"cold": marble(events, digit_token)}
        if any(k == "E" for _, k, _ in events):
            step["error"] = error
        base_steps: list[Any] = [step]

        def base(run: Run) -> Any:
            return run.cold(events)
    elif r < 0.85:
        v = rng.randint(0, 9)
        base_steps = [{"just": v}]

        def base(run: Run) -> Any:
            return reactivex.just(v)
    elif r < 0.92:
        base_steps = [{"empty": True}]

        def base(run: Run) -> Any:
            return reactivex.empty()
    else:
        e = graph.fresh("g")
        base_steps = [{"fail": e}]

        def base(run: Run) -> Any:
            return reactivex.throw(FlowError(e))

    if with_outer and rng.random() < 0.7:
        return Template(base_steps + [{"map": "$0 + outer * 10"}],
                        lambda run, outer: base(run).pipe(ops.map(lambda x: x + outer * 10)))
    return Template(base_steps, lambda run, outer: base(run))


# ---- operators ---------------------------------------------------------------------------------

def swift_mod(a: int, b: int) -> int:
    """`%` of flowrun expressions (Swift): the sign of the left operand (-7 % 3 == -1)."""
    r = abs(a) % abs(b)
    return r if a >= 0 else -r


INT_MAPS = [
    ("$0 + 1", lambda x: x + 1),
    ("$0 * 2", lambda x: x * 2),
    ("$0 % 3", lambda x: swift_mod(x, 3)),
    ("$0 - 4", lambda x: x - 4),
    ("index", None),  # map with index: handled below
]
INT_FILTERS = [
    ("$0 % 2 == 0", lambda x: swift_mod(x, 2) == 0),
    ("$0 > 3", lambda x: x > 3),
    ("$0 < 6", lambda x: x < 6),
]
PREDICATES = [
    ("$0 < 5", lambda x: x < 5),
    ("$0 != 0", lambda x: x != 0),
    ("$0 > 2", lambda x: x > 2),
]


def throwing_map(x: Any) -> Any:
    if x > 7:
        raise FlowError("big")
    return x


def gen_int(graph: Graph, depth: int) -> Node:
    """A node of small integers (the type every expression of the generator works on)."""
    node = gen(graph, depth)
    if node.kind == "int":
        return node
    if node.kind == "pair":
        return derive(graph, node, {"map": "$0 + $1"}, lambda run, o: o.pipe(ops.map(lambda t: t[0] + t[1])),
                      "int", "map")
    return derive(graph, node, {"mapTo": 1}, lambda run, o: o.pipe(ops.map(lambda _: 1)), "int", "mapTo")


def gen(graph: Graph, depth: int) -> Node:
    rng = graph.rng
    if depth <= 0 or rng.random() < 0.18:
        return leaf(graph)
    r = rng.random()
    if r < 0.45:
        return unary(graph, gen_int(graph, depth - 1))
    if r < 0.55:
        return generic(graph, gen(graph, depth - 1))
    if r < 0.75:
        return combine(graph, depth)
    if r < 0.90:
        return higher_order(graph, depth)
    return timed(graph, gen_int(graph, depth - 1))


def generic(graph: Graph, base: Node) -> Node:
    """Operators that work on any value type."""
    rng = graph.rng
    k = base.kind
    # operators that may put an integer into the stream keep it typed only over integers
    ki = "int" if k == "int" else "any"
    choice = rng.choice(["skip", "take", "takeLast", "distinctUntilChanged", "ignoreElements",
                         "first", "last", "elementAt", "startWith", "materialize", "retry", "catch",
                         "catchAndReturn"])
    if choice == "catchAndReturn":
        v = rng.randint(0, 9)
        return derive(graph, base, {"catchAndReturn": v},
                      lambda run, o: o.pipe(ops.catch(reactivex.just(v))), ki, "catchAndReturn")
    if choice == "skip":
        n = rng.randint(0, 3)
        return derive(graph, base, {"skip": n}, lambda run, o: o.pipe(ops.skip(n)), k, "skip")
    if choice == "take":
        n = rng.randint(0, 4)
        return derive(graph, base, {"take": n}, lambda run, o: o.pipe(ops.take(n)), k, "take")
    if choice == "takeLast":
        # takeLast: 0 is RxJS 7's EMPTY in flowrun (completes at subscription); RxPY's
        # take_last(0) waits for the source to complete: documented, not generated.
        n = rng.randint(1, 3)
        return derive(graph, base, {"takeLast": n}, lambda run, o: o.pipe(ops.take_last(n)), k, "takeLast")
    if choice == "distinctUntilChanged":
        return derive(graph, base, "distinctUntilChanged", lambda run, o: o.pipe(ops.distinct_until_changed()),
                      k, "distinctUntilChanged")
    if choice == "ignoreElements":
        return derive(graph, base, "ignoreElements", lambda run, o: o.pipe(ops.ignore_elements()), k,
                      "ignoreElements")
    if choice in ("first", "last"):
        use_default = rng.random() < 0.5
        d = rng.randint(0, 9)
        step: Any = {choice: None, "default": d} if use_default else choice
        if choice == "first":
            def op(run: Run, o: Any) -> Any:
                return o.pipe(ops.first_or_default(None, d)) if use_default else o.pipe(ops.first())
        else:
            def op(run: Run, o: Any) -> Any:
                return o.pipe(ops.last_or_default(d)) if use_default else o.pipe(ops.last())
        return derive(graph, base, step, op, ki if use_default else k, choice)
    if choice == "elementAt":
        n = rng.randint(0, 3)
        use_default = rng.random() < 0.5
        d = rng.randint(0, 9)
        step = {"elementAt": n, "default": d} if use_default else {"elementAt": n}

        def op_at(run: Run, o: Any) -> Any:
            return o.pipe(ops.element_at_or_default(n, d)) if use_default else o.pipe(ops.element_at(n))
        return derive(graph, base, step, op_at, ki if use_default else k, "elementAt")
    if choice == "startWith":
        if rng.random() < 0.6:
            v = rng.randint(0, 9)
            return derive(graph, base, {"startWith": v}, lambda run, o: o.pipe(ops.start_with(v)), ki, "startWith")
        vs = [rng.randint(0, 9) for _ in range(2)]
        return derive(graph, base, {"startWith": vs}, lambda run, o: o.pipe(ops.start_with(*vs)), ki, "startWith")
    if choice == "materialize":
        return derive(graph, base, "materialize", lambda run, o: o.pipe(ops.materialize(), ops.map(materialized)),
                      "any", "materialize")
    if choice == "retry":
        n = rng.randint(0, 2)
        # flowrun's `retry: n` is n re-subscriptions; RxPY's retry(n) is n attempts in all.
        return derive(graph, base, {"retry": n}, lambda run, o: o.pipe(ops.retry(n + 1)), k, "retry")
    template = inner_template(graph, with_outer=False)
    return derive(graph, base, {"catch": template.steps},
                  lambda run, o: o.pipe(ops.catch(lambda e, _src: template.make(run, 0))), ki, "catch")


def unary(graph: Graph, base: Node) -> Node:
    """Operators on small integers (expressions)."""
    rng = graph.rng
    choice = rng.choice(["map", "map", "filter", "scan", "reduce", "takeWhile", "skipWhile", "pairwise",
                         "buffer", "throwingMap", "takeUntil", "skipUntil", "withLatestFrom", "sample",
                         "generic"])
    if choice == "generic":
        if rng.random() < 0.25:
            return derive(graph, base, {"distinctUntilChanged": "$0 % 3"},
                          lambda run, o: o.pipe(ops.distinct_until_changed(lambda x: swift_mod(x, 3))), "int",
                          "distinctUntilChanged (key)")
        if rng.random() < 0.25:
            which = rng.choice(["first", "last"])
            expr, fn = rng.choice(INT_FILTERS)
            use_default = rng.random() < 0.5
            dv = rng.randint(0, 9)
            step: Any = {which: expr, "default": dv} if use_default else {which: expr}

            def op_pred(run: Run, o: Any) -> Any:
                if which == "first":
                    return o.pipe(ops.first_or_default(fn, dv)) if use_default else o.pipe(ops.first(fn))
                return o.pipe(ops.last_or_default(dv, fn)) if use_default else o.pipe(ops.last(fn))
            return derive(graph, base, step, op_pred, "int", which + " (predicate)")
        return generic(graph, base)
    if choice == "map":
        expr, fn = rng.choice(INT_MAPS)
        if fn is None:
            # RxPY's map_indexed draws its index from one iterator made with the operator, so
            # the count goes on across subscriptions (a second subscriber, a retry); flowrun's
            # `index` counts within each subscription. defer makes one operator per subscription.
            return derive(graph, base, {"map": "$0 + index"},
                          lambda run, o: reactivex.defer(lambda _: o.pipe(ops.map_indexed(lambda x, i: x + i))),
                          "int", "map (index)")
        return derive(graph, base, {"map": expr}, lambda run, o: o.pipe(ops.map(fn)), "int", "map")
    if choice == "throwingMap":
        return derive(graph, base, {"map": '$0 > 7 ? throw("big") : $0'},
                      lambda run, o: o.pipe(ops.map(throwing_map)), "int", "map (throw)")
    if choice == "filter":
        expr, fn = rng.choice(INT_FILTERS)
        return derive(graph, base, {"filter": expr}, lambda run, o: o.pipe(ops.filter(fn)), "int", "filter")
    if choice == "scan":
        if rng.random() < 0.5:
            seed = rng.randint(0, 5)
            return derive(graph, base, {"scan": "$0 + $1", "seed": seed},
                          lambda run, o: o.pipe(ops.scan(lambda a, x: a + x, seed)), "int", "scan")
        return derive(graph, base, {"scan": "$0 + $1"},
                      lambda run, o: o.pipe(ops.scan(lambda a, x: a + x)), "int", "scan")
    if choice == "reduce":
        has_seed = rng.random() < 0.5
        seed = rng.randint(0, 5)
        step = {"reduce": "$0 + $1", "seed": seed} if has_seed else {"reduce": "$0 + $1"}
        return derive(graph, base, step, lambda run, o: run.reduce(o, lambda a, x: a + x, seed, has_seed),
                      "int", "reduce")
    if choice == "takeWhile":
        expr, fn = rng.choice(PREDICATES)
        if rng.random() < 0.3:
            return derive(graph, base, {"takeWhile": expr, "inclusive": True},
                          lambda run, o: o.pipe(ops.take_while(fn, inclusive=True)), "int", "takeWhile")
        return derive(graph, base, {"takeWhile": expr}, lambda run, o: o.pipe(ops.take_while(fn)), "int",
                      "takeWhile")
    if choice == "skipWhile":
        expr, fn = rng.choice(PREDICATES)
        return derive(graph, base, {"skipWhile": expr}, lambda run, o: o.pipe(ops.skip_while(fn)), "int",
                      "skipWhile")
    if choice == "pairwise":
        return derive(graph, base, "pairwise", lambda run, o: o.pipe(ops.pairwise()), "pair", "pairwise")
    if choice == "buffer":
        n = rng.randint(1, 3)
        if rng.random() < 0.4:
            m = rng.randint(1, 3)
            return derive(graph, base, {"buffer": n, "every": m},
                          lambda run, o: o.pipe(ops.buffer_with_count(n, m), ops.map(tuple)), "any", "buffer")
        return derive(graph, base, {"buffer": n}, lambda run, o: o.pipe(ops.buffer_with_count(n), ops.map(tuple)),
                      "any", "buffer")
    # takeUntil, skipUntil, sample: a notifier that is a hot source of its own. RxPY subscribes
    # the source before the notifier in takeUntil and skipUntil (flowrun, RxJS: the notifier
    # first); with a separate hot notifier that order cannot be observed (each hot marble's
    # events are scheduled before the run, in file order, whoever subscribes first).
    other = hot_source(graph)
    other_name = ref(graph, other)
    if choice == "takeUntil":
        return derive(graph, base, {"takeUntil": other_name},
                      lambda run, o: o.pipe(ops.take_until(node_obs(other, run, run_env(run)))),
                      "int", "takeUntil")
    if choice == "skipUntil":
        return derive(graph, base, {"skipUntil": other_name},
                      lambda run, o: run.skip_until(o, node_obs(other, run, run_env(run))), "int", "skipUntil")
    if choice == "sample":
        return derive(graph, base, {"sample": other_name},
                      lambda run, o: run.sample(o, node_obs(other, run, run_env(run))), "int", "sample")
    # withLatestFrom: any other signal (RxPY subscribes it first, like the spec)
    other2 = gen_int(graph, 1) if rng.random() < 0.5 else other
    other2_name = ref(graph, other2)
    return derive(graph, base, {"withLatestFrom": other2_name},
                  lambda run, o: o.pipe(ops.with_latest_from(node_obs(other2, run, run_env(run)))),
                  "pair", "withLatestFrom")


def run_env(run: Run) -> dict:
    return run.env  # type: ignore[attr-defined]


def combine(graph: Graph, depth: int) -> Node:
    rng = graph.rng
    choice = rng.choice(["combineLatest", "zip", "merge", "concat"])
    n = 2 if rng.random() < 0.8 else 3
    inputs = [gen_int(graph, depth - 1) for _ in range(n)]
    names = [ref(graph, i) for i in inputs]
    graph.ops_used.add(choice)

    def observables(run: Run, env: dict) -> list[Any]:
        return [node_obs(i, run, env) for i in inputs]

    if choice == "combineLatest":
        return Node([{"combineLatest": names}], lambda run, env: run.combine_latest(observables(run, env)),
                    "pair" if n == 2 else "any")
    if choice == "zip":
        return Node([{"zip": names}], lambda run, env: reactivex.zip(*observables(run, env)),
                    "pair" if n == 2 else "any")
    if choice == "merge":
        if rng.random() < 0.3:
            c = rng.randint(1, 2)
            graph.ops_used.add("merge (concurrent)")
            return Node([{"merge": names, "concurrent": c}],
                        lambda run, env: reactivex.from_iterable(observables(run, env)).pipe(
                            ops.merge(max_concurrent=c)), "int")
        return Node([{"merge": names}], lambda run, env: reactivex.merge(*observables(run, env)), "int")
    return Node([{"concat": names}], lambda run, env: reactivex.concat(*observables(run, env)), "int")


def higher_order(graph: Graph, depth: int) -> Node:
    rng = graph.rng
    base = gen_int(graph, depth - 1)
    template = inner_template(graph)
    choice = rng.choice(["flatMap", "flatMapLatest", "concatMap", "exhaustMap"])

    def make(run: Run) -> Callable[[Any], Any]:
        return lambda outer: template.make(run, outer)

    if choice == "flatMap":
        op = lambda run, o: o.pipe(ops.flat_map(make(run)))  # noqa: E731
    elif choice == "flatMapLatest":
        op = lambda run, o: o.pipe(ops.switch_map(make(run)))  # noqa: E731
    elif choice == "concatMap":
        op = lambda run, o: o.pipe(ops.concat_map(make(run)))  # noqa: E731
    else:
        op = lambda run, o: o.pipe(ops.map(make(run)), ops.exclusive())  # noqa: E731
    return derive(graph, base, {choice: template.steps}, op, "int", choice)


def timed(graph: Graph, base: Node) -> Node:
    rng = graph.rng
    d = rng.randint(1, 5)
    choice = rng.choice(["debounce", "throttle", "delay", "timeout"])
    if choice == "timeout":
        d = rng.randint(2, 6)
        return derive(graph, base, {"timeout": d}, lambda run, o: run.timeout(o, d), "int", "timeout")
    if choice == "debounce":
        return derive(graph, base, {"debounce": d},
                      lambda run, o: o.pipe(ops.debounce(d, scheduler=run.scheduler)), "int", "debounce")
    if choice == "throttle":
        # RxPY's throttle_first is flowrun's leading-only throttle.
        return derive(graph, base, {"throttle": d, "trailing": False},
                      lambda run, o: run.throttle_first(o, d), "int", "throttle (leading only)")
    return derive(graph, base, {"delay": d}, lambda run, o: run.delay(o, d), "int", "delay")


# ---------------------------------------------------------------------------------------------
# One scenario


@dataclass
class Scenario:
    index: int
    seed: str
    yaml: str
    ops_used: set[str]


def build_graph(rng: random.Random) -> tuple[Graph, Node]:
    graph = Graph(rng)
    out = gen(graph, rng.randint(1, 4))
    return graph, out


def run_rxpy(graph: Graph, out: Node) -> tuple[list[Event], list[str]]:
    run = Run()
    env: dict = {}
    run.env = env  # type: ignore[attr-defined]
    run.subscribe_at_zero(lambda: node_obs(out, run, env))
    for name, events, _ in graph.hot:  # created in file order, after the subscription action
        env["hot:" + name] = run.hot(events)
    return run.advance(END), run.diverges


def steps_yaml(steps: list[Any], indent: str) -> str:
    return "".join("%s- %s\n" % (indent, dump(step)) for step in steps)


def scenario_yaml(title: str, graph: Graph, out: Node, events: list[Event]) -> str:
    lines = ["flowrun: 1\n", "name: %s\n" % dump(title), "tags: [conformance, rxpy]\n", "until: %d\n" % END,
             "signals:\n"]
    for name, hot_events, error in graph.hot:
        step: dict[str, Any] = {"hot": hot_marble(hot_events)}
        if any(k == "E" for _, k, _ in hot_events):
            step["error"] = error
        lines.append("  %s: %s\n" % (name, dump(step)))
    for node in graph.nodes:
        lines.append("  %s:\n" % node.name)
        lines.append(steps_yaml(node.steps, "    "))
    lines.append("  out:\n")
    lines.append(steps_yaml(out.steps, "    "))
    legend = Legend()
    expected = marble(events, legend.token)
    expectation: dict[str, Any] = {"marble": expected}
    if legend.entries:
        expectation["values"] = legend.values()
    errors = [v for _, k, v in events if k == "E"]
    if errors:
        expectation["error"] = errors[0]
    lines.append("expect:\n")
    lines.append("  out: %s\n" % dump(expectation))
    return "".join(lines)


def generate(seed: int, count: int) -> tuple[list[Scenario], dict[str, int]]:
    scenarios: list[Scenario] = []
    skipped: dict[str, int] = {}
    attempt = 0
    while len(scenarios) < count:
        sub_seed = "%d.%d" % (seed, attempt)
        attempt += 1
        rng = random.Random(sub_seed)
        graph, out = build_graph(rng)
        if out.kind == "any" and out.steps == []:
            continue
        try:
            events, diverges = run_rxpy(graph, out)
        except RecursionError:
            skipped["RxPY recursion limit"] = skipped.get("RxPY recursion limit", 0) + 1
            continue
        if diverges:
            for reason in diverges:
                skipped[reason] = skipped.get(reason, 0) + 1
            continue
        title = "rxpy %s" % sub_seed
        scenarios.append(Scenario(len(scenarios), sub_seed, scenario_yaml(title, graph, out, events),
                                  graph.ops_used))
    return scenarios, skipped


# ---------------------------------------------------------------------------------------------
# Running flowrun


def find_flowrun(explicit: str | None) -> str:
    if explicit:
        return explicit
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    candidate = os.path.join(root, ".build", "debug", "flowrun")
    if os.path.exists(candidate):
        return candidate
    found = shutil.which("flowrun")
    if found:
        return found
    print("rxpy_diff: flowrun not found: build it with `swift build` or pass --flowrun PATH", file=sys.stderr)
    sys.exit(2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Differential conformance of flowrun against RxPY.")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--keep", metavar="DIR", help="write the scenarios into DIR and keep them")
    parser.add_argument("--flowrun", metavar="PATH", help="the flowrun executable (default .build/debug/flowrun)")
    args = parser.parse_args(argv)
    sys.setrecursionlimit(10000)

    started = time.monotonic()
    flowrun = find_flowrun(args.flowrun)
    scenarios, skipped = generate(args.seed, args.count)
    generated = time.monotonic()

    if args.keep:
        directory = os.path.abspath(args.keep)
        os.makedirs(directory, exist_ok=True)
        cleanup = None
    else:
        cleanup = tempfile.TemporaryDirectory(prefix="rxpy-diff-")
        directory = cleanup.name
    paths = {}
    for scenario in scenarios:
        path = os.path.join(directory, "rxpy-%d-%04d.yaml" % (args.seed, scenario.index))
        with open(path, "w", encoding="utf-8") as f:
            f.write(scenario.yaml)
        paths[path] = scenario

    proc = subprocess.run([flowrun, "--reporter", "json", "--color", "never", directory],
                          capture_output=True, text=True)
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError:
        print("rxpy_diff: flowrun did not print a JSON report (exit %d):\n%s\n%s"
              % (proc.returncode, proc.stdout[-2000:], proc.stderr[-2000:]), file=sys.stderr)
        return 2

    failures = []
    seen = 0
    for entry in report.get("scenarios", []):
        seen += 1
        if entry.get("status") != "passed":
            failures.append(entry)
    ops_used: set[str] = set()
    for s in scenarios:
        ops_used |= s.ops_used

    for entry in failures:
        path = entry.get("path", "?")
        scenario = paths.get(os.path.abspath(path)) or paths.get(path)
        seed = scenario.seed if scenario else "?"
        print("DIFFERENCE seed %s  %s" % (seed, path))
        for diag in entry.get("diagnostics", []):
            print("  %s: %s" % (diag.get("severity"), diag.get("message")))
        for exp in entry.get("expectations", []):
            if exp.get("status") != "passed":
                print("  expected (RxPY) %s" % exp.get("expected"))
                print("  actual (flowrun) %s" % exp.get("actual"))
                if exp.get("legend"):
                    print("  legend %s" % json.dumps(exp.get("legend"), ensure_ascii=False))
        if not args.keep and scenario:
            print("  ---\n" + "".join("  " + line for line in scenario.yaml.splitlines(True)))
    if seen != len(scenarios):
        print("rxpy_diff: flowrun reported %d scenarios, %d were written" % (seen, len(scenarios)))
    skipped_total = sum(skipped.values())
    print("operators covered: %s" % ", ".join(sorted(ops_used)))
    if skipped:
        print("skipped (graphs hitting a documented RxPY difference): %d" % skipped_total)
        for reason, n in sorted(skipped.items()):
            print("  %4d  %s" % (n, reason))
    print("seed %d: %d scenarios generated in %.1f s, flowrun ran in %.1f s"
          % (args.seed, len(scenarios), generated - started, time.monotonic() - generated))
    passed = len(scenarios) - len(failures)
    print("rxpy-diff: %d passed, %d failed" % (passed, len(failures)))
    if cleanup:
        cleanup.cleanup()
    return 0 if not failures and seen == len(scenarios) else 1


if __name__ == "__main__":
    sys.exit(main())
