import FlowrunCore
import FlowrunDiagnostics
import FlowrunExpressions
import Testing

@Suite struct ScopeTests {
  let properties = ["vm.account", "vm.password", "vm.isLoggingIn", "loginButton.enabled", "status", "vm.index"]

  func scope(
    _ parameters: ExpressionScope.Parameters = .value, index: Bool = false,
    templates: ExpressionScope.TemplateNames = []
  ) -> ExpressionScope {
    ExpressionScope(parameters: parameters, indexAvailable: index, templateNames: templates, properties: properties)
  }

  func context(value: Value = nil) -> EvalContext {
    EvalContext(
      value: value, accumulator: 100, index: 7, now: 42, outer: "o", input: "i", error: "e",
      properties: Properties(["123", "", true, false, ["count": 9], 5]))
  }

  func eval(_ source: String, _ scope: ExpressionScope, value: Value = nil) throws -> Value {
    try CompiledExpression(source, scope: scope).evaluate(context(value: value))
  }

  @Test func tupleParameters() throws {
    let s = scope(.tuple(arity: 2))
    #expect(try eval(#"($0 ?? "").count > 0 && ($1 ?? "").count > 0"#, s, value: ["a", nil]) == false)
    #expect(try eval(#"($0 ?? "").count > 0 && ($1 ?? "").count > 0"#, s, value: ["a", "b"]) == true)
    #expect(try eval("$0 || $1", s, value: [false, true]) == true)
    #expect(
      compileError("$2", scope: s)
        == ExpressionError(message: "'$2' is out of range: the value has 2 elements ('$0' to '$1')", offset: 0))
    #expect(
      try runtimeError("$1", value: [1], scope: s)
        == EvaluationError(message: "'$1' needs a list of 2 or more values, got List", offset: 0))
  }

  @Test func valueParameter() throws {
    #expect(try eval("$0", scope(), value: [1, 2]) == [1, 2])
    #expect(
      compileError("1 + $1", scope: scope())
        == ExpressionError(message: "'$1' is not available: the value is passed whole as '$0'", offset: 4))
    #expect(
      compileError("$0", scope: scope(.none))
        == ExpressionError(message: "'$0' is not available: no value is passed here", offset: 0))
  }

  @Test func accumulatorParameters() throws {
    let s = scope(.accumulator(valueArity: nil))
    #expect(try eval("$0 + $1", s, value: 1) == 101)
    #expect(
      compileError("$2", scope: s)?.message == "'$2' is not available: '$0' is the accumulator and '$1' the value")
    let pairs = scope(.accumulator(valueArity: 2))
    #expect(try eval("$0 + $1 * $2", pairs, value: [2, 3]) == 106)
    #expect(
      compileError("$3", scope: pairs)?.message
        == "'$3' is out of range: '$0' is the accumulator and the value has 2 elements ('$1' to '$2')")
  }

  @Test func scanOverLists() throws {
    let compiled = try CompiledExpression(
      #"$1.reset ? $1.items : $0 + $1.items"#, scope: scope(.accumulator(valueArity: nil)))
    let ctx = EvalContext(value: ["reset": false, "items": [3]], accumulator: [1, 2])
    #expect(try compiled.evaluate(ctx) == [1, 2, 3])
  }

  @Test func keyedNames() throws {
    let s = scope(.keyed(names: ["user", "pass"]))
    #expect(try eval(#"user + ":" + pass"#, s, value: ["user": "a", "pass": "b"]) == "a:b")
    #expect(try eval("$0.user", s, value: ["user": "a"]) == "a")
    #expect(
      compileError("$1", scope: s)?.message
        == "'$1' is not available: the value is a keyed map; use its keys ('user', 'pass') or '$0'")
    #expect(
      try runtimeError("pass", value: 1, scope: s)
        == EvaluationError(message: "'pass' needs a keyed map value, got Int", offset: 0))
    #expect(
      compileError("usr", scope: s) == ExpressionError(message: "unknown name 'usr'; did you mean 'user'?", offset: 0))
  }

  @Test func propertiesResolveToTheLongestPrefix() throws {
    #expect(try eval("vm.account", scope()) == "123")
    #expect(try eval("vm.account.count", scope()) == 3)
    #expect(try eval(#"vm.account == "123" && vm.password == """#, scope()) == true)
    #expect(try eval("vm.isLoggingIn && $0 + 1 < 20", scope(), value: 3) == true)
    #expect(try eval("status.count", scope()) == 1)  // built-in members win over keys
    #expect(try eval(#"status["count"]"#, scope()) == 9)
    #expect(try eval("vm.index", scope()) == 5)
    let compiled = try CompiledExpression("vm.password.isEmpty || status.count > vm.account.count", scope: scope())
    #expect(compiled.referencedProperties == [0, 1, 4])
    #expect(compiled.usesIndex == false)
  }

  @Test func missingPropertyReaderIsARuntimeError() throws {
    let compiled = try CompiledExpression("1 + status", scope: scope())
    #expect(throws: EvaluationError(message: "property 'status' is not available", offset: 4)) {
      try compiled.evaluate(EvalContext())
    }
  }

  @Test func reservedNames() throws {
    let all = scope(index: true, templates: [.outer, .input, .error])
    #expect(try eval("[outer, input, error, now, index]", all) == ["o", "i", "e", 42, 7])
    #expect(try CompiledExpression("index + 1", scope: all).usesIndex)
    #expect(try CompiledExpression("now", scope: all).usesNow)
    #expect(try eval("outer.count < 3", all) == true)
    #expect(try eval("input == \"i\"", all) == true)
  }

  static let unavailable: [(String, String)] = [
    ("outer", "'outer' is only available inside a template"),
    ("input == 1", "'input' is only available inside a command's work or a service"),
    ("error", "'error' is only available inside 'catch'"),
    (
      "index",
      "'index' is only available in 'map', 'filter', 'takeWhile', 'skipWhile', 'scan' and templates of the 'flatMap' family"
    ),
  ]

  @Test(arguments: unavailable)
  func reservedNamesNeedTheirPlace(_ source: String, _ message: String) {
    let error = compileError(source, scope: ExpressionScope(properties: ["outer", "index"]))
    #expect(error == ExpressionError(message: Diagnostic.Message(message), offset: 0))
  }

  static let unknown: [(String, String, Int)] = [
    ("vm.acount", "unknown name 'vm.acount'; did you mean 'vm.account'?", 0),
    ("1 + vm.acount.count", "unknown name 'vm.acount'; did you mean 'vm.account'?", 4),
    ("statu", "unknown name 'statu'; did you mean 'status'?", 0),
    ("vm.zzzzzz", "unknown name 'vm.zzzzzz'", 0),
    ("zebra.foo", "unknown name 'zebra'", 0),
    ("nw", "unknown name 'nw'; did you mean 'now'?", 0),
    ("x", "unknown name 'x'", 0),
  ]

  @Test(arguments: unknown)
  func unknownNamesSuggest(_ source: String, _ message: String, _ offset: Int) {
    #expect(
      compileError(source, scope: scope()) == ExpressionError(message: Diagnostic.Message(message), offset: offset))
  }

  @Test func elementScopeInsideMapAndFilter() throws {
    let s = scope(.tuple(arity: 2), index: true)
    #expect(try eval("$0.map($0 + index)", s, value: [[1, 2], 0]) == [8, 9])
    #expect(try eval("$1.filter($0 > vm.account.count)", s, value: [0, [1, 5]]) == [5])
    #expect(
      compileError("$0.map($1)", scope: s)
        == ExpressionError(message: "'$1' is not available: inside 'map' '$0' is the element", offset: 7))
    let keyed = scope(.keyed(names: ["items"]))
    #expect(compileError("items.map(items)", scope: keyed)?.message == "unknown name 'items'")
  }
}
