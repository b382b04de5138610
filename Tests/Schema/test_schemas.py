"""Checks the JSON Schemas under schemas/ and the machine-readable outputs of flowrun.

- The scenario schema accepts every scenario of the project (scenarios/, docs/operators/examples/,
  and the spec's examples in ../shared/spec/examples when present) and rejects each file under
  Tests/Schema/invalid/ at the place it is wrong; flowrun itself rejects those files too.
- The JSON report of passing, failing and broken runs validates against the report schema.
- The JUnit XML of those runs is read by junitparser with the right counts, and validates against
  Tests/Schema/junit.xsd (the common Jenkins/Ant JUnit layout).

Needs: pip install pytest jsonschema pyyaml junitparser xmlschema
The flowrun executable is $FLOWRUN, else <package>/.build/debug/flowrun (run `swift build` first).
"""

import json
import math
import os
import pathlib
import subprocess
import sys

import jsonschema
import pytest
import xmlschema
from junitparser import Error, Failure, JUnitXml
from referencing import Registry, Resource

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from yaml12 import load_documents  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
HERE = ROOT / "Tests" / "Schema"
SCHEMAS = ROOT / "schemas"
GOLDEN = ROOT / "Tests" / "FlowrunReportTests" / "ReporterGolden"
SPEC_EXAMPLES = ROOT.parent / "shared" / "spec" / "examples"

sys.path.insert(0, str(SCHEMAS))
import scenario_schema  # noqa: E402


def load_json(path):
    return json.loads(path.read_text(encoding="utf-8"))


SCENARIO_SCHEMA = load_json(SCHEMAS / "flowrun-scenario.schema.json")
REPORT_SCHEMA = load_json(SCHEMAS / "flowrun-report.schema.json")
EXPLORE_SCHEMA = load_json(SCHEMAS / "flowrun-explore.schema.json")
SCENARIO_VALIDATOR = jsonschema.Draft202012Validator(SCENARIO_SCHEMA)
REPORT_VALIDATOR = jsonschema.Draft202012Validator(REPORT_SCHEMA)
# The explore report refers to the run report's definitions (diagnostics, invariant failures).
EXPLORE_VALIDATOR = jsonschema.Draft202012Validator(
    EXPLORE_SCHEMA,
    registry=Registry().with_resources(
        [(schema["$id"], Resource.from_contents(schema)) for schema in (REPORT_SCHEMA, EXPLORE_SCHEMA)]
    ),
)


def scenario_files():
    files = sorted((ROOT / "scenarios").rglob("*.yaml"))
    files += sorted((ROOT / "docs" / "operators" / "examples").glob("*.yaml"))
    files += sorted((ROOT / "docs" / "explore").glob("*.yaml"))
    if SPEC_EXAMPLES.is_dir():
        files += sorted(SPEC_EXAMPLES.glob("*.yaml"))
    return files


def ident(path):
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path.relative_to(ROOT.parent))


def flowrun_executable():
    path = os.path.abspath(os.environ.get("FLOWRUN") or str(ROOT / ".build" / "debug" / "flowrun"))
    if not os.access(path, os.X_OK):
        pytest.fail(f"the flowrun executable is missing at {path}: run `swift build` first or set FLOWRUN")
    return path


def flowrun(*arguments, cwd=ROOT):
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "GITHUB_ACTIONS", "NO_COLOR")}
    return subprocess.run(
        [flowrun_executable(), *arguments], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def error_messages(validator, instance):
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(instance)]


# ---------------------------------------------------------------------------------------------
# The scenario schema


def test_schemas_are_valid_json_schema_2020_12():
    jsonschema.Draft202012Validator.check_schema(SCENARIO_SCHEMA)
    jsonschema.Draft202012Validator.check_schema(REPORT_SCHEMA)
    jsonschema.Draft202012Validator.check_schema(EXPLORE_SCHEMA)


def test_scenario_schema_is_what_the_generator_builds():
    assert (SCHEMAS / "flowrun-scenario.schema.json").read_text(encoding="utf-8") == scenario_schema.render(), (
        "schemas/flowrun-scenario.schema.json is out of date: run python3 schemas/scenario_schema.py"
    )


