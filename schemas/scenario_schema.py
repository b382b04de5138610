#!/usr/bin/env python3
"""Builds schemas/flowrun-scenario.schema.json, the JSON Schema of scenario format 1.

The schema is generated because every step of a signal is described three times (as a source,
as a source inside a template case with `when`, and as an operator) and the extra keys of each
step need a rule each. Run `python3 schemas/scenario_schema.py` after changing this file;
`Tests/Schema/test_schemas.py` fails while the checked-in schema differs from what this builds.

Step objects list every step key as a property (so editors complete and explain them all),
`oneOf` requires exactly one step key, and an `if`/`then` per extra key (`values`, `seed`, …)
says beside which steps it may stand.
"""

import json
import pathlib
import sys

# Not an address: the schema is the file in the repository (schemas/), found by path.
SCHEMA_ID = "urn:flowrun:schema:scenario:1"
OUTPUT = pathlib.Path(__file__).with_name("flowrun-scenario.schema.json")

NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$"


def ref(name, description=None):
    schema = {"$ref": f"#/$defs/{name}"}
    if description:
        schema["description"] = description
    return schema


def described(schema, description):
    return {"description": description, **schema}


TRUE_OR_NULL = {"enum": [True, None]}

# ---------------------------------------------------------------------------------------------
# Shared definitions

DEFS = {
    "name": {
        "description": "A declared name: letters, digits and '_', optionally dotted (vm.account, loginButton.enabled).",
        "type": "string",
        "pattern": NAME_PATTERN,
    },
    "value": {
        "description": "A value as YAML writes it: null, bool, integer, float, string, list or map with string keys.",
    },
    "expression": {
        "description": "An expression (expressions.md) as a YAML string, e.g. '$0 > 2'; a YAML number, bool or null is that literal value.",
        "type": ["string", "number", "boolean", "null"],
    },
    "marble": {
        "description": "A marble diagram (marbles.md), e.g. \"-a--b-|\"; '-' is one frame, '|' completion, '#' error, '(ab)' a group.",
        "type": "string",
    },
    "duration": {
        "description": "A duration: a number of frames (5) or a string with a unit: 500ms, 1.5s, 2m, 10f. It must be a whole number of ticks.",
        "anyOf": [
            {"type": "integer", "minimum": 0},
            {"type": "string", "pattern": r"^[0-9]+(\.[0-9]+)?(ms|s|m|f)?$"},
        ],
    },
    "positiveDuration": {
        "description": "A duration of at least one frame: a number of frames (1) or a string with a unit: 500ms, 1.5s, 2m, 10f.",
        "anyOf": [
            {"type": "integer", "minimum": 1},
            {"type": "string", "pattern": r"^(?=[0-9.]*[1-9])[0-9]+(\.[0-9]+)?(ms|s|m|f)?$"},
        ],
    },
    "count": {
        "description": "An integer ≥ 0.",
        "type": "integer",
        "minimum": 0,
    },
    "legend": {
        "description": "A value legend: marble token → value. A scalar tagged !cold or !hot is a signal value written as a marble with the same legend.",
        "type": "object",
        "propertyNames": {"type": "string", "minLength": 1, "pattern": "^[^']+$"},
        "additionalProperties": ref("value", "The value this token stands for in marbles (or a !cold / !hot marble)."),
    },
    "signalList": {
        "description": "A list of signals, or a single signal (a name or one source step).",
        "anyOf": [
            {"type": "array", "items": ref("signal"), "minItems": 1},
            ref("name"),
            ref("sourceStep"),
        ],
    },
    "targets": {
        "description": "A map of target name → literal value.",
        "type": "object",
        "propertyNames": ref("name"),
        "additionalProperties": ref("value", "The literal value to send or set."),
        "minProperties": 1,
    },
    "targetsOrName": {
        "description": "A map of target → literal value, or a bare target name, which receives the event's value itself.",
        "anyOf": [ref("name"), ref("targets")],
    },
}

# ---------------------------------------------------------------------------------------------
# Steps: (key, argument schema, description). Extra keys are listed separately.

