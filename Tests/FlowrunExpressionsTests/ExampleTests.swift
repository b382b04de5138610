import FlowrunCore
import FlowrunExpressions
import Testing

/// The expressions of the spec's example scenarios, in the scopes their steps give them.
@Suite struct ExampleTests {
  static let properties = ["vm.account", "vm.password", "vm.isLoggingIn", "vm.currentPage"]

  static let examples: [(String, ExpressionScope.Parameters, Value, Value)] = [
    (#"($0 ?? "").count > 0 && ($1 ?? "").count > 0"#, .tuple(arity: 2), ["1", nil], false),
    (#""www:\($0)""#, .value, 3, "www:3"),
    (#""登录中,请稍后" + [".", "..", "..."][($0 + 1) % 3]"#, .value, 0, "登录中,请稍后.."),
    (#"$0 ? "available" : "taken""#, .value, false, "taken"),
    ("$0 || $1", .tuple(arity: 2), [false, false], false),
    ("$0.items.count >= 3", .value, ["items": [1, 2, 3]], true),
    ("$1.reset ? 1 : $0 + 1", .accumulator(valueArity: nil), ["reset": false], 101),
    (#"["reset": true, "items": $0]"#, .value, [1], ["items": [1], "reset": true]),
    ("vm.isLoggingIn && $0 + 1 < 20", .value, 18, true),
    (#"vm.account == "123" && vm.password == "123""#, .none, nil, true),
    ("vm.currentPage + 1", .none, nil, 3),
    ("outer.count < 3", .none, nil, true),
    ("outer.isEmpty", .none, nil, false),
    (#"input == "taken""#, .none, nil, false),
  ]

  @Test(arguments: examples)
  func example(_ source: String, _ parameters: ExpressionScope.Parameters, _ value: Value, _ expected: Value) throws {
    let scope = ExpressionScope(
      parameters: parameters, templateNames: [.outer, .input], properties: ExampleTests.properties)
    let compiled = try CompiledExpression(source, scope: scope)
    let context = EvalContext(
      value: value, accumulator: 100, outer: "ab", input: "free", properties: Properties(["123", "123", true, 2]))
    #expect(try compiled.evaluate(context) == expected)
  }
}
