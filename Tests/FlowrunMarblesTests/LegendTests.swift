import FlowrunCore
import OrderedCollections
import Testing

@testable import FlowrunMarbles

@Suite struct LegendTests {
  static let legend = Legend(layers: [
    [("a", .string("local")), ("5", .bool(false))],
    [("a", .string("file")), ("b", .int(2)), ("u1", .map(["k": .int(1)]))],
  ])

  @Test(arguments: [
    ("a", false, Value.string("local")),
    ("b", false, .int(2)),
    ("5", false, .bool(false)),
    ("7", false, .int(7)),
    ("x", false, .string("x")),
    ("雨", false, .string("雨")),
    ("u1", true, .map(["k": .int(1)])),
    ("u2", true, .string("u2")),
    ("7", true, .string("7")),
    ("b", true, .int(2)),
  ])
  func resolve(token: String, quoted: Bool, value: Value) {
    #expect(LegendTests.legend.resolve(token: token, quoted: quoted) == value)
  }

  @Test func visibleEntriesSkipShadowedKeys() {
    #expect(LegendTests.legend.visibleEntries.map(\.key) == ["a", "5", "b", "u1"])
    #expect(LegendTests.legend.contains(key: "u1"))
    #expect(!LegendTests.legend.contains(key: "zz"))
    #expect(LegendTests.legend.value(forKey: "a") == .string("local"))
  }

  @Test(arguments: [
    (Value.int(1), Value.double(1.0)),
    (.map(["a": .int(1), "b": .null]), .map(["b": .null, "a": .double(1)])),
    (.double(.nan), .double(.nan)),
    (.double(-0.0), .int(0)),
    (.list([.int(1), .string("x")]), .list([.double(1), .string("x")])),
    (.signal(SignalValue(events: [next(2, .int(1))])), .signal(SignalValue(events: [next(2, .double(1))]))),
  ])
  func equalValuesHashAlike(lhs: Value, rhs: Value) {
    #expect(ValueKey(value: lhs) == ValueKey(value: rhs))
    #expect(ValueKey(value: lhs).hashValue == ValueKey(value: rhs).hashValue)
  }
}
