"""`flowrun lsp` under a real LSP client (pytest-lsp): diagnostics on open, change and fix,
hover, completion, definition, references and the outline."""

from __future__ import annotations

import asyncio

from lsprotocol import types
from pytest_lsp import LanguageClient

URI = "file:///tmp/flowrun-lsp-tests/login.yaml"

SCENARIO = """\
flowrun: 1
name: Login button
tick: 100ms
values: { a: "1", b: "123", t: true, f: false }
signals:
  accountText:  { hot: "-a--b-|" }
  passwordText: { hot: "---b---" }
  loginEnabled:
    - combineLatest: [vm.account, vm.password]
    - map: '($0 ?? "").count > 0 && ($1 ?? "").count > 0'
  typed:
    - from: accountText
    - debounce: 200ms
properties:
  vm.account: accountText
  vm.password: passwordText
  loginButton.enabled: loginEnabled
expect:
  loginButton.enabled: "ff-t---"
  typed: "------a|"
"""


def position_of(text: str, needle: str, offset: int = 0, last: bool = False) -> types.Position:
    """The LSP position (UTF-16 column) of the first (or last) `needle` in `text`, plus
    `offset` characters."""
    index = (text.rindex if last else text.index)(needle) + offset
    line = text.count("\n", 0, index)
    start = text.rfind("\n", 0, index) + 1
    return types.Position(line=line, character=len(text[start:index].encode("utf-16-le")) // 2)


def utf16_column(text: str, line: int, column: int) -> int:
    """LSP character of a 1-based line and 1-based column counted in Unicode scalars."""
    row = text.split("\n")[line - 1]
    return len(row[: column - 1].encode("utf-16-le")) // 2


def open_document(client: LanguageClient, text: str, version: int = 1, uri: str = URI):
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="yaml", version=version, text=text)))


def change_document(client: LanguageClient, text: str, version: int, uri: str = URI):
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


# Seconds to wait for a notification before giving up: a guard against a server that never
# publishes, not a measure (diagnostics come a fraction of a second after the debounce).
HANG_GUARD = 60


async def diagnostics_for(
    client: LanguageClient, version: int, uri: str = URI, published: list[int] | None = None
) -> list[types.Diagnostic]:
    """The diagnostics published for `version` of the document (earlier ones are skipped, their
    versions added to `published`)."""
    while True:
        params = await asyncio.wait_for(client.wait_for_notification("textDocument/publishDiagnostics"), HANG_GUARD)
        if params.uri == uri and published is not None:
            published.append(params.version)
        if params.uri == uri and params.version == version:
            return list(params.diagnostics)


def assert_same_as_check(diagnostics, expected, text):
    """Every diagnostic of `flowrun check`, with its message, at its line and column."""
    assert expected, "flowrun check found nothing to compare with"
    got = [(d.range.start.line, d.range.start.character, d.message) for d in diagnostics]
    want = [(line - 1, utf16_column(text, line, column), message) for line, column, _, message in expected]
    assert got == want


# ---------------------------------------------------------------------------------------------
# Diagnostics


async def test_diagnostics_on_open_change_and_fix(client: LanguageClient, check):
    broken = SCENARIO.replace("- debounce: 200ms", "- debunce: 200ms")
    open_document(client, broken)
    opened = await diagnostics_for(client, 1)
    assert_same_as_check(opened, check(broken), broken)
    assert opened[0].message == "unknown operator 'debunce'; did you mean 'debounce'?"
    assert opened[0].severity == types.DiagnosticSeverity.Error
    assert opened[0].source == "flowrun"
    # The range spans the key at fault.
    assert opened[0].range.end.character - opened[0].range.start.character == len("debunce")

    # A marble error after characters of two UTF-16 units: the column is counted in UTF-16.
    emoji = SCENARIO.replace('{ hot: "---b---" }', '{ hot: "😀😀-(b" }').replace('values: { a: "1",', 'values: { "😀": x, a: "1",')
    change_document(client, emoji, 2)
    changed = await diagnostics_for(client, 2)
    assert_same_as_check(changed, check(emoji), emoji)
    assert changed[0].message == "unclosed group in marble"
    assert changed[0].range.start == position_of(emoji, "(b")
    # `(` is scalar column 28 (27 scalars before it); the two emoji count two units each.
    assert check(emoji)[0][:2] == (7, 28)
    assert changed[0].range.start.character == 29

    change_document(client, SCENARIO, 3)
    assert await diagnostics_for(client, 3) == []


