import FlowrunCore
import FlowrunDiagnostics
import FlowrunMarbles
import FlowrunReport
import FlowrunScenario
import FlowrunYAML
import Foundation

/// `--update`: rewrites the marble of each failing expectation in place with what happened.
///
/// Only the bytes of that YAML scalar change, plus the legend entries and `error:` value the new
/// marble needs (added to the expectation's `values`/`error`, turning a bare marble string into
/// `{ marble: …, values: … }` when it needs them). Comments, order, quoting and every other byte
/// stay. Each file is replaced atomically: written to a temporary file in the same directory,
/// then renamed over the original.
///
/// A run-time error of the graph itself (a step given a value of the wrong kind, an expression
/// that cannot be evaluated) is never written as the expectation: it is reported, and the
/// marble stays as it was (Jest's `-u` likewise records only what the code did, not a crash).
enum ExpectationUpdater {
  /// What an update did: one line per expectation, and the counts.
  struct Outcome {
    var lines: [String] = []
    /// Expectations rewritten.
    var written = 0
    /// Failing expectations left as they were (a graph error, pulls, a file that cannot be
    /// written).
    var notWritten = 0
    /// Every failing expectation of the run was rewritten, and nothing else failed (no
    /// invariant, no run error, no file that did not load): the run is a success.
    var rewroteEveryFailure = false
  }

  /// Rewrites the files of `report`'s failing expectations.
  static func update(_ report: RunReport) -> Outcome {
    var outcome = Outcome()
    var otherFailures = 0
    for entry in report.files {
      otherFailures += entry.file.failedDocuments
      for result in entry.results {
        switch result.status {
        case .passed, .skipped: break
        case .error: otherFailures += 1
        case .failed: otherFailures += result.invariants.contains { !$0.passed } ? 1 : 0
        }
      }
      let written = updateFile(entry)
      outcome.lines += written.lines
      outcome.written += written.written
      outcome.notWritten += written.notWritten
    }
    outcome.rewroteEveryFailure = outcome.notWritten == 0 && otherFailures == 0
    return outcome
  }

  /// The rewrites of one file.
  private static func updateFile(_ entry: RunReport.FileReport) -> Outcome {
    var lines: [String] = []
    var notWritten = 0
    guard let data = FileManager.default.contents(atPath: entry.file.path) else {
      return Outcome(lines: lines, written: 0, notWritten: notWritten)
    }
    let bytes = [UInt8](data)
    var edits: [Edit] = []
    var targets: [String] = []
    for result in entry.results {
      for expectation in result.expectations where !expectation.passed {
        let location = expectation.spec.location
        let place = "\(entry.file.path):\(location.line):\(location.column) '\(expectation.spec.target)'"
        guard !expectation.spec.delaysPulls else {
          // The marble's `,` are the consumer's pulls, an input of the run: a printed marble
          // would drop them and change what it checks.
          lines.append("not updated \(place): its marble's ',' set when the consumer pulls; edit it by hand")
          notWritten += 1
          continue
        }
        if let failure = graphError(expectation) {
          lines.append(
            "not updated \(place): the scenario's own graph failed at run time (\(failure)); "
              + "fix the scenario, then update")
          notWritten += 1
          continue
        }
        guard let edit = edit(for: expectation, grammar: result.scenario.grammar, bytes: bytes) else {
          notWritten += 1
          continue
        }
        edits += edit
        targets.append("updated \(place)")
      }
    }
    guard !edits.isEmpty else { return Outcome(lines: lines, written: 0, notWritten: notWritten) }
    do {
      try apply(edits, to: bytes, path: entry.file.path)
      return Outcome(lines: lines + targets, written: targets.count, notWritten: notWritten)
    } catch {
      lines.append("error: could not update \(entry.file.path): \(error.localizedDescription)")
      return Outcome(lines: lines, written: 0, notWritten: notWritten + targets.count)
    }
  }

