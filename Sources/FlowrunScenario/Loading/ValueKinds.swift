import FlowrunCore
import FlowrunYAML

/// The values a step's input may hold, where the load knows them all: a hot marble's legend
/// values, `just` and `of`, a property bound to such a signal (with its `initial`), and the
/// steps that only drop values of such an input (`filter`, `distinctUntilChanged` …). An
/// expression that reads a member none of them has (`$0.length` on strings) is a load error
/// (`ExpressionScope.knownValues`).
///
/// One value of each kind stands for all of its kind: the members an expression may read depend
/// only on the kind (a map has every key).
struct KnownKinds {
  /// Known values, or where to find them: a reference is looked up only when an expression
  /// needs it, so a long chain of names costs nothing.
  enum Known {
    case values([Value])
    case reference(String)
  }

  /// The values of the source step compiled last (nil: not known).
  var source: Known?
  /// The values of the input of the operator being compiled.
  var stepInput: Known?
  /// The values of each named signal, where known.
  var signals: [String: Known] = [:]
  /// How deep `values(of:)` is in properties right now (a property bound to a signal that reads
  /// it is a cycle: left unknown).
  var resolving = 0

  /// One value of each kind among `values`.
  static func representatives(_ values: some Sequence<Value>) -> [Value] {
    var result: [Value] = []
    // The kinds seen so far, a bit each (a hot marble of a million values is scanned whole
    // when it has fewer kinds than there are).
    var seen: UInt8 = 0
    for value in values {
      let bit: UInt8 = 1 << kindIndex(value)
      guard seen & bit == 0 else { continue }
      seen |= bit
      result.append(value)
      if result.count >= 8 { break }
    }
    return result
  }

  /// The kind of `value`, 0…7 (as `Value.kindName` names it).
  private static func kindIndex(_ value: Value) -> UInt8 {
    switch value {
    case .null: 0
    case .bool: 1
    case .int: 2
    case .double: 3
    case .string: 4
    case .list: 5
    case .map: 6
    case .signal: 7
    }
  }

  static func representatives(of tape: EventTape) -> [Value] {
    // Only the first value of each inline kind is decoded (a hot marble of a million short
    // values is scanned by its header bytes).
    var result: [Value] = []
    var seen: UInt8 = 0
    tape.forEachValueOfNewKind { value in
      let bit: UInt8 = 1 << kindIndex(value)
      guard seen & bit == 0 else { return true }
      seen |= bit
      result.append(value)
      return result.count < 8
    }
    return result
  }
}

extension ScenarioCompiler {
  /// The values `known` stands for, following references (a few: a longer chain of names is
  /// left unknown).
  func values(of known: KnownKinds.Known?) -> [Value]? {
    guard knownKinds.resolving < 4 else { return nil }
    knownKinds.resolving += 1
    defer { knownKinds.resolving -= 1 }
    var current = known
    for _ in 0..<16 {
      switch current {
      case .values(let values)?: return values
      case .reference(let name)?:
        guard let declaration = declarations[name] else { return nil }
        switch declaration.kind {
        case .signal: current = knownKinds.signals[name]
        case .property: return knownPropertyValues(name, declaration.node)
        default: return nil
        }
      case nil: return nil
      }
    }
    return nil
  }

  /// A property's values: its `initial` (nil by default) and the values of the named signal it
  /// is bound to; unknown when an action sets it or its binding is not a named signal.
  private func knownPropertyValues(_ name: String, _ node: YAMLNode) -> [Value]? {
    guard !isSetByAnAction(name) else { return nil }
    var initial: Value = .null
    let binding: YAMLNode?
    if let pairs = node.mappingPairs, pairs.allSatisfy({ $0.key.isScalar("from") || $0.key.isScalar("initial") }) {
      if let value = node["initial"] {
        guard value.isScalar else { return nil }
        initial = context.value(value)
      }
      binding = node["from"]
    } else {
      binding = node
    }
    var result = [initial]
    if let binding {
      // Only a signal compiled already: compiling it here could enter a cycle through the
      // property, which the loader reports where the property is bound.
      guard let signal = binding.scalarValue, binding.isScalar, declarations[signal]?.kind == .signal,
        let bound = values(of: knownKinds.signals[signal])
      else { return nil }
      result += bound
    }
    return KnownKinds.representatives(result)
  }

  /// Whether a timeline or effect action `set`s the property (its values are then not known).
  private func isSetByAnAction(_ name: String) -> Bool {
    func sets(_ action: YAMLNode) -> Bool {
      guard let pairs = action.mappingPairs else { return false }
      for pair in pairs {
        if pair.key.isScalar("set") {
          let target = pair.value
          if target.isScalar(name) || target.mappingPairs?.contains(where: { $0.key.isScalar(name) }) == true {
            return true
          }
        }
        if pair.key.isScalar("onError") || pair.key.isScalar("onCompleted"), sets(pair.value) { return true }
      }
      return false
    }
    return [root?["timeline"], root?["effects"]].contains { section in
      section?.sequenceItems?.contains(where: sets) ?? false
    }
  }
}
