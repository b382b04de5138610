import FlowrunCore
import Foundation

/// The Swift test of a counterexample: `ScenarioCheck.run` on its file, with the binding
/// closure of the exploring call copied from the test's source (the file at `#filePath`).
enum SwiftTestText {
  static func test(place: ScenarioCheck.Place, yamlPath: String) -> String {
    let stem = yamlPath.split(separator: "/").last.map(String.init) ?? "scenario"
    var lines = ["@Test func \(functionName(stem))() throws {"]
    let call = "  try ScenarioCheck.run(\(Value.quoted(yamlPath)), root: #filePath) "
    if let closure = closure(inFileAt: place.filePath, line: place.line) {
      lines.append(call + closure[0])
      lines += closure.dropFirst().map { "  " + $0 }
    } else {
      lines.append(call + "{ flow in")
      lines.append("    <#bind the code as at \(place.filePath):\(place.line)#>")
      lines.append("  }")
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// `login-button.counterexample.yaml` → `loginButtonCounterexample`.
  static func functionName(_ stem: String) -> String {
    let base = stem.hasSuffix(".yaml") ? String(stem.dropLast(5)) : stem
    let words = base.split { !$0.isLetter && !$0.isNumber }.map(String.init)
    guard let first = words.first else { return "counterexample" }
    var name = first.prefix(1).lowercased() + first.dropFirst()
    for word in words.dropFirst() { name += word.prefix(1).uppercased() + word.dropFirst() }
    if name.first?.isNumber == true { name = "test" + name }
    return name
  }

  /// The trailing closure of the call that starts on `line` of the file at `path`, as lines
  /// (the first from its `{`, the others without their common indentation); nil when it cannot
  /// be read or found.
  static func closure(inFileAt path: String, line: Int) -> [String]? {
    guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
    else { return nil }
    let source = Array(text.unicodeScalars)
    var index = 0
    var current = 1
    while index < source.count, current < line {
      if source[index] == "\n" { current += 1 }
      index += 1
    }
    // The call's arguments, then its trailing closure, skipping strings and comments.
    guard let open = firstUnquoted("(", in: source, from: index),
      let close = matching(from: open, in: source, open: "(", close: ")")
    else { return nil }
    var start = close + 1
    while start < source.count, source[start] == " " || source[start] == "\n" { start += 1 }
    guard start < source.count, source[start] == "{",
      let end = matching(from: start, in: source, open: "{", close: "}")
    else { return nil }
    let body = String(String.UnicodeScalarView(source[start...end]))
    let lines = body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let rest = lines.dropFirst()
    let indent =
      rest.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
    let last = lines.count > 1 ? lines.last!.prefix { $0 == " " }.count : 0
    let shift = max(min(indent, last), 0)
    return [lines[0]] + rest.map { String($0.dropFirst(min(shift, $0.prefix { $0 == " " }.count))) }
  }

  private static func firstUnquoted(_ scalar: Unicode.Scalar, in source: [Unicode.Scalar], from start: Int) -> Int? {
    var index = start
    while index < source.count {
      if source[index] == scalar { return index }
      if source[index] == "\"" || (source[index] == "/" && index + 1 < source.count && source[index + 1] == "/") {
        index = skip(from: index, in: source)
      } else {
        index += 1
      }
    }
    return nil
  }

  /// The index of the bracket closing the one at `start`, skipping strings and comments.
  private static func matching(
    from start: Int, in source: [Unicode.Scalar], open: Unicode.Scalar, close: Unicode.Scalar
  ) -> Int? {
    var depth = 0
    var index = start
    while index < source.count {
      let scalar = source[index]
      if scalar == "\"" || (scalar == "/" && index + 1 < source.count && source[index + 1] == "/") {
        index = skip(from: index, in: source)
        continue
      }
      if scalar == open { depth += 1 }
      if scalar == close {
        depth -= 1
        if depth == 0 { return index }
      }
      index += 1
    }
    return nil
  }

  /// The index after the string literal or line comment at `start`.
  private static func skip(from start: Int, in source: [Unicode.Scalar]) -> Int {
    var index = start
    if source[index] == "/" {
      while index < source.count, source[index] != "\n" { index += 1 }
      return index
    }
    index += 1
    while index < source.count, source[index] != "\"", source[index] != "\n" {
      index += source[index] == "\\" ? 2 : 1
    }
    return index + 1
  }
}