SIGNAL = ref("signal")
TEMPLATE = ref("template")

SOURCES = [
    ("hot", ref("marble"), "A hot source: events at absolute frames, shared by all subscribers; '^' marks frame 0. Extra keys: values, error."),
    ("cold", ref("marble"), "A cold source: every subscription replays the marble from its own subscription frame. Extra keys: values, error."),
    ("from", ref("name"), "The named signal, subject, property (RACObserve: current value, then every change) or derived name."),
    ("just", ref("value"), "One value, then completed, at subscription."),
    ("of", {"type": "array"}, "Each value of the list in order, then completed, all at subscription."),
    ("empty", {"const": True}, "Completed at subscription (write 'empty: true')."),
    ("never", {"const": True}, "Nothing, ever (write 'never: true')."),
    ("fail", ref("value"), "An error with this value at subscription."),
    ("interval", ref("positiveDuration"), "0, 1, 2, … every duration, the first one a duration after subscription; at least one frame."),
    (
        "timer",
        {
            "anyOf": [
                ref("duration"),
                {
                    "type": "object",
                    "properties": {
                        "after": ref("duration", "When the first value (0) comes, counted from subscription; may be 0. Default 0."),
                        "every": ref("positiveDuration", "The period of the following values 1, 2, …; at least one frame."),
                    },
                    "required": ["every"],
                    "additionalProperties": False,
                },
            ]
        },
        "0 after the duration, then completed; or repeating with {after, every}.",
    ),
    (
        "combineLatest",
        {
            "anyOf": [
                {"type": "array", "items": SIGNAL, "minItems": 1},
                {
                    "description": "Keyed form: each key is bound by name in the next step's expressions; values are maps.",
                    "type": "object",
                    "minProperties": 1,
                    "propertyNames": {},  # filled in by build(): any key but a step name
                    "additionalProperties": SIGNAL,
                },
                ref("name"),
                ref("sourceStep"),
            ]
        },
        "The latest value of every input once each has sent one: a list ($0, $1 …) for a list of signals, a map for a map of signals.",
    ),
    ("zip", None, "Pairs the inputs' values by index: a list for a list of signals, a map for a map of signals."),
    ("merge", ref("signalList"), "The inputs' events interleaved (extra key: concurrent)."),
    ("concat", ref("signalList"), "The inputs one after another, each after the previous completed."),
    ("race", ref("signalList"), "The first input to emit wins (amb); the others are unsubscribed."),
    ("call", ref("name"), "Calls the named service once per subscription; extra key 'with' gives the input."),
]

