#!/usr/bin/env python3
"""Builds schemas/flowrun-scenario.schema.json, the JSON Schema of scenario format 1.

The schema is generated because every step of a signal is described three times (as a source,
as a source inside a template case with `when`, and as an operator) and the extra keys of each
step need a rule each. The steps themselves — names, aliases, arguments, extra keys and their
descriptions — come from the step table (`schemas/steps.json`, written by the Swift test
`StepTableTests` from Sources/FlowrunScenario/Steps/). Run `python3 schemas/scenario_schema.py`
after changing either; `Tests/Schema/test_schemas.py` fails while the checked-in schema differs
from what this builds.

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
# Steps: read from the step table (schemas/steps.json, written from the Swift table by
# StepTableTests). Each step's argument and extra keys are named by shape; ARGUMENTS gives the
# schema of each shape.

STEPS_FILE = pathlib.Path(__file__).with_name("steps.json")

SIGNAL = ref("signal")
TEMPLATE = ref("template")

# The keyed form of combineLatest/zip as sources: keys that are not step names (filled in by
# build()).
KEYED_SIGNALS = {
    "description": "Keyed form: each key is bound by name in the next step's expressions; values are maps.",
    "type": "object",
    "minProperties": 1,
    "propertyNames": {},
    "additionalProperties": SIGNAL,
}

ARGUMENTS = {
    "bare": TRUE_OR_NULL,
    "marble": ref("marble"),
    "name": ref("name"),
    "value": ref("value"),
    "list": {"type": "array"},
    "legend": ref("legend"),
    "string": {"type": "string"},
    "boolean": {"type": "boolean"},
    "expression": ref("expression"),
    "true": {"const": True},
    "duration": ref("duration"),
    "positiveDuration": ref("positiveDuration"),
    "count": ref("count"),
    "positiveCount": {"type": "integer", "minimum": 1},
    "optionalExpression": {"anyOf": [TRUE_OR_NULL, ref("expression")]},
    "signal": SIGNAL,
    "signals": ref("signalList"),
    "template": TEMPLATE,
    "timer": {
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
    "combination": {
        "anyOf": [
            {"type": "array", "items": SIGNAL, "minItems": 1},
            KEYED_SIGNALS,
            ref("name"),
            ref("sourceStep"),
        ]
    },
    "labels": {
        "description": "As the library's call writes it: a mapping of the call's labels (or the key's default form).",
        "type": "object",
    },
    "retry": {
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
}


def load_steps():
    table = json.loads(STEPS_FILE.read_text(encoding="utf-8"))
    steps = table["steps"]
    sources = [(s["name"], ARGUMENTS[s["argument"]], s["summary"]) for s in steps if s["role"] == "source"]
    operators = [(s["name"], ARGUMENTS[s["argument"]], s["summary"]) for s in steps if s["role"] == "operator"]
    # Extra keys: key → (schema, description, the steps it may stand beside); and the steps
    # beside which a key takes another argument than its own.
    extras = {}
    for key in table["extraKeys"]:
        owners = [s["name"] for s in steps if any(e["name"] == key["name"] for e in s["extras"])]
        owners = list(dict.fromkeys(owners))  # a source and an operator may share a name
        extras[key["name"]] = (ARGUMENTS[key["argument"]], key["summary"], owners)
    overrides = [
        (s["name"], e["name"], ARGUMENTS[e["argument"]]) for s in steps for e in s["extras"] if e.get("argument")
    ]
    # The libraries' own operators (libraries.md): a name the default has takes either form; a new
    # name is added. Which names a file may use depends on its `library:`, which the loader checks.
    for library, rows in sorted(table.get("libraries", {}).items()):
        for row in rows:
            # A library's sources (Combine's `Just`, `Future` …) are added like its operators,
            # except a name that is also an extra key (RxSwift's `error:` source, beside the
            # `error:` of a marble): the loader tells them apart by the step's other keys, which
            # a `oneOf` of step keys cannot.
            if row["role"] == "source" and row["name"] in extras:
                steps.append(row)
                continue
            listed = operators if row["role"] == "operator" else sources
            schema = ARGUMENTS[row["argument"]]
            for index, (name, existing, text) in enumerate(listed):
                if name == row["name"]:
                    if existing is not schema:
                        listed[index] = (name, {"anyOf": [existing, schema]}, text)
                    break
            else:
                listed.append((row["name"], schema, "%s (library: %s)" % (row["summary"], library)))
            steps.append(row)
    bare = sorted({s["name"] for s in steps if s["role"] == "operator" and s["mayBeBare"]})
    return sources, operators, extras, overrides, bare


SOURCES, OPERATORS, EXTRAS, EXTRA_OVERRIDES, BARE_OPERATORS = load_steps()
STEP_NAMES = sorted({name for name, _, _ in SOURCES} | {name for name, _, _ in OPERATORS})


def step_object(steps, with_when=False, description=""):
    """One object schema for a step of `steps`: exactly one step key, plus its extra keys."""
    names = [name for name, _, _ in steps]
    properties = {}
    for name, schema, text in steps:
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
    for step, key, schema in EXTRA_OVERRIDES:
        if step in names:
            rules.append({"if": {"required": [step, key]}, "then": {"properties": {key: schema}}})
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
    KEYED_SIGNALS["propertyNames"] = {"type": "string", "not": {"enum": STEP_NAMES}}

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
        "finish": ref("name", "library: async — finishes this channel or stream (AsyncChannel.finish()): the same as 'complete'."),
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
        "anyOf": [{"required": [key]} for key in ["send", "set", "execute", "complete", "finish", "fail"]],
        "additionalProperties": False,
    }
    defs["subject"] = {
        "description": "An imperative subject. {} is a PublishSubject.",
        "anyOf": [
            {"type": "null"},
            {
                "type": "object",
                "properties": {
                    "rac": {
                        "description": "A RACSubject: keeps no terminated state; a later subscriber gets only what is sent after it subscribed.",
                        "type": "boolean",
                    },
                    "relay": {"description": "library: rxswift — a PublishRelay (publish) or BehaviorRelay (behavior, with value); it never terminates.", "enum": ["publish", "behavior"]},
                    "value": ref("value", "library: rxswift — a BehaviorRelay's initial value."),
                    "channel": {"description": "library: async — an AsyncChannel: each value goes to one consumer; a value sent while none waits waits.", "type": "boolean"},
                    "stream": {
                        "description": "library: async — an AsyncStream with this buffering policy for values sent while no consumer waits.",
                        "oneOf": [
                            {"const": "unbounded"},
                            {"type": "object", "additionalProperties": False, "minProperties": 1, "maxProperties": 1,
                             "properties": {"bufferingOldest": {"description": "Keep the oldest n values (later ones are dropped).", "type": "integer", "minimum": 0},
                                            "bufferingNewest": {"description": "Keep the newest n values (older ones are dropped).", "type": "integer", "minimum": 0}}},
                        ],
                    },
                    "replay": {
                        "description": "A ReplaySubject replaying this many values; all (or ~) replays every value.",
                        "anyOf": [ref("count"), {"enum": ["all", None]}],
                    },
                    "behavior": ref("value", "A BehaviorSubject with this initial value."),
                    "subscribeTo": ref("signal", "A signal the subject subscribes to at frame 0."),
                },
                "not": {"required": ["replay", "behavior"]},
                "additionalProperties": False,
            },
        ],
    }
    defs["property"] = {
        "description": "Bindable state: a signal to bind (RAC(target, key) = signal), {from, initial}, or"
        " {observed} (an @Observable computed property).",
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
            {
                "type": "object",
                "properties": {
                    "observed": {
                        "description": "Observation's Observations { … } over these names: their values (one"
                        " name: its value; several: a list) once per transaction, emitted at the end of the"
                        " frame's same-instant work; a set to an equal value opens none.",
                        "anyOf": [
                            {"type": "string"},
                            {"type": "array", "items": {"type": "string"}, "minItems": 1},
                        ],
                    },
                },
                "required": ["observed"],
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
        "description": "What must have happened: a marble, or a map with 'marble' and options. Under library: async the marble may also hold its consumer's marks: ',' (the next pull waits a frame) and ';' (the iterating task is cancelled).",
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
                    "consumer": {
                        "description": "library: async — a slow consumer: it pulls again only 'busy' frames after each value (not with ',' in the marble).",
                        "type": "object",
                        "properties": {
                            "busy": ref("duration", "Frames the consumer is busy after each value."),
                        },
                        "required": ["busy"],
                        "additionalProperties": False,
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

    defs["invariant"] = {
        "description": "An expression over the current values of signals, subjects, properties and derived names that must be true after every frame in which anything happened: the expression, or {name, that}.",
        "anyOf": [
            {"type": "string"},
            {
                "type": "object",
                "properties": {
                    "name": {"description": "The invariant's name in reports; default the expression.", "type": "string"},
                    "that": {"description": "The expression (a string).", "type": "string"},
                },
                "required": ["that"],
                "additionalProperties": False,
            },
        ],
    }
    count_or_range = {
        "description": "A count (3) or a range of counts ('0..4').",
        "anyOf": [{"type": "integer", "minimum": 0}, {"type": "string", "pattern": r"^[0-9]+\.\.[0-9]+$"}],
    }
    defs["exploreInput"] = {
        "description": "An input flowrun explore varies: a hot signal or subject (values, events, end, error), a property (values, events), a command (values as execute inputs, events) or a service (values, errors, delay).",
        "type": "object",
        "properties": {
            "values": {"description": "The values its events carry (a command's inputs, default [null]; a service's answers).", "type": "array", "items": ref("value")},
            "errors": {"description": "A service's failures: answers that are errors with these values.", "type": "array", "items": ref("value")},
            "events": {**count_or_range, "description": "How many events or actions a run has; default 0..3."},
            "delay": {**count_or_range, "description": "A service's frames between a call and its answer; default 1..3."},
            "end": {
                "description": "How a hot signal or subject may end: none, or one of these after its events.",
                "type": "array",
                "items": {"enum": ["completed", "error"]},
            },
            "error": ref("value", "The value of an error end; default the file's error."),
        },
        "additionalProperties": False,
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
            "library": {"description": "Read the operator keys with this library's names and meanings (libraries.md); default rxjs.", "enum": ["rac2", "rxswift", "combine", "async", "rxjs"]},
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
            "properties": section(
                "Bindable state: name → signal to bind, {from, initial}, or {observed}.", ref("property")
            ),
            "commands": section("RACCommands / Actions: name → {enabled, concurrent, work}.", ref("command")),
            "services": section("Stubbed endpoints: name → template, cases or responses.", ref("service")),
            "effects": {"description": "Subscriptions with side effects.", "type": "array", "items": ref("effect")},
            "timeline": {"description": "Imperative actions at given virtual times.", "type": "array", "items": ref("timelineAction")},
            "until": ref("duration", "The end of the run (frames or a duration); actions due at 'until' still run."),
            "exhaustive": {
                "description": "Fail the run when work is still pending at its end: an armed timer, a command still executing, a service call in flight (default false).",
                "type": "boolean",
            },
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
            "invariants": {
                "description": "Expressions that must hold after every frame in which anything happened (flowrun run checks them too).",
                "type": "array",
                "items": ref("invariant"),
            },
            "explore": {
                "description": "What flowrun explore varies: the length of each generated run and the inputs it generates (docs/explore.md).",
                "type": "object",
                "properties": {
                    "frames": ref("positiveDuration", "Inputs happen in frames 0 to frames - 1 and each run ends at frame 'frames'; default 30."),
                    "inputs": section("Input name (a hot signal, subject, property, command or service) → what to generate.", ref("exploreInput")),
                },
                "required": ["inputs"],
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
