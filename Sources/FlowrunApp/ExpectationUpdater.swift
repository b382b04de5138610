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
enum ExpectationUpdater {
  /// Rewrites the files of `report`'s failing expectations; returns one line per rewrite.
  static func update(_ report: RunReport) -> [String] {
    var lines: [String] = []
    for entry in report.files {
      guard let data = FileManager.default.contents(atPath: entry.file.path) else { continue }
      let bytes = [UInt8](data)
      var edits: [Edit] = []
      var targets: [String] = []
      for result in entry.results {
        for expectation in result.expectations where !expectation.passed {
          let location = expectation.spec.location
          guard !expectation.spec.delaysPulls else {
            // The marble's `,` are the consumer's pulls, an input of the run: a printed marble
            // would drop them and change what it checks.
            lines.append(
              "not updated \(entry.file.path):\(location.line):\(location.column) '\(expectation.spec.target)': "
                + "its marble's ',' set when the consumer pulls; edit it by hand")
            continue
          }
          guard let edit = edit(for: expectation, grammar: result.scenario.grammar, bytes: bytes) else { continue }
          edits += edit
          targets.append("updated \(entry.file.path):\(location.line):\(location.column) '\(expectation.spec.target)'")
        }
      }
      guard !edits.isEmpty else { continue }
      do {
        try apply(edits, to: bytes, path: entry.file.path)
        lines += targets
      } catch {
        lines.append("error: could not update \(entry.file.path): \(error.localizedDescription)")
      }
    }
    return lines
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