OPERATORS = [
    # transform
    ("map", ref("expression"), "Transforms each value with the expression ($0 is the value)."),
    ("mapTo", ref("value"), "Replaces each value with this literal value."),
    ("scan", ref("expression"), "Accumulates: $0 the accumulator, $1 the value; emits every accumulation (extra key: seed)."),
    ("reduce", ref("expression"), "Like scan, but emits only the final accumulation on completion (extra key: seed)."),
    ("pairwise", TRUE_OR_NULL, "Emits [previous, current] pairs from the second value on."),
    ("materialize", TRUE_OR_NULL, "Turns events into values {kind: next|error|completed, value|error}."),
    ("dematerialize", TRUE_OR_NULL, "The reverse of materialize."),
    # filter
    ("filter", ref("expression"), "Passes only values for which the expression is true."),
    (
        "distinctUntilChanged",
        {"anyOf": [TRUE_OR_NULL, ref("expression")]},
        "Drops a value equal to the previous one; with an expression, compares by that key.",
    ),
    ("skip", ref("count"), "Drops the first n values."),
    ("take", ref("count"), "Passes the first n values, then completes."),
    ("takeLast", ref("count"), "Emits the last n values on completion."),
    ("skipWhile", ref("expression"), "Drops values while the expression is true."),
    ("takeWhile", ref("expression"), "Passes values while the expression is true, then completes (extra key: inclusive)."),
    ("skipUntil", SIGNAL, "Drops values until the notifier signal sends a value."),
    ("takeUntil", SIGNAL, "Passes values until the notifier signal sends a value (ReactiveX: the notifier completing does nothing)."),
    ("takeUntilRAC", SIGNAL, "RAC2 takeUntil: also completes when the notifier completes."),
    ("first", {"anyOf": [TRUE_OR_NULL, ref("expression")]}, "The first value (or the first passing the expression), then completes (extra key: default)."),
    ("last", {"anyOf": [TRUE_OR_NULL, ref("expression")]}, "The last value (or the last passing the expression), on completion (extra key: default)."),
    ("elementAt", ref("count"), "The value at this index, then completes (extra key: default)."),
    ("ignoreElements", TRUE_OR_NULL, "Drops every value; passes completion and error."),
    ("ignoreValues", TRUE_OR_NULL, "RAC2 name of ignoreElements."),
    ("ignore", ref("value"), "RAC2: drops values equal to this value."),
    # combine
    ("startWith", ref("value"), "Emits these values first (a list means several values; [[a, b]] is one list value)."),
    ("combineLatest", ref("signalList"), "combineLatest of this signal and the given signal(s); values are lists."),
    ("combineLatestWith", ref("signalList"), "combineLatest of this signal and the given signal(s); values are lists."),
    ("zip", ref("signalList"), "zip of this signal and the given signal(s); values are lists."),
    ("zipWith", ref("signalList"), "zip of this signal and the given signal(s); values are lists."),
    ("merge", ref("signalList"), "Merges this signal with the given signal(s) (extra key: concurrent)."),
    ("mergeWith", ref("signalList"), "Merges this signal with the given signal(s) (extra key: concurrent)."),
    ("concat", ref("signalList"), "This signal, then the given signal(s), one after another."),
    ("concatWith", ref("signalList"), "This signal, then the given signal(s), one after another."),
    ("withLatestFrom", ref("signalList"), "Each value paired with the latest values of the given signal(s): [$0, $1, …]."),
    ("sample", SIGNAL, "Emits the latest value when the sampler signal sends (ReactiveX: only a new value)."),
    ("sampleRAC", SIGNAL, "RAC2 sample: re-emits the latest value at every sampler event."),
    ("then", SIGNAL, "RAC2: ignores the values, then on completion subscribes to the given signal."),
    # higher-order
    ("flatMap", TEMPLATE, "Each value makes an inner signal from the template ('outer' is the value); all are merged (extra key: concurrent)."),
    ("flattenMap", TEMPLATE, "RAC2 name of flatMap."),
    ("flatMapLatest", TEMPLATE, "Each value makes an inner signal; a new one cancels the previous (switchMap)."),
    ("switchMap", TEMPLATE, "RxJS name of flatMapLatest."),
    ("concatMap", TEMPLATE, "Each value makes an inner signal; they run one after another."),
    ("exhaustMap", TEMPLATE, "Each value makes an inner signal, ignored while the previous one runs."),
    ("mergeAll", TRUE_OR_NULL, "Merges signal values (extra key: concurrent)."),
    ("flatten", TRUE_OR_NULL, "RAC2 name of mergeAll."),
    ("switchToLatest", TRUE_OR_NULL, "Switches to the latest signal value, cancelling the previous one."),
    ("switchAll", TRUE_OR_NULL, "RxJS name of switchToLatest."),
    ("concatAll", TRUE_OR_NULL, "Subscribes to signal values one after another."),
    # time
    ("debounce", ref("duration"), "Emits a value once no newer value came for the duration."),
    ("throttle", ref("duration"), "ReactiveX throttle: at most one value per duration (extra keys: leading, trailing, latest)."),
    ("delay", ref("duration"), "Shifts every event later by the duration."),
    ("delaySubscription", ref("duration"), "Subscribes upstream only after the duration."),
    ("timeout", ref("duration"), "Fails with \"timeout\" (or switches to 'fallback') when no event comes within the duration."),
    ("timeoutRAC", ref("duration"), "RAC2 timeout: fails when the signal has not completed within the duration."),
    ("bufferTime", ref("positiveDuration"), "Collects values into a list per period, empty ones included (extra keys: every, max)."),
    ("buffer", {"type": "integer", "minimum": 1}, "Collects values into lists of n (RxJS bufferCount; extra key: every)."),
    # errors
    (
        "retry",
        {
            "anyOf": [
                TRUE_OR_NULL,
                ref("count"),
                {
                    "type": "object",
                    "properties": {
                        "count": ref("count", "Re-subscriptions after the first attempt; omit for unbounded."),
                        "delay": ref("duration", "Time to wait before each re-subscription."),
                    },
                    "additionalProperties": False,
                },
            ]
        },
        "Re-subscribes after an error: n times, unbounded when bare, or {count, delay}.",
    ),
    ("catch", TEMPLATE, "On error, continues with the template's signal ('error' is the error value)."),
    ("catchAndReturn", ref("value"), "On error, emits this value and completes."),
    # sharing
    ("share", TRUE_OR_NULL, "RxJS 7 share(): one connection for all subscribers, reset after completion or error."),
    ("shareReplay", ref("count"), "RxJS 7 shareReplay(n): stays connected and replays the last n values."),
    ("replay", TRUE_OR_NULL, "RAC2 replay: connects at once and replays every value."),
    ("replayLast", TRUE_OR_NULL, "RAC2 replayLast: connects at once and replays the last value."),
    ("replayLazily", TRUE_OR_NULL, "RAC2 replayLazily: connects at the first subscription and replays every value."),
    # scheduling and debugging
    ("observeOn", {"type": "string"}, "Re-delivers each event as a new scheduler action at the same frame; the argument names the queue."),
    ("deliverOn", {"type": "string"}, "RAC2 name of observeOn."),
    ("tap", TRUE_OR_NULL, "A no-op marker that --trace labels."),
    ("doNext", TRUE_OR_NULL, "RAC2 name of tap."),
    ("name", {"type": "string"}, "Labels the node in traces and diagrams."),
]

