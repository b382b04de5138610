import Foundation

/// Writes a `Draft` as scenario YAML: every step with a comment naming its Swift file and line,
/// `<#placeholders#>` (which `flowrun check` lists) where the importer could not read the code,
/// a timeline that sets each input twice, and empty expectations for `--update` to record.
struct DraftWriter {
  let draft: Draft
  /// Struct fields by name, for sample values of models.
  let structs: [String: [(name: String, type: String)]]
  /// Enum cases by enum name, for sample values of an enum (its cases' names).
  var enums: [String: [String]] = [:]

  /// The tick: 100 ms, or the largest divisor of every duration below it.
  var tickMilliseconds: Int {
    draft.durations.reduce(100) { gcd($0, $1) }
  }

  /// Frames between two sets of the timeline: a pause longer than the longest duration.
  var gap: Int {
    let longest = draft.durations.max() ?? 0
    return max(2, longest / max(tickMilliseconds, 1) + 2)
  }

  var inputs: [Draft.State] { draft.states.filter(\.isInput) }

  func text() -> String {
    var out: [String] = []
    out.append("# Drafted by flowrun-import from \(draft.file) (\(draft.viewModel)): fill in each")
    out.append("# placeholder (`flowrun check` lists them), then record the expectations with")
    out.append("# `flowrun --update` on this file.")
    for line in outsideSummary() { out.append("# \(line)") }
    out.append("flowrun: 1")
    out.append("name: \(draft.viewModel) drafted from \(draft.file)")
    if let library = draft.library { out.append("library: \(library)") }
    out.append("tick: \(tickMilliseconds)ms")
    let signals = draft.chains.filter { !$0.isCommand }
    if !signals.isEmpty {
      out.append("")
      out.append("signals:")
      for chain in signals {
        out.append("  \(chain.name):  # \(summary(chain))")
        out += steps(chain.steps, indent: "    ")
      }
    }
    let subjects = draft.states.filter { if case .subject = $0.kind { true } else { false } }
    if !subjects.isEmpty {
      out.append("")
      out.append("subjects:")
      for state in subjects {
        guard case .subject(let value) = state.kind else { continue }
        out.append("  \(state.name): \(value)  # \(state.origin)")
      }
    }
    let properties = draft.states.filter { if case .property = $0.kind { true } else { false } }
    if !properties.isEmpty || !draft.observed.isEmpty {
      out.append("")
      out.append("properties:")
      for state in properties {
        guard case .property(let initial) = state.kind else { continue }
        let from = state.boundTo.map { "from: \($0), " } ?? ""
        out.append("  \(state.name): { \(from)initial: \(initial) }  # \(state.origin)")
      }
      for observed in draft.observed {
        out.append(
          "  \(observed.name): { observed: [\(observed.reads.joined(separator: ", "))] }  # \(observed.origin)")
      }
    }
    if !draft.services.isEmpty {
      out.append("")
      out.append("services:")
      for service in draft.services {
        let (value, placeholder) = answer(service.response)
        let note = placeholder ? " <#the response of \(service.name)#>" : ""
        out.append(
          "  \(service.name):  # \(service.origin): answers \(service.response.isEmpty ? "?" : service.response)\(note)"
        )
        out.append("    cold: \"-(r|)\"")
        out.append("    values: { r: \(value) }")
      }
    }
    let commands = draft.chains.filter(\.isCommand)
    if !commands.isEmpty {
      out.append("")
      out.append("commands:")
      for chain in commands {
        var comment = summary(chain)
        if let enabled = chain.enabledPlaceholder { comment += " <#\(enabled)#>" }
        out.append("  \(chain.name):  # \(comment)")
        if let enabled = chain.enabled { out.append("    enabled: \(enabled)") }
        out.append("    work:")
        out += steps(chain.steps, indent: "      ")
      }
    }
    if !draft.effects.isEmpty {
      out.append("")
      out.append("effects:")
      for effect in draft.effects {
        if let map = effect.map {
          out.append("  - on:  # \(effect.origin)")
          out.append("      - from: \(effect.on)")
          out.append("      - map: '\(map.replacingOccurrences(of: "'", with: "''"))'")
        } else {
          out.append("  - on: \(effect.on)  # \(effect.origin)")
        }
        out.append("    \(effect.action)")
      }
    }
    out.append("")
    let executed = commands.filter(isExecuted)
    let again = executed.contains(where: \.rejectsWhileExecuting)
    out.append(
      "timeline:  # each input set twice"
        + (executed.isEmpty ? "" : ", then each command executed") + ", a pause apart"
        + (again ? " (a command that rejects an execute while it runs, twice in its frame)" : "")
        + ": edit the values and frames")
    var actions: [(frame: Int, line: [String])] = []
    let equal = equalInputs
    for (index, state) in inputs.enumerated() {
      for round in 0..<2 {
        let frame = 1 + (2 * index + round) * gap
        // An input compared for equality with an earlier one: equal to its last sample, second.
        let (value, _) =
          if round == 1, let earlier = equal[state.name] {
            sample(state.swiftType, index: 2, name: shortName(earlier))
          } else {
            sample(state.swiftType, index: round + 1, name: shortName(state.name))
          }
        let verb = if case .subject = state.kind { "send" } else { "set" }
        actions.append((frame, ["  - at: \(frame)", "    \(verb): { \(state.name): \(value) }"]))
      }
    }
    for (index, chain) in executed.enumerated() {
      let frame = 1 + (2 * inputs.count + index) * gap
      var lines = ["  - at: \(frame)", "    execute: \(chain.name)"]
      if let type = chain.inputType {
        lines.append("    input: \(sample(type, index: 1, name: chain.inputName ?? chain.name).0)")
      }
      if chain.rejectsWhileExecuting {
        // Again while the first runs (its services answer a frame later): the guard rejects it.
        lines += lines.enumerated().map { $0.offset == 0 ? "  - at: \(frame)  # again while it runs" : $0.element }
      }
      actions.append((frame, lines))
    }
    if actions.isEmpty { out[out.count - 1] = "timeline: []  # the view model has no input the draft could find" }
    for action in actions.sorted(by: { $0.frame < $1.frame }) { out += action.line }
    out.append("")
    out.append("expect:  # recorded by `flowrun --update`")
    let outputs = draft.states.filter(\.isOutput).map(outputName) + signals.filter(\.isOutput).map(\.name)
    for name in outputs { out.append("  \(name): \"-\"") }
    for service in draft.services { out.append("  \(service.name).calls: \"-\"") }
    if outputs.isEmpty && draft.services.isEmpty { out.removeLast() }
    // Each element is one line: source text quoted in a comment or a placeholder (a closure,
    // a call spread over lines) stays on it, so that no line of Swift falls outside its comment.
    return out.map(Self.oneLine).joined(separator: "\n") + "\n"
  }

  /// `text` with each line break and the indentation after it made one space.
  static func oneLine(_ text: String) -> String {
    guard text.contains(where: \.isNewline) else { return text }
    var result = ""
    var skipping = false
    for character in text {
      if character.isNewline {
        if !skipping { result.append(" ") }
        skipping = true
      } else if skipping, character == " " || character == "\t" {
        continue
      } else {
        skipping = false
        result.append(character)
      }
    }
    return result
  }

  /// The expectation of a property output: the property, or (of an `@Observable` view model)
  /// its `observed:` property, which is what Observation delivers.
  func outputName(_ state: Draft.State) -> String {
    guard draft.observable, let observed = draft.observed.first(where: { $0.reads == [state.name] }) else {
      return state.name
    }
    return observed.name
  }

  /// The methods read or not read outside the chains, one line each (none when there are none).
  func outsideSummary() -> [String] {
    var lines: [String] = []
    if !draft.readOutside.isEmpty {
      lines.append("methods that drive an input: " + draft.readOutside.joined(separator: ", "))
    }
    if !draft.unread.isEmpty {
      lines.append(
        "methods: 0 of \(draft.unread.count) calls read <#not read: " + draft.unread.joined(separator: ", ") + "#>")
    }
    return lines.map(Self.oneLine)
  }

  /// `LoginViewModel.swift:38: 4 of 4 calls read` (+ the unread ones).
  func summary(_ chain: Draft.Chain) -> String {
    let total = chain.recognised.count + chain.unrecognised.count
    var text = "\(chain.origin): \(chain.recognised.count) of \(total) calls read"
    if !chain.unrecognised.isEmpty { text += " <#not read: " + chain.unrecognised.joined(separator: ", ") + "#>" }
    return Self.oneLine(text)
  }

  func steps(_ steps: [Draft.Step], indent: String) -> [String] {
    var out: [String] = []
    for step in steps {
      var comment = "# \(step.origin)"
      if let placeholder = step.placeholder { comment += " <#\(placeholder)#>" }
      if !step.template.isEmpty {
        out.append("\(indent)- \(step.key):  \(comment)")
        out += self.steps(step.template, indent: indent + "    ")
        continue
      }
      let head = step.value.map { "\(step.key): \($0)" } ?? step.key
      if step.extras.isEmpty {
        out.append("\(indent)- \(head)  \(comment)")
      } else {
        out.append("\(indent)- \(step.value == nil ? head + ": true" : head)  \(comment)")
        for extra in step.extras { out.append("\(indent)  \(extra.key): \(extra.value)") }
      }
    }
    return out
  }

  /// A command the timeline executes: its work calls only services whose sample answer is
  /// known (a placeholder answer would not decode in the binding test) and its input, if any,
  /// has a sample.
  func isExecuted(_ chain: Draft.Chain) -> Bool {
    let called = Set(calls(chain.steps))
    let known = draft.services.filter { called.contains($0.name) }.allSatisfy { !answer($0.response).1 }
    let input = chain.inputType.map { !sample($0, index: 1, name: chain.name).1 } ?? true
    return known && input && !called.isEmpty
  }

  /// The services that steps call, templates included.
  func calls(_ steps: [Draft.Step]) -> [String] {
    steps.flatMap { step in (step.key == "call" ? [step.value ?? ""] : []) + calls(step.template) }
  }

  /// A service's sample answer: a list answers three items (a full page, for code that pages
  /// while a page is full), anything else one sample value.
  func answer(_ type: String) -> (String, Bool) {
    let written = type.replacingOccurrences(of: " ", with: "")
    guard written.hasPrefix("["), written.hasSuffix("]"), !written.contains(":") else {
      return sample(type, index: 1, name: "r")
    }
    let items = (1...3).map { sample(String(written.dropFirst().dropLast()), index: $0, name: "r") }
    return ("[\(items.map(\.0).joined(separator: ", "))]", items.contains { $0.1 })
  }

  /// `vm.account` → `account`.
  func shortName(_ name: String) -> String { name.split(separator: ".").last.map(String.init) ?? name }

  /// A sample value of a Swift type, as YAML, and whether it is a placeholder.
  func sample(_ type: String?, index: Int, name: String) -> (String, Bool) {
    guard var type, !type.isEmpty else { return ("~", true) }
    type = type.replacingOccurrences(of: " ", with: "")
    if type.hasSuffix("?") { return sample(String(type.dropLast()), index: index, name: name) }
    if type.hasPrefix("Optional<") { return sample(String(type.dropFirst(9).dropLast()), index: index, name: name) }
    switch type {
    case "String", "Substring": return ("\"\(name)\(index)\"", false)
    case "Int", "Int64", "Int32", "UInt": return ("\(index)", false)
    case "Double", "Float", "CGFloat": return ("\(index).5", false)
    case "Bool": return (index % 2 == 1 ? "true" : "false", false)
    case "Void", "()": return ("~", false)
    default: break
    }
    if type.hasPrefix("["), type.hasSuffix("]"), !type.contains(":") {
      let (item, placeholder) = sample(String(type.dropFirst().dropLast()), index: index, name: name)
      return ("[\(item)]", placeholder)
    }
    if let cases = enums[type.split(separator: ".").last.map(String.init) ?? type], !cases.isEmpty {
      return ("\"\(cases[(index - 1) % cases.count])\"", false)
    }
    if let fields = structs[type], !fields.isEmpty {
      var placeholder = false
      let items = fields.map { field -> String in
        let (value, unknown) = sample(field.type, index: index, name: field.name)
        placeholder = placeholder || unknown
        return "\(field.name): \(value)"
      }
      return ("{ \(items.joined(separator: ", ")) }", placeholder)
    }
    return ("~", true)
  }
}

private func gcd(_ a: Int, _ b: Int) -> Int {
  b == 0 ? a : gcd(b, a % b)
}
