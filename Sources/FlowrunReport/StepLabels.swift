import FlowrunCore
import FlowrunDiagnostics
import FlowrunScenario
import FlowrunYAML

/// The words a step lane or a step's trace line is named by: the step as written in the
/// scenario, with a short form of its argument (`debounce 300ms`, `filter $0.count >= 2`,
/// `flatMapLatest call searchAPI`), read from the signal's chain in the YAML file.
///
/// The trace knows a step by its owner, its name and its position in the chain; the file gives
/// the argument. Where the step at that position is not the one traced (an operand's own chain),
/// the step's name alone is used.
struct StepLabels {
  /// The steps of each named signal as written: the key of each item and its argument.
  private var chains: [String: [(key: String, argument: String?)]] = [:]

  /// The longest argument shown; longer ones end with `…`.
  static let argumentWidth = 24

  /// Reads the chains of `scenario`'s named signals from its file (parsed again: a loaded
  /// scenario keeps the file's text, not its trees).
  init(_ scenario: Scenario) {
    let (file, _) = YAMLFile.parse(path: scenario.path, bytes: Array(scenario.file.text.utf8))
    let document = file.documents.first { $0.root?.start.line == scenario.location.line }
    guard let signals = document?.root?["signals"]?.mappingPairs else { return }
    for pair in signals {
      guard let name = pair.key.scalarValue, let items = pair.value.sequenceItems else { continue }
      chains[name] = items.map(StepLabels.written)
    }
  }

  /// The step's key and argument, for a chain item `{ key: argument, extra: … }` or a bare `key`.
  private static func written(_ item: YAMLNode) -> (key: String, argument: String?) {
    if let key = item.scalarValue { return (key, nil) }
    guard let first = item.mappingPairs?.first, let key = first.key.scalarValue else { return ("", nil) }
    return (key, argument(first.value))
  }

  /// A one-line form of a step's argument: a scalar as written, else the first key and its
  /// scalar (`{ call: searchAPI, with: outer }` → `call searchAPI`); nil for none or `true`.
  private static func argument(_ node: YAMLNode) -> String? {
    if let text = node.scalarValue {
      guard !text.isEmpty, !node.isNull, node.resolvedScalar != .bool(true) else { return nil }
      return shortened(text)
    }
    if let pair = node.mappingPairs?.first, let key = pair.key.scalarValue {
      if let value = pair.value.scalarValue { return shortened(key + " " + value) }
      return key
    }
    if let items = node.sequenceItems {
      let scalars = items.compactMap(\.scalarValue)
      if scalars.count == items.count { return shortened("[" + scalars.joined(separator: ", ") + "]") }
    }
    return nil
  }

  private static func shortened(_ text: String) -> String {
    let line = text.split(separator: "\n").first.map(String.init) ?? text
    let trimmed = line.trimmingCharacters(in: " ")
    guard trimmed.count > argumentWidth || line != text else { return trimmed }
    return String(trimmed.prefix(argumentWidth - 1)) + "…"
  }

  /// `debounce 300ms` for a step of a named signal's chain, else the step's traced name.
  func label(_ step: TraceStep) -> String {
    guard !step.isTemplate, let owner = step.owner, let chain = chains[owner], step.index < chain.count else {
      return step.name
    }
    let written = chain[step.index]
    guard StepLabels.sameStep(written.key, step.name) else { return step.name }
    return written.argument.map { written.key + " " + $0 } ?? written.key
  }

  /// Whether the key written in the file is the traced step (`shareReplay` is traced as
  /// `share`, a `name:` or `tap` step by its label).
  private static func sameStep(_ key: String, _ traced: String) -> Bool {
    key == traced || key.hasPrefix(traced) || traced.hasPrefix(key) || key == "name" || key == "tap"
      || key == "doNext"
  }
}