# Extra keys: key → (schema, description, the steps it may stand beside).
EXTRAS = {
    "values": (ref("legend"), "The marble's own legend, over the file's values.", ["hot", "cold"]),
    "error": (ref("value"), "The value of '#' in this marble; default the file's error.", ["hot", "cold"]),
    "with": (ref("expression"), "The input of the call ('outer', 'input' and 'error' are bound in templates).", ["call"]),
    "concurrent": (
        {"type": "integer", "minimum": 1},
        "How many inner signals run at once; the rest wait in order.",
        ["merge", "mergeWith", "flatMap", "flattenMap", "mergeAll", "flatten"],
    ),
    "seed": (ref("value"), "The initial accumulator; without it the first value is the accumulator.", ["scan", "reduce"]),
    "inclusive": ({"type": "boolean"}, "Also emit the first value that fails the test.", ["takeWhile"]),
    "default": (ref("value"), "The value to emit when none is found (else an error).", ["first", "last", "elementAt"]),
    "leading": ({"type": "boolean"}, "Emit the first value of a period (default true).", ["throttle"]),
    "trailing": ({"type": "boolean"}, "Emit the last value of a period at its end (default true).", ["throttle"]),
    "latest": ({"type": "boolean"}, "Alias of 'trailing'.", ["throttle"]),
    "fallback": (SIGNAL, "The signal to switch to on timeout instead of failing.", ["timeout"]),
    "every": (
        ref("duration"),
        "bufferTime: start a new buffer every duration; buffer: start a new buffer every m values.",
        ["bufferTime", "buffer"],
    ),
    "max": ({"type": "integer", "minimum": 1}, "Emit a buffer early once it holds this many values.", ["bufferTime"]),
}

STEP_NAMES = sorted({name for name, _, _ in SOURCES} | {name for name, _, _ in OPERATORS})
BARE_OPERATORS = sorted(
    name for name, schema, _ in OPERATORS if schema is TRUE_OR_NULL or name in ("distinctUntilChanged", "first", "last", "retry")
)