  /// The run-time error of the graph that an expectation's signal ended with, if any: a step
  /// given a value of the wrong kind (`'switchToLatest' needs signal values, got nil`), an
  /// expression that failed (`{ expressionError: …, at: … }`). An error the scenario sends
  /// (`#` in a marble, a service's `error:`, a `throw`) is a value of its own, never one of these.
  static func graphError(_ result: ExpectationResult) -> String? {
    guard case .events(let tape) = result.actual else { return nil }
    for recorded in tape.events {
      guard case .error(let value) = recorded.event else { continue }
      switch value {
      case .map(let fields):
        let entries = Dictionary(fields.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        if case .string(let message)? = entries["expressionError"] {
          let at = entries["at"].flatMap { if case .string(let at) = $0 { " at \(at)" } else { nil } } ?? ""
          return message + at
        }
      case .string(let message) where isStepFailure(message):
        return message
      default: break
      }
    }
    return nil
  }

  /// The messages the library steps fail with when given a value of the wrong kind:
  /// `'<step>' needs <kind>, got <kind>` and `'<step>' compares numbers or strings; …`.
  static func isStepFailure(_ message: String) -> Bool {
    guard message.hasPrefix("'"), let close = message.dropFirst().firstIndex(of: "'") else { return false }
    let rest = message[message.index(after: close)...]
    return (rest.hasPrefix(" needs ") && rest.contains(", got ")) || rest.hasPrefix(" compares numbers or strings")
  }

  /// A replacement of the bytes `start..<end` of a file.
  struct Edit {
    var start: Int
    var end: Int
    var text: String
  }

  // MARK: - Edits

  static func edit(for result: ExpectationResult, grammar: MarbleGrammar, bytes: [UInt8]) -> [Edit]? {
    let spec = result.spec
    switch result.actual {
    case .subscriptions(let entries):
      let marbles = entries.map { MarblePrinter.subscription(subscribe: $0.subscribed, unsubscribe: $0.unsubscribed) }
      let node = spec.marbleNode
      let text: String
      if marbles.count == 1, node.isScalar {
        text = scalar(marbles[0], like: node)
      } else {
        text = "[" + marbles.map(Value.quoted).joined(separator: ", ") + "]"
      }
      return [Edit(start: node.start.offset, end: node.end.offset, text: text)]
    case .events(let events):
      var printer = MarblePrinter(grammar: grammar, legend: Legend(layers: [spec.legend]), errorValue: spec.errorValue)
      let printed = printer.print(events.events).cancelling(at: result.cancelled)
      let entries = printed.newEntries.map { entry -> (String, String) in
        switch entry.kind {
        case .value: (entry.key, entry.value.description)
        case .signal(let marble, _): (entry.key, "!cold " + Value.quoted(marble))
        }
      }
      return eventEdits(spec, marble: printed.text, entries: entries, error: printed.errorValue, bytes: bytes)
    }
  }

  private static func eventEdits(
    _ spec: ExpectationSpec, marble: String, entries: [(String, String)], error: Value?, bytes: [UInt8]
  ) -> [Edit] {
    let node = spec.node
    let marbleNode = spec.marbleNode
    guard let pairs = node.mappingPairs else {
      // A bare marble string: stays a string unless it needs a legend or an error value.
      guard !entries.isEmpty || error != nil else {
        return [Edit(start: node.start.offset, end: node.end.offset, text: scalar(marble, like: node))]
      }
      var parts = ["marble: \(Value.quoted(marble))"]
      if !entries.isEmpty { parts.append("values: " + flowMap(entries)) }
      if let error { parts.append("error: \(error.description)") }
      return [Edit(start: node.start.offset, end: node.end.offset, text: "{ " + parts.joined(separator: ", ") + " }")]
    }
    var edits = [
      Edit(start: marbleNode.start.offset, end: marbleNode.end.offset, text: scalar(marble, like: marbleNode))
    ]
    var additions: [(String, String)] = []
    if !entries.isEmpty {
      if let values = pairs.first(where: { $0.key.isScalar("values") })?.value, let existing = values.mappingPairs {
        edits.append(contentsOf: insert(entries, into: values, existing: existing, bytes: bytes))
      } else {
        additions.append(("values", flowMap(entries)))
      }
    }
    if let error {
      if let errorNode = pairs.first(where: { $0.key.isScalar("error") })?.value {
        edits.append(Edit(start: errorNode.start.offset, end: errorNode.end.offset, text: error.description))
      } else {
        additions.append(("error", error.description))
      }
    }
    if !additions.isEmpty { edits.append(contentsOf: insert(additions, into: node, existing: pairs, bytes: bytes)) }
    return edits
  }

  /// Adds `key: value` entries to a mapping, in its own style.
  private static func insert(
    _ entries: [(String, String)], into mapping: YAMLNode, existing: YAMLNode.Pairs, bytes: [UInt8]
  ) -> [Edit] {
    let start = mapping.start.offset
    if start < bytes.count, bytes[start] == UInt8(ascii: "{") {
      let text = entries.map { "\($0.0): \($0.1)" }.joined(separator: ", ")
      guard let last = existing.last else {
        return [Edit(start: start + 1, end: start + 1, text: " " + text + " ")]
      }
      return [Edit(start: last.value.end.offset, end: last.value.end.offset, text: ", " + text)]
    }
    guard let last = existing.last else { return [] }
    let indent = String(repeating: " ", count: max(last.key.start.column - 1, 0))
    let text = entries.map { "\n" + indent + "\($0.0): \($0.1)" }.joined()
    return [Edit(start: last.value.end.offset, end: last.value.end.offset, text: text)]
  }

  private static func flowMap(_ entries: [(String, String)]) -> String {
    "{ " + entries.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + " }"
  }

  /// `text` as a YAML scalar in the style of `node` (plain when safe, else double-quoted).
  static func scalar(_ text: String, like node: YAMLNode) -> String {
    switch node.scalarStyle {
    case .singleQuoted?:
      return "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
    case .plain? where isPlainSafe(text):
      return text
    default:
      return Value.quoted(text)
    }
  }

  private static func isPlainSafe(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first else { return false }
    if "-?:,[]{}#&*!|>'\"%@`^( ".unicodeScalars.contains(first) { return false }
    if text.contains(": ") || text.contains(" #") || text.hasSuffix(" ") || text.hasSuffix(":") { return false }
    return ScalarValue.resolve(text, style: .plain, tag: nil) == .string(text)
  }

  // MARK: - Writing

  /// Applies `edits` to the file's bytes and replaces the file atomically.
  private static func apply(_ edits: [Edit], to original: [UInt8], path: String) throws {
    let url = URL(fileURLWithPath: path)
    if (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil {
      throw UpdateError.symbolicLink
    }
    let permissions = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int
    guard FileManager.default.isWritableFile(atPath: path), (permissions ?? 0o200) & 0o222 != 0 else {
      throw UpdateError.readOnly
    }
    var bytes = original
    for edit in edits.sorted(by: { $0.start > $1.start }) {
      guard edit.start >= 0, edit.end <= bytes.count, edit.start <= edit.end else { continue }
      bytes.replaceSubrange(edit.start..<edit.end, with: Array(edit.text.utf8))
    }
    let directory = url.deletingLastPathComponent()
    let temporary = directory.appendingPathComponent(
      ".\(url.lastPathComponent).flowrun-\(ProcessInfo.processInfo.processIdentifier)")
    try Data(bytes).write(to: temporary)
    if ProcessInfo.processInfo.environment["FLOWRUN_FAULT_BEFORE_RENAME"] != nil {
      // Fault injection for tests: die between writing the new text and replacing the file.
      exit(99)
    }
    if let attributes = try? FileManager.default.attributesOfItem(atPath: path),
      let permissions = attributes[.posixPermissions]
    {
      try? FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: temporary.path)
    }
    guard rename(temporary.path, url.path) == 0 else {
      try? FileManager.default.removeItem(at: temporary)
      throw UpdateError.renameFailed
    }
  }
}

/// Why a file could not be updated.
struct UpdateError: Error, LocalizedError {
  var reason: String

  init(_ reason: String) {
    self.reason = reason
  }

  var errorDescription: String? { reason }

  static let symbolicLink = UpdateError("it is a symbolic link; update the file it points to instead")
  static let readOnly = UpdateError("the file is read-only")
  static let renameFailed = UpdateError("renaming the new file over it failed")
}