async def test_changes_are_debounced_to_the_last_version(patient_client: LanguageClient):
    client = patient_client
    open_document(client, SCENARIO)
    assert await diagnostics_for(client, 1) == []
    broken = SCENARIO.replace("- from: accountText", "- from: acountText")
    for version in range(2, 7):
        change_document(client, broken if version == 6 else SCENARIO + "#" * version + "\n", version)
    published: list[int] = []
    last = await diagnostics_for(client, 6, published=published)
    assert [d.message for d in last] == ["unknown signal 'acountText'; did you mean 'accountText'?"]
    # Nothing was published for the versions typed in between.
    assert published == [6]


async def test_notes_become_related_information(client: LanguageClient, check):
    twice = SCENARIO.replace("properties:\n", "properties:\n  typed: { initial: 1 }\n")
    open_document(client, twice)
    diagnostics = await diagnostics_for(client, 1)
    assert_same_as_check(diagnostics, check(twice), twice)
    related = diagnostics[0].related_information
    assert related and related[0].message == "'typed' first declared here"
    assert related[0].location.range.start == position_of(twice, "typed:")


async def test_a_yaml_file_that_is_not_a_scenario_gets_no_diagnostics(client: LanguageClient):
    open_document(client, "on: [push]\njobs: {}\n", uri="file:///tmp/flowrun-lsp-tests/ci.yaml")
    assert await diagnostics_for(client, 1, uri="file:///tmp/flowrun-lsp-tests/ci.yaml") == []


# ---------------------------------------------------------------------------------------------
# Hover


async def hover(client: LanguageClient, position: types.Position) -> types.Hover | None:
    return await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=URI), position=position))


async def test_hover_on_a_marble_character_gives_frame_time_and_value(client: LanguageClient):
    open_document(client, SCENARIO)
    answer = await hover(client, position_of(SCENARIO, '-b-|"', 1))
    assert answer is not None
    assert "frame 4" in answer.contents.value
    assert "400 ms" in answer.contents.value and "tick 100ms" in answer.contents.value
    assert '`"123"`' in answer.contents.value  # b from the file's values
    assert answer.range.start == position_of(SCENARIO, '-b-|"', 1)

    completed = await hover(client, position_of(SCENARIO, '|" }'))
    assert "completed at frame 6" in completed.contents.value

    expected = await hover(client, position_of(SCENARIO, 'a|"'))
    assert "frame 6" in expected.contents.value and '`"1"`' in expected.contents.value


async def test_hover_on_an_operator_gives_its_summary_and_reference(client: LanguageClient):
    open_document(client, SCENARIO)
    answer = await hover(client, position_of(SCENARIO, "debounce", 3))
    text = answer.contents.value
    assert "Emits a value once no newer value came for the duration." in text
    assert "docs/reference/operators.md#debounce" in text
    assert answer.range.start == position_of(SCENARIO, "debounce")


async def test_hover_on_a_name_shows_its_definition(client: LanguageClient):
    open_document(client, SCENARIO)
    answer = await hover(client, position_of(SCENARIO, "accountText\n", 2))
    assert "signal **`accountText`**" in answer.contents.value
    assert 'accountText:  { hot: "-a--b-|" }' in answer.contents.value


LIBRARY_SCENARIO = """\
flowrun: 1
name: Library words
library: {library}
signals:
  taps: {{ hot: "-a-b-" }}
  stop: {{ hot: "----x" }}
  shown:
    - from: taps
{steps}
"""


def library_scenario(library: str, *steps: str) -> str:
    return LIBRARY_SCENARIO.format(library=library, steps="\n".join(f"    - {step}" for step in steps))


async def test_hover_follows_the_documents_library(client: LanguageClient):
    cases = [
        ("rac2", ["throttle: 3"], "throttle", "RAC2 -throttle:: a trailing debounce"),
        ("rac2", ["takeUntil: stop"], "takeUntil", "RAC2 -takeUntil::"),
        ("rxswift", ["share: { replay: 1, scope: forever }"], "share", "RxSwift"),
        ("rac2", ["mapReplace: 1"], "mapReplace", "RAC2 -mapReplace::"),
        ("rac2", ["reduceEach: '$0'"], "reduceEach", "RAC2 -reduceEach::"),
        ("rxswift", ["asDriver: { onErrorJustReturn: 0 }"], "asDriver", "Driver"),
        ("rxswift", ["flatMapFirst: { cold: '-x|' }"], "flatMapFirst", "RxSwift"),
        ("combine", ["removeDuplicates"], "removeDuplicates", "Combine removeDuplicates"),
        ("combine", ["prefix: 1"], "prefix", "Combine"),
    ]
    for library, steps, key, expected in cases:
        text = library_scenario(library, *steps)
        open_document(client, text)
        answer = await hover(client, position_of(text, f"- {key}", 3))
        assert answer is not None, (library, key)
        assert expected in answer.contents.value, (library, key, answer.contents.value)
    # The same key without `library:` keeps the default meaning.
    text = library_scenario("rxjs", "throttle: 3")
    open_document(client, text)
    answer = await hover(client, position_of(text, "- throttle", 3))
    assert "ReactiveX throttle" in answer.contents.value