def walk_properties(schema, path="#"):
    """Every (path, key, schema) of a `properties` map in `schema`, skipping the constraint-only
    subschemas of `if`/`then`/`else`/`not` (they restate keys described elsewhere)."""
    if not isinstance(schema, dict):
        return
    for keyword, value in schema.items():
        here = f"{path}/{keyword}"
        if keyword == "properties":
            for key, subschema in value.items():
                yield f"{here}/{key}", key, subschema
                yield from walk_properties(subschema, f"{here}/{key}")
        elif keyword in ("$defs", "patternProperties", "dependentSchemas"):
            for key, subschema in value.items():
                yield from walk_properties(subschema, f"{here}/{key}")
        elif keyword in ("allOf", "anyOf", "oneOf", "prefixItems"):
            for index, subschema in enumerate(value):
                yield from walk_properties(subschema, f"{here}/{index}")
        elif keyword in ("items", "additionalProperties", "propertyNames", "contains"):
            yield from walk_properties(value, here)


@pytest.mark.parametrize(
    "schema", [SCENARIO_SCHEMA, REPORT_SCHEMA, EXPLORE_SCHEMA], ids=["scenario", "report", "explore"]
)
def test_every_key_has_a_description(schema):
    missing = [path for path, _, value in walk_properties(schema) if "description" not in value]
    assert not missing, f"keys without a description: {missing}"


def test_scenario_schema_knows_every_step_of_the_engine():
    """The step names of the schema are those of the spec's tables (sources and operators)."""
    steps = set(SCENARIO_SCHEMA["$defs"]["sourceStep"]["properties"]) | set(
        SCENARIO_SCHEMA["$defs"]["operatorStep"]["anyOf"][1]["properties"]
    )
    for name in ["hot", "cold", "from", "call", "flatMapLatest", "catch", "retry", "bufferTime", "shareReplay",
                 "observeOn", "withLatestFrom", "takeUntilRAC", "sampleRAC", "timeoutRAC", "replayLazily"]:
        assert name in steps


def test_there_are_scenarios_to_validate():
    files = scenario_files()
    assert len(files) >= 40, [ident(f) for f in files]


@pytest.mark.parametrize("path", scenario_files(), ids=ident)
def test_scenario_schema_accepts(path):
    documents = load_documents(path.read_text(encoding="utf-8"))
    assert documents
    for index, document in enumerate(documents):
        errors = error_messages(SCENARIO_VALIDATOR, document)
        assert not errors, f"document {index + 1} of {ident(path)}: {errors}"


def test_yaml_loader_reads_yaml_1_2_core_scalars():
    [document] = load_documents(
        "a: on\nb: yes\nc: n\nd: TRUE\ne: ~\nf: 0x1F\ng: 0o17\nh: .inf\ni: 1:30\nj: 2024-01-01\n"
        "k: !cold \"--a|\"\nl: !hot '-x'\nm: 1.5\nn: -7\no: '12'\n"
    )
    assert document == {
        "a": "on", "b": "yes", "c": "n", "d": True, "e": None, "f": 31, "g": 15, "h": math.inf,
        "i": "1:30", "j": "2024-01-01", "k": "--a|", "l": "-x", "m": 1.5, "n": -7, "o": "12",
    }


