import FlowrunCore
import FlowrunDiagnostics
import FlowrunYAML

/// Chooses the same-frame orders of one run from a script, and records the choices it met, so
/// that the orders of a run can be explored depth first without keeping any state between
/// runs (a stateless model checker over the scheduler's tie-breaks between inputs).
///
/// At each frame where two or more inputs are due at its start (choice point `i`), the run
/// takes order `script[i]` of `orders(count:)` (0, the scheduling order, past the script).
final class OrderScript: TieBreaker {
  private let script: [Int]
  /// How many orders each choice point met had.
  private(set) var arities: [Int] = []
  /// The choice points where an order other than the scheduling order was taken.
  private(set) var choices: [OrderChoice] = []

  init(script: [Int]) {
    self.script = script
  }

  func order(frame: Int, owners: [NodeLabel]) -> [Int]? {
    let orders = Self.orders(count: owners.count)
    let point = arities.count
    arities.append(orders.count)
    let pick = point < script.count ? script[point] : 0
    guard pick > 0, pick < orders.count else { return nil }
    let names = owners.map(Self.describe)
    choices.append(OrderChoice(frame: frame, written: names, failing: orders[pick].map { names[$0] }))
    return orders[pick]
  }

  /// The script of the next run in depth-first order: the last choice point with an order
  /// not yet taken takes its next one; nil when every order was tried.
  func nextScript() -> [Int]? {
    for point in arities.indices.reversed() {
      let taken = point < script.count ? script[point] : 0
      guard taken + 1 < arities[point] else { continue }
      return (0..<point).map { $0 < script.count ? script[$0] : 0 } + [taken + 1]
    }
    return nil
  }

  /// The orders tried for `count` inputs, the scheduling order first: every permutation of up
  /// to four; for more, each input moved to the front.
  static func orders(count: Int) -> [[Int]] {
    guard count > 4 else { return permutations(Array(0..<count)) }
    return (0..<count).map { first in [first] + (0..<count).filter { $0 != first } }
  }

  private static func permutations(_ items: [Int]) -> [[Int]] {
    guard items.count > 1 else { return [items] }
    var result: [[Int]] = []
    for (index, first) in items.enumerated() {
      var rest = items
      rest.remove(at: index)
      for tail in permutations(rest) { result.append([first] + tail) }
    }
    return result
  }

  /// An input as a report names it: its node, and the line it is written on.
  static func describe(_ owner: NodeLabel) -> String {
    guard let location = owner.location else { return owner.name }
    return "\(owner.name) (line \(location.line))"
  }
}