async def test_an_empty_step_says_it_is_empty(client: LanguageClient):
    text = library_scenario("combine", "")
    open_document(client, text)
    diagnostics = await diagnostics_for(client, 1)
    assert diagnostics, text
    assert "empty" in diagnostics[0].message and "did you mean" not in diagnostics[0].message


# ---------------------------------------------------------------------------------------------
# Completion


async def complete(client: LanguageClient, text: str, position: types.Position) -> list[str]:
    open_document(client, text)
    result = await client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=URI), position=position))
    items = result.items if isinstance(result, types.CompletionList) else result
    return [item.label for item in items]


async def test_completion_of_an_operator(client: LanguageClient):
    text = SCENARIO.replace("- debounce: 200ms", "- deb")
    labels = await complete(client, text, position_of(text, "- deb", 5))
    assert "debounce" in labels and "delaySubscription" in labels
    assert "hot" not in labels  # a source cannot follow a step


async def test_completion_follows_the_documents_library(client: LanguageClient):
    text = library_scenario("combine", "")
    labels = await complete(client, text, position_of(text, "    - \n", 6))
    for name in ["removeDuplicates", "prepend", "append", "assign", "dropFirst", "prefix", "throttle"]:
        assert name in labels, name
    rac2 = library_scenario("rac2", "")
    labels = await complete(client, rac2, position_of(rac2, "    - \n", 6))
    assert "mapReplace" in labels and "removeDuplicates" not in labels


async def test_completion_of_a_source_first_in_a_signal(client: LanguageClient):
    text = SCENARIO.replace("    - from: accountText\n", "    - \n")
    labels = await complete(client, text, position_of(text, "    - \n", 6))
    assert "from" in labels and "hot" in labels and "accountText" in labels
    assert "debounce" not in labels


async def test_completion_of_a_signal_name(client: LanguageClient):
    text = SCENARIO.replace("- from: accountText", "- from: acc")
    labels = await complete(client, text, position_of(text, "from: acc", 9))
    assert "accountText" in labels and "passwordText" in labels and "vm.account" in labels


async def test_completion_while_the_line_is_not_yaml_yet(client: LanguageClient):
    # `descr` alone at the top level is not a YAML mapping entry: the text around it decides.
    text = SCENARIO.replace("properties:\n", "descr\nproperties:\n")
    labels = await complete(client, text, position_of(text, "descr\n", 5))
    assert "description" in labels and "until" in labels
    assert "signals" not in labels  # already written above


async def test_completion_of_expectation_targets_and_legend_tokens(client: LanguageClient):
    targets = await complete(client, SCENARIO + "  ty", position_of(SCENARIO + "  ty", "  ty", 4, last=True))
    assert "typed" in targets and "accountText.subscriptions" in targets
    text = SCENARIO + '  vm.account: "-'
    tokens = await complete(client, text, position_of(text, 'vm.account: "-', 14))
    assert {"a", "b", "t", "f"} <= set(tokens)


# ---------------------------------------------------------------------------------------------
# Navigation


async def test_go_to_definition_of_a_name(client: LanguageClient):
    open_document(client, SCENARIO)
    result = await client.text_document_definition_async(
        types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=URI), position=position_of(SCENARIO, "vm.account,", 4)))
    location = result[0] if isinstance(result, list) else result
    assert location.uri == URI
    assert location.range.start == position_of(SCENARIO, "vm.account: accountText")


async def test_references_of_a_name(client: LanguageClient):
    open_document(client, SCENARIO)
    result = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(uri=URI), position=position_of(SCENARIO, "accountText:"),
            context=types.ReferenceContext(include_declaration=True)))
    starts = sorted((r.range.start.line, r.range.start.character) for r in result)
    assert starts == sorted([
        (5, 2),  # the declaration
        (11, 12),  # from: accountText
        (14, 14),  # vm.account: accountText
    ])


async def test_document_symbols_list_signals_commands_and_expectations(client: LanguageClient):
    text = SCENARIO + "commands:\n  login: { work: { cold: \"-a|\" } }\n"
    open_document(client, text)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=URI)))
    names = [s.name for s in symbols]
    assert names[:4] == ["accountText", "passwordText", "loginEnabled", "typed"]
    assert "login" in names and "vm.account" in names
    expect = next(s for s in symbols if s.name == "expect")
    assert [c.name for c in expect.children] == ["loginButton.enabled", "typed"]