# Each invalid file and the place (JSON path) where the schema finds the problem.
INVALID = {
    "bad-duration.yaml": ["signals", "debounced", 1, "debounce"],
    "case-unknown-key.yaml": ["commands", "login", "work", "cases", 0],
    "command-without-work.yaml": ["commands", "login"],
    "effect-without-on.yaml": ["effects", 0],
    "empty-false.yaml": ["signals", "nothing", "empty"],
    "expectation-number.yaml": ["expect", "clicks"],
    "expectation-without-marble.yaml": ["expect", "clicks"],
    "extra-key-on-wrong-step.yaml": ["signals", "doubled", 1],
    "fractional-frames.yaml": ["signals", "ticks", "interval"],
    "interval-zero.yaml": ["signals", "ticks", "interval"],
    "invalid-signal-name.yaml": ["signals"],
    "legend-key-with-quote.yaml": ["values"],
    "limit-unknown-key.yaml": ["limit"],
    "missing-name.yaml": [],
    "missing-version.yaml": [],
    "negative-take.yaml": ["signals", "none", 1, "take"],
    "operator-as-first-step.yaml": ["signals", "doubled", 0],
    "subject-replay-and-behavior.yaml": ["subjects", "mode"],
    "subject-unknown-key.yaml": ["subjects", "mode"],
    "tags-not-a-list.yaml": ["tags"],
    "tick-in-frames.yaml": ["tick"],
    "timeline-bare-send.yaml": ["timeline", 0, "send"],
    "timeline-without-at.yaml": ["timeline", 0],
    "timer-without-every.yaml": ["signals", "ticks", "timer"],
    "two-steps-in-one.yaml": ["signals", "clicks"],
    "unknown-grammar.yaml": ["grammar"],
    "unknown-step.yaml": ["signals", "upper", 1],
    "unknown-top-level-key.yaml": [],
    "wrong-version.yaml": ["flowrun"],
    "yes-is-not-a-bool.yaml": ["commands", "save", "concurrent"],
}


def test_every_invalid_file_is_listed():
    assert sorted(p.name for p in (HERE / "invalid").glob("*.yaml")) == sorted(INVALID)
    assert len(INVALID) >= 15


@pytest.mark.parametrize("name", sorted(INVALID))
def test_scenario_schema_rejects(name):
    [document] = load_documents((HERE / "invalid" / name).read_text(encoding="utf-8"))
    errors = list(SCENARIO_VALIDATOR.iter_errors(document))
    assert errors, f"the schema accepts {name}"
    best = jsonschema.exceptions.best_match(errors)
    assert list(best.absolute_path) == INVALID[name], best.message


@pytest.mark.parametrize("name", sorted(INVALID))
def test_flowrun_check_rejects_the_invalid_files_too(name):
    result = flowrun("check", str(HERE / "invalid" / name))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "error:" in result.stdout