def source_argument(name):
    for step, schema, _ in SOURCES:
        if step == name:
            return schema
    raise KeyError(name)


def step_object(steps, with_when=False, description=""):
    """One object schema for a step of `steps`: exactly one step key, plus its extra keys."""
    names = [name for name, _, _ in steps]
    properties = {}
    for name, schema, text in steps:
        if schema is None:  # zip as a source: combineLatest's argument
            schema = source_argument("combineLatest")
        properties[name] = described(schema, text)
    extras = {key: value for key, value in EXTRAS.items() if set(value[2]) & set(names)}
    for key, (schema, text, owners) in extras.items():
        owners = [owner for owner in owners if owner in names]
        properties[key] = described(schema, f"{text} Beside: {', '.join(owners)}.")
    if with_when:
        properties["when"] = ref("expression", "The case matches when this is true ('outer' or 'input' is bound); the last case may omit it.")
    rules = []
    for key, (_, _, owners) in extras.items():
        owners = [owner for owner in owners if owner in names]
        rules.append({"if": {"required": [key]}, "then": {"anyOf": [{"required": [owner]} for owner in owners]}})
    if "buffer" in names:
        rules.append({
            "if": {"required": ["buffer", "every"]},
            "then": {"properties": {"every": {"type": "integer", "minimum": 1}}},
        })
    schema = {
        "description": description,
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
        "oneOf": [{"required": [name]} for name in names],
    }
    if rules:
        schema["allOf"] = rules
    return schema


