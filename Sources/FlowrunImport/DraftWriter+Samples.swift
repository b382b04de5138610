import Foundation

extension DraftWriter {
  /// Inputs a condition compares for equality (`password.combineLatest(repeatedPassword).map
  /// { $0 == $1 }`, an `@Observable` getter's `password == repeated`): each later input of such
  /// a pair, by name, with the earlier one. The timeline gives the later input the earlier one's
  /// last sample the second time, so that the condition is false, then true.
  var equalInputs: [String: String] {
    let order = inputs.map(\.name)
    var pairs: [String: String] = [:]
    for chain in draft.chains {
      for (first, second) in comparedSources(chain.steps)
      where first != second && order.contains(first) && order.contains(second) {
        let (earlier, later) =
          order.firstIndex(of: first)! < order.firstIndex(of: second)! ? (first, second) : (second, first)
        guard pairs[later] == nil,
          inputs.first(where: { $0.name == earlier })?.swiftType == inputs.first(where: { $0.name == later })?.swiftType
        else { continue }
        pairs[later] = earlier
      }
    }
    return pairs
  }

  /// The sources that a `map` or `filter` compares with `==` or `!=`: `$0 == $1` after a
  /// `combineLatest` of them, `$0[0] == $0[1]` of an `observed:` property's reads.
  func comparedSources(_ steps: [Draft.Step]) -> [(String, String)] {
    var sources: [String]? = []
    var found: [(String, String)] = []
    for step in steps {
      let value = step.value ?? ""
      switch step.key {
      case "from":
        if let observed = draft.observed.first(where: { $0.name == value }) {
          found += Self.comparisons(after: value, of: observed.reads, steps: steps)
          sources = nil
        } else {
          sources = [value]
        }
      case "combineLatest":
        let list =
          value.hasPrefix("[")
          ? value.dropFirst().dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
          : [value]
        sources = sources.map { $0 + list }
      case "map", "filter":
        if let current = sources, current.count >= 2 {
          for (i, j) in Self.pairs(in: value, pattern: #"\$(\d+)\s*[!=]=\s*\$(\d+)"#)
          where i < current.count && j < current.count {
            found.append((current[i], current[j]))
          }
        }
        sources = nil
      default:
        sources = nil
      }
    }
    return found
  }

  /// `$0[i] == $0[j]` in the `map` that follows `from: observed.x` (its reads by index).
  static func comparisons(after name: String, of reads: [String], steps: [Draft.Step]) -> [(String, String)] {
    guard reads.count >= 2, let from = steps.firstIndex(where: { $0.key == "from" && $0.value == name }),
      from + 1 < steps.count, ["map", "filter"].contains(steps[from + 1].key)
    else { return [] }
    let pattern = #"\$0\[(\d+)\]\s*[!=]=\s*\$0\[(\d+)\]"#
    return pairs(in: steps[from + 1].value ?? "", pattern: pattern).compactMap { i, j in
      i < reads.count && j < reads.count ? (reads[i], reads[j]) : nil
    }
  }

  /// The two numbers of each match of `pattern` in `text`.
  static func pairs(in text: String, pattern: String) -> [(Int, Int)] {
    guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
    let range = NSRange(text.startIndex..., in: text)
    return regex.matches(in: text, range: range).compactMap { match in
      guard let first = Range(match.range(at: 1), in: text), let second = Range(match.range(at: 2), in: text),
        let i = Int(text[first]), let j = Int(text[second])
      else { return nil }
      return (i, j)
    }
  }
}