def test_starter_scenario_of_flowrun_init_validates(tmp_path):
    result = flowrun("init", "starter", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    text = (tmp_path / "starter.yaml").read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=")
    [document] = load_documents(text)
    assert not error_messages(SCENARIO_VALIDATOR, document)


# ---------------------------------------------------------------------------------------------
# The JSON report

GOLDEN_INPUTS = ["passing.yaml", "failing.yaml", "broken.yaml"]


def json_report(tmp_path, *paths, cwd=ROOT):
    out = tmp_path / "report.json"
    result = flowrun(*paths, "--reporter", f"json:{out}", "--reporter", "human", cwd=cwd)
    assert result.returncode in (0, 1), result.stderr
    return result, load_json(out)


def check_report(report):
    errors = error_messages(REPORT_VALIDATOR, report)
    assert not errors, errors
    scenarios = report["scenarios"]
    summary = report["summary"]
    assert summary["passed"] == sum(1 for s in scenarios if s["status"] == "passed")
    assert summary["expectations"] == sum(len(s["expectations"]) for s in scenarios)
    assert summary["failedExpectations"] == sum(
        1 for s in scenarios for e in s["expectations"] if e["status"] == "failed"
    )


def test_json_report_of_the_project_scenarios_validates(tmp_path):
    result, report = json_report(tmp_path, "scenarios")
    assert result.returncode == 0, result.stdout
    check_report(report)
    assert report["summary"]["failed"] == 0
    assert len(report["scenarios"]) == report["summary"]["scenarios"] >= 20


def test_json_report_of_failing_and_broken_runs_validates(tmp_path):
    result, report = json_report(tmp_path, *GOLDEN_INPUTS, cwd=GOLDEN)
    assert result.returncode == 1
    check_report(report)
    statuses = [s["status"] for s in report["scenarios"]]
    assert statuses == ["passed", "failed", "passed", "error", "error"]
    assert report["scenarios"][3]["diagnostics"][0]["line"] == 4


def test_json_report_of_an_unreadable_place_validates(tmp_path):
    broken = tmp_path / "not-yaml.yaml"
    broken.write_text("flowrun: 1\nname: [unclosed\n", encoding="utf-8")
    result, report = json_report(tmp_path, str(broken))
    assert result.returncode == 1
    check_report(report)
    assert report["scenarios"][0]["status"] == "error"


def test_report_schema_rejects_a_report_with_an_unknown_status():
    report = {"flowrun": 1, "scenarios": [], "summary": {
        "scenarios": 0, "passed": 0, "failed": 0, "expectations": 0, "failedExpectations": 0, "durationSeconds": 0}}
    assert not error_messages(REPORT_VALIDATOR, report)
    report["scenarios"].append({"path": "a.yaml", "name": "a", "tags": [], "status": "ignored", "durationSeconds": 0,
                                "diagnostics": [], "expectations": [],
                                "stats": {"frames": 0, "events": 0, "subscriptions": 0, "rejectedExecutions": 0}})
    assert error_messages(REPORT_VALIDATOR, report)


def test_json_report_of_failing_invariants_validates(tmp_path):
    """The committed counterexamples of docs/explore fail on their invariant, located."""
    result, report = json_report(tmp_path, "docs/explore")
    assert result.returncode == 1, result.stdout
    check_report(report)
    assert report["scenarios"] and all(s["status"] == "failed" for s in report["scenarios"])
    for scenario in report["scenarios"]:
        [invariant] = scenario["invariants"]
        assert invariant["status"] == "failed"
        assert invariant["failure"]["lanes"].keys() == invariant["failure"]["values"].keys()
        assert all(e["status"] == "passed" for e in scenario["expectations"])


def test_json_report_has_invariants_only_where_declared(tmp_path):
    _, report = json_report(tmp_path, "scenarios/explore", "scenarios/login")
    check_report(report)
    declared = {s["path"]: "invariants" in s for s in report["scenarios"]}
    assert declared and all(has == path.startswith("scenarios/explore") for path, has in declared.items())


# ---------------------------------------------------------------------------------------------
# The JSON report of flowrun explore

RACE = """flowrun: 1
name: Profile screen shows once the profile and the settings have loaded
signals:
  profile:  { hot: "--p" }
  settings: { hot: "--s" }
  screen: [{ from: settings }, { withLatestFrom: profile }]
properties:
  vm.screen: screen
invariants:
  - 'profile == nil || settings == nil || vm.screen != nil'
"""


def explore_report(*arguments, cwd=ROOT):
    result = flowrun("explore", *arguments, "--reporter", "json", cwd=cwd)
    assert result.returncode in (0, 1), result.stderr
    report = json.loads(result.stdout)
    errors = error_messages(EXPLORE_VALIDATOR, report)
    assert not errors, errors
    return result, report


def test_explore_report_of_the_planted_bugs_validates():
    result, report = explore_report("scenarios/explore", "--runs", "300", "--seed", "1")
    assert result.returncode == 1
    statuses = {s["path"]: s["status"] for s in report["scenarios"]}
    assert statuses == {
        "scenarios/explore/hud-two-requests.yaml": "failed",
        "scenarios/explore/login-button.yaml": "failed",
        "scenarios/explore/login-command.yaml": "passed",
        "scenarios/explore/profile-race.yaml": "skipped",
    }
    for scenario in report["scenarios"]:
        if scenario["status"] == "failed":
            counterexample = scenario["counterexample"]
            assert counterexample["origin"] == "generated" and counterexample["violation"]["frame"] == counterexample["frame"]
    assert report["summary"]["counterexamples"] == 2


def test_explore_report_of_a_same_frame_race_and_a_broken_file_validates(tmp_path):
    (tmp_path / "race.yaml").write_text(RACE, encoding="utf-8")
    (tmp_path / "broken.yaml").write_text("flowrun: 1\nname: broken\nexplore: {}\n", encoding="utf-8")
    result, report = explore_report("race.yaml", "broken.yaml", "--orders", cwd=tmp_path)
    assert result.returncode == 1
    [broken, race] = report["scenarios"]
    assert broken["status"] == "error" and broken["diagnostics"]
    assert race["counterexample"]["origin"] == "order"
    assert race["counterexample"]["orders"][0]["failing"] == ["settings (line 5)", "profile (line 4)"]


def test_explore_report_schema_rejects_a_counterexample_of_a_passed_scenario():
    _, report = explore_report("scenarios/explore/login-button.yaml", "--runs", "50")
    report["scenarios"][0]["status"] = "passed"
    assert error_messages(EXPLORE_VALIDATOR, report)


# ---------------------------------------------------------------------------------------------
# JUnit XML

JUNIT_XSD = xmlschema.XMLSchema(str(HERE / "junit.xsd"))


def junit_report(tmp_path, *paths, cwd=GOLDEN):
    out = tmp_path / "flowrun.xml"
    result = flowrun(*paths, "--reporter", f"junit:{out}", cwd=cwd)
    assert result.returncode in (0, 1), result.stderr
    return out


def counts(xml):
    tests = failures = errors = 0
    for suite in xml:
        for case in suite:
            tests += 1
            failures += sum(1 for r in case.result if isinstance(r, Failure))
            errors += sum(1 for r in case.result if isinstance(r, Error))
    return tests, failures, errors


@pytest.mark.parametrize(
    "inputs, expected",
    [
        (["passing.yaml"], (1, 0, 0)),
        (["failing.yaml"], (2, 1, 0)),
        (["broken.yaml"], (2, 0, 2)),
        (GOLDEN_INPUTS, (5, 1, 2)),
    ],
    ids=["passing", "failing", "broken", "all"],
)
def test_junit_is_read_by_junitparser_with_the_right_counts(tmp_path, inputs, expected):
    path = junit_report(tmp_path, *inputs)
    JUNIT_XSD.validate(str(path))
    xml = JUnitXml.fromfile(str(path))
    assert counts(xml) == expected
    # The counts the file declares agree with its test cases.
    assert (xml.tests, xml.failures, xml.errors) == expected
    for suite in xml:
        assert (suite.tests, suite.failures, suite.errors) == counts([suite])


def test_junit_failure_holds_the_aligned_diff(tmp_path):
    xml = JUnitXml.fromfile(str(junit_report(tmp_path, "failing.yaml")))
    [suite] = list(xml)
    cases = {case.name: case for case in suite}
    case = cases['Status label shows "success" <late> & wrong']
    assert case.classname == "failing.yaml"
    [failure] = case.result
    assert failure.message == "expectation 'status', 'status.subscriptions' failed"
    assert "expected a----b----c\n" in failure.text
    assert "actual   a----b-------c\n" in failure.text
    assert "\x1b" not in failure.text


def test_junit_of_the_project_scenarios_validates(tmp_path):
    path = junit_report(tmp_path, "scenarios", cwd=ROOT)
    JUNIT_XSD.validate(str(path))
    tests, failures, errors = counts(JUnitXml.fromfile(str(path)))
    assert tests >= 20 and failures == 0 and errors == 0


def test_junit_xsd_rejects_a_test_case_without_a_name(tmp_path):
    bad = tmp_path / "bad.xml"
    bad.write_text('<testsuites><testsuite name="a" tests="1" failures="0" errors="0"><testcase/></testsuite></testsuites>')
    assert not JUNIT_XSD.is_valid(str(bad))


def test_junit_counts_a_file_whose_documents_did_not_load_as_one_test(tmp_path):
    (tmp_path / "two-bad.yaml").write_text(
        "flowrun: 1\nname: a\nfoo: 1\n---\nflowrun: 1\nname: b\nbar: 2\n", encoding="utf-8")
    path = junit_report(tmp_path, "two-bad.yaml", cwd=tmp_path)
    JUNIT_XSD.validate(str(path))
    xml = JUnitXml.fromfile(str(path))
    assert counts(xml) == (1, 0, 1)
    assert (xml.tests, xml.failures, xml.errors) == (1, 0, 1)


@pytest.mark.parametrize("name", ["passing", "failing", "broken"])
def test_reporter_golden_files_validate(name):
    check_report(load_json(GOLDEN / f"{name}.json"))
    JUNIT_XSD.validate(str(GOLDEN / f"{name}.junit"))