def build():
    defs = dict(DEFS)
    # The keyed form of combineLatest/zip: keys that are not step names.
    keyed = SOURCES[10][1]["anyOf"][1]
    keyed["propertyNames"] = {"type": "string", "not": {"enum": STEP_NAMES}}

    defs["sourceStep"] = step_object(
        SOURCES, description="A source step: a one-key map (hot, cold, from, just, …) with the extra keys its table row lists.")
    defs["caseStep"] = step_object(
        SOURCES, with_when=True, description="A case: 'when:' beside the keys of one source step.")
    defs["operatorStep"] = {
        "description": "An operator step: a one-key map (map: expr, skip: 1, …), or an operator with no argument as a bare string.",
        "anyOf": [
            {"description": "An operator with no argument.", "enum": BARE_OPERATORS},
            step_object(OPERATORS, description="An operator step with its argument and extra keys."),
        ],
    }
    defs["signal"] = {
        "description": "A signal: a name, one source step, or a list of steps (a source or a name first, then operators, read top to bottom).",
        "anyOf": [
            ref("name"),
            ref("sourceStep"),
            {
                "type": "array",
                "minItems": 1,
                "prefixItems": [{"anyOf": [ref("name"), ref("sourceStep")]}],
                "items": ref("operatorStep"),
            },
        ],
    }
    defs["template"] = {
        "description": "A template: a signal made anew for each value or execution ('outer', 'input' or 'error' is bound), or 'cases' whose first matching 'when' wins.",
        "anyOf": [
            ref("signal"),
            {
                "type": "object",
                "properties": {
                    "cases": {
                        "description": "The cases, tried in order; the first whose 'when' holds makes the signal. Only the last may omit 'when'.",
                        "type": "array",
                        "minItems": 1,
                        "items": ref("case"),
                    }
                },
                "required": ["cases"],
                "additionalProperties": False,
            },
        ],
    }
    defs["case"] = {
        "description": "A case: 'when:' beside the keys of one source step, or 'when:' beside 'signal:' holding a list of steps.",
        "anyOf": [
            ref("caseStep"),
            {
                "type": "object",
                "properties": {
                    "when": ref("expression", "The case matches when this is true; the last case may omit it."),
                    "signal": ref("signal", "The signal of this case (a name, a step or a list of steps)."),
                },
                "required": ["signal"],
                "additionalProperties": False,
            },
        ],
    }
    action_properties = {
        "send": ref("targetsOrName", "Sends into subjects: a map subject → literal value, or a bare subject name (the event's value)."),
        "set": ref("targetsOrName", "Sets properties: a map property → literal value, or a bare property name (the event's value)."),
        "execute": ref("name", "Executes this command (with 'input', else the event's value)."),
        "input": ref("value", "The literal input of 'execute'."),
        "complete": ref("name", "Completes this subject."),
        "fail": {
            "description": "Fails subjects: a map subject → error value.",
            "type": "object",
            "propertyNames": ref("name"),
            "additionalProperties": ref("value", "The error value."),
            "minProperties": 1,
        },
    }
    defs["actions"] = {
        "description": "Actions done in the order written: send, set, execute (+ input), complete, fail.",
        "type": "object",
        "properties": action_properties,
        "additionalProperties": False,
    }
    defs["effect"] = {
        "description": "A subscription with side effects (a subscribeNext: block): for each value of 'on', does its actions in the order written.",
        "type": "object",
        "properties": {
            "on": ref("signal", "The signal the effect subscribes to (required): a name, a step or a list of steps."),
            "when": ref("expression", "Only values for which this expression is true ($0 is the value) trigger the actions."),
            "at": ref("duration", "Subscribe at the start of this frame instead of frame 0."),
            "onError": ref("actions", "Actions for an error event; the event's value is the error."),
            "onCompleted": ref("actions", "Actions for the completion; the event's value is null."),
            **action_properties,
        },
        "required": ["on"],
        "additionalProperties": False,
    }
    timeline_targets = ref("targets")
    defs["timelineAction"] = {
        "description": "Imperative steps at a virtual time; actions at the same time run in the order written.",
        "type": "object",
        "properties": {
            "at": ref("duration", "When (required): frames or a duration from frame 0."),
            **action_properties,
            "send": described(timeline_targets, "Sends literal values into subjects: a map subject → value."),
            "set": described(timeline_targets, "Sets properties to literal values: a map property → value."),
            "input": ref("value", "The literal input of 'execute'; without it the input is null."),
        },
        "required": ["at"],
        "anyOf": [{"required": [key]} for key in ["send", "set", "execute", "complete", "fail"]],
        "additionalProperties": False,
    }
    defs["subject"] = {
        "description": "An imperative subject. {} is a PublishSubject.",
        "anyOf": [
            {"type": "null"},
            {
                "type": "object",
                "properties": {
                    "rac": {"description": "A RACSubject: silent to subscribers that come after it terminated.", "type": "boolean"},
                    "replay": ref("count", "A ReplaySubject replaying this many values."),
                    "behavior": ref("value", "A BehaviorSubject with this initial value."),
                    "subscribeTo": ref("signal", "A signal the subject subscribes to at frame 0."),
                },
                "not": {"required": ["replay", "behavior"]},
                "additionalProperties": False,
            },
        ],
    }
    defs["property"] = {
        "description": "Bindable state: a signal to bind (RAC(target, key) = signal), or {from, initial}.",
        "anyOf": [
            ref("signal"),
            {
                "type": "object",
                "properties": {
                    "from": ref("signal", "The signal bound to the property."),
                    "initial": ref("value", "The value before any set; default null."),
                },
                "minProperties": 1,
                "additionalProperties": False,
            },
        ],
    }
    defs["command"] = {
        "description": "A RACCommand / Action.",
        "type": "object",
        "properties": {
            "enabled": ref("signal", "A signal of bool; default always enabled."),
            "concurrent": {"description": "allowsConcurrentExecution; default false.", "type": "boolean"},
            "work": ref("template", "The template of each execution ('input' is the execute input)."),
        },
        "required": ["work"],
        "additionalProperties": False,
    }
    defs["service"] = {
        "description": "A stubbed endpoint: a template whose 'input' is the call's input, 'cases', or 'responses'.",
        "anyOf": [
            ref("template"),
            {
                "type": "object",
                "properties": {
                    "responses": {
                        "description": "One template per call in order; the last repeats.",
                        "type": "array",
                        "minItems": 1,
                        "items": ref("template"),
                    }
                },
                "required": ["responses"],
                "additionalProperties": False,
            },
        ],
    }
    defs["expectation"] = {
        "description": "What must have happened: a marble, or a map with 'marble' and options.",
        "anyOf": [
            ref("marble"),
            {
                "type": "object",
                "properties": {
                    "marble": ref("marble", "The expected events (required)."),
                    "values": ref("legend", "A local legend, over the file's values."),
                    "error": ref("value", "The value of '#' in this marble."),
                    "subscribe": {
                        "description": "A subscription marble ('--^---!'): observe only in this window; without '^' from frame 0.",
                        "type": "string",
                    },
                },
                "required": ["marble"],
                "additionalProperties": False,
            },
        ],
    }
    defs["subscriptionExpectation"] = {
        "description": "The expected subscription log: one subscription marble ('^---!'), or a list of them.",
        "anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}, "minItems": 1}],
    }

    def section(description, item):
        return {
            "description": description,
            "type": "object",
            "propertyNames": ref("name"),
            "additionalProperties": item,
        }

    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "flowrun scenario (format 1)",
        "description": "A flowrun scenario: a reactive view model declared in YAML, replayed in virtual time and compared with marble expectations.",
        "type": "object",
        "properties": {
            "flowrun": {"description": "Format version; this flowrun reads 1.", "const": 1},
            "name": {"description": "One line naming the scenario, shown in every report.", "type": "string", "pattern": "^[^\\n\\r]*$"},
            "description": {"description": "The story the scenario teaches; shown by --trace and in diagrams.", "type": "string"},
            "tags": {"description": "Tags for --tag and --skip-tag.", "type": "array", "items": {"type": "string"}},
            "tick": {
                "description": "The real time of one frame: a time with ms, s or m (100ms); default 1ms.",
                "type": "string",
                "pattern": r"^[0-9]+(\.[0-9]+)?(ms|s|m)$",
            },
            "grammar": {"description": "The marble grammar of every marble in the file; default flowrun.", "enum": ["flowrun", "rxjs"]},
            "values": ref("legend", "The value legend shared by every marble in the file."),
            "error": ref("value", "The default value of '#' in every marble; default the string \"error\"."),
            "signals": section("The signal graph: name → signal.", ref("signal")),
            "subjects": section("Imperative subjects: name → subject ({} publish, rac, replay, behavior).", ref("subject")),
            "properties": section("Bindable state: name → signal to bind, or {from, initial}.", ref("property")),
            "commands": section("RACCommands / Actions: name → {enabled, concurrent, work}.", ref("command")),
            "services": section("Stubbed endpoints: name → template, cases or responses.", ref("service")),
            "effects": {"description": "Subscriptions with side effects.", "type": "array", "items": ref("effect")},
            "timeline": {"description": "Imperative actions at given virtual times.", "type": "array", "items": ref("timelineAction")},
            "until": ref("duration", "The end of the run (frames or a duration); actions due at 'until' still run."),
            "limit": {
                "description": "Guards of the run; reaching one is a failure naming the node that kept scheduling.",
                "type": "object",
                "properties": {
                    "time": ref("positiveDuration", "The last frame (default 1,000,000); at least one frame."),
                    "steps": {"description": "Scheduler actions (default 10,000,000).", "type": "integer", "minimum": 1},
                    "depth": {"description": "Nested deliveries (default 10,000).", "type": "integer", "minimum": 1},
                    "events": {"description": "Events one expectation may record (default 1,000,000).", "type": "integer", "minimum": 1},
                },
                "additionalProperties": False,
            },
            "expect": {
                "description": "Expectations: target (signal, subject, property, derived name or <name>.subscriptions) → expectation.",
                "type": "object",
                "propertyNames": ref("name"),
                "patternProperties": {r"\.subscriptions$": ref("subscriptionExpectation")},
                "additionalProperties": ref("expectation"),
            },
        },
        "required": ["flowrun", "name"],
        "additionalProperties": False,
        "$defs": defs,
    }
    return schema


def render():
    return json.dumps(build(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    OUTPUT.write_text(render(), encoding="utf-8")
    sys.stdout.write(f"wrote {OUTPUT}\n")
