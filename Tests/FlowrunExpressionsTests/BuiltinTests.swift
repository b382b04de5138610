import FlowrunCore
import FlowrunDiagnostics
import FlowrunExpressions
import Testing

@Suite struct BuiltinTests {
  static let values: [(String, Value)] = [
    // literals, strings, escapes, interpolation
    ("nil", nil),
    ("null", nil),
    ("[:]", [:]),
    ("[]", []),
    ("[1, \"a\", [true]]", [1, "a", [true]]),
    ("[1, 2,]", [1, 2]),
    ("[\"reset\": true, \"items\": [1]]", ["reset": true, "items": [1]]),
    (#""a\nb\t\"c\"\\""#, "a\nb\t\"c\"\\"),
    (#""\u{1F600}!""#, "😀!"),
    (#""www:\(1 + 2)""#, "www:3"),
    (#""\(1.5) \(true) \(nil) \([1, "a"]) \("s")""#, #"1.5 true null [1, "a"] s"#),
    (#""a\("b\("c")d")e""#, "abcde"),
    (#""\(["k": 1])""#, "{ k: 1 }"),
    (#""登录中,请稍后" + [".", "..", "..."][(1 + 1) % 3]"#, "登录中,请稍后..."),
    // members
    (#""héllo".count"#, 5),
    (#""👨‍👩‍👧".count"#, 1),
    ("[1, 2, 3].count", 3),
    ("[\"a\": 1].count", 1),
    (#""".isEmpty"#, true),
    ("[].isEmpty", true),
    ("[:].isEmpty", true),
    (#""abc".first"#, "a"),
    (#""abc".last"#, "c"),
    (#""".first"#, nil),
    ("[1, 2].first", 1),
    ("[1, 2].last", 2),
    ("[].last", nil),
    ("[\"a\": 1].first", ["key": "a", "value": 1]),
    ("[\"a\": 1, \"b\": 2].keys", ["a", "b"]),
    ("[\"a\": 1, \"b\": 2].values", [1, 2]),
    ("[\"a\": 1].a", 1),
    ("[\"a\": 1].b", nil),
    ("[\"a\": [\"b\": 2]].a.b", 2),
    // indexing
    ("[1, 2, 3][2]", 3),
    ("[\"k\": 5][\"k\"]", 5),
    ("[\"k\": 5][\"z\"]", nil),
    // methods
    (#""hello".contains("ell")"#, true),
    (#""hello".contains("xyz")"#, false),
    ("[1, 2.0].contains(2)", true),
    ("[\"a\": 1].contains(\"a\")", true),
    (#""hello".hasPrefix("he")"#, true),
    (#""hello".hasSuffix("lo")"#, true),
    (#""Straße".uppercased()"#, "STRASSE"),
    (#""ABC".lowercased()"#, "abc"),
    (#"" \n a b \t".trimmed()"#, "a b"),
    (#""a,b,,c".split(",")"#, ["a", "b", "c"]),
    (#""a--b".split("--")"#, ["a", "b"]),
    (#"["a", "b"].joined(", ")"#, "a, b"),
    (#"["a", "b"].joined()"#, "ab"),
    (#""hello".prefix(2)"#, "he"),
    (#""hello".suffix(3)"#, "llo"),
    ("[1, 2, 3].prefix(5)", [1, 2, 3]),
    ("[1, 2, 3].dropFirst()", [2, 3]),
    ("[1, 2, 3].dropFirst(2)", [3]),
    ("[1, 2, 3].dropLast()", [1, 2]),
    (#""abc".dropLast(2)"#, "a"),
    ("[1, 2, 3].reversed()", [3, 2, 1]),
    (#""abc".reversed()"#, "cba"),
    ("[3, 1.5, 2].sorted()", [1.5, 2, 3]),
    (#"["b", "a", "c"].sorted()"#, ["a", "b", "c"]),
    ("[1, 2, 3].map($0 * 10)", [10, 20, 30]),
    ("[1, 2, 3, 4].filter($0 % 2 == 0)", [2, 4]),
    ("[[1, 2], [3]].map($0.map($0 + 1))", [[2, 3], [4]]),
    (#""abc".map($0 + "!")"#, ["a!", "b!", "c!"]),
    (#""a1b2".filter($0.matches("[0-9]"))"#, "12"),
    (#""abc123".matches("[A-Za-z0-9]+")"#, true),
    (#""abc 123".matches("[A-Za-z0-9]+")"#, false),
    (#""abc".matches("b")"#, false),
    (#""abc".matches("a" + ".*")"#, true),
    // patterns within the regular expression budget (docs/limits.md)
    (#""aaa".matches("a{3}")"#, true),
    (#""ab,cd".matches("[a-z]+(,[a-z]{2})?")"#, true),
    (#""a+b".matches("a\\+b")"#, true),
    (#""x{y}".matches("x{y}")"#, true),
    (#""b".matches("[(+]*b")"#, true),
    (#""ac".matches("(a|b)c")"#, true),
    (#""foobarfoo".matches("(foo|bar)+")"#, true),
    (#""abba".matches("(a|b)*")"#, true),
    (#""123-456-7890".matches("(\\d{3}-){2}\\d{4}")"#, true),
    (#""a.b.c".matches("[a-z](\\.[a-z])*")"#, true),
    (#""ab-cd-ef".matches("[a-z]+(-[a-z]+)*")"#, true),
    (#""grace.hopper@example.com".matches("\\w+(\\.\\w+)*@\\w+(\\.\\w+)+")"#, true),
    (#""1,22,333".matches("\\d+(,\\d+)*")"#, true),
    // separated repetitions do not multiply: a long address is within the budget
    (
      "\"" + String(repeating: "a", count: 120) + #"@example.com".matches("\\w+(\\.\\w+)*@\\w+(\\.\\w+)+")"#, true
    ),
    (#""x-y".matches("(?:[a-z]+-)?[a-z]+")"#, true),
    (#""aaaaaaaaaa".matches("a*a*a*")"#, true),
    (#""aaaaaaaaaa".matches("a*a*a*" + "")"#, true),
    ("\"" + String(repeating: "a", count: 148) + #"".matches("a*a*a*")"#, true),
    // functions
    ("min(3, 1, 2)", 1),
    ("max(3, 1.5)", 3),
    ("min(1, 0.5)", 0.5),
    (#"max("a", "b")"#, "b"),
    ("abs(-3)", 3),
    ("abs(-2.5)", 2.5),
    ("String(12)", "12"),
    ("String(1.0)", "1.0"),
    (#"String("x")"#, "x"),
    ("String(nil)", "null"),
    ("String([1, 2])", "[1, 2]"),
    ("String(true)", "true"),
    (#"Int("12")"#, 12),
    (#"Int("x")"#, nil),
    ("Int(3.9)", 3),
    ("Int(-3.9)", -3),
    ("Int(7)", 7),
    (#"Double("1.5")"#, 1.5),
    ("Double(2)", 2.0),
    (#"Double("z")"#, nil),
    (#"Bool("true")"#, true),
    (#"Bool("false")"#, false),
    (#"Bool("yes")"#, nil),
    ("Bool(false)", false),
  ]

  @Test(arguments: values)
  func evaluates(_ source: String, _ expected: Value) throws {
    let result = try run(source)
    #expect(identical(result, expected), "\(source) gave \(result)")
  }

  static let errors: [(String, String, Int)] = [
    ("nil.count", "cannot read 'count' of nil", 4),
    ("1.5.isEmpty", "cannot read 'isEmpty' of Double", 4),
    ("[1].keys", "cannot read 'keys' of List", 4),
    (#""s".foo"#, "cannot read 'foo' of String", 4),
    ("[1, 2, 3][5]", "index 5 out of range (count 3)", 9),
    ("[1, 2, 3][-1]", "index -1 out of range (count 3)", 9),
    (#"[1][ "a" ]"#, "a list index must be an Int, got String", 3),
    ("[\"a\": 1][1]", "a map key must be a String, got Int", 8),
    ("3[0]", "cannot subscript Int", 1),
    ("nil.contains(1)", "cannot call 'contains' on nil", 4),
    (#""a".hasPrefix(1)"#, "'hasPrefix' needs a String, got Int", 14),
    ("1.uppercased()", "cannot call 'uppercased' on Int", 2),
    (#""a".prefix(-1)"#, "'prefix' needs a non-negative Int, got Int", 11),
    (#"[1, "a"].joined()"#, "'joined' needs a list of Strings, got Int in it", 9),
    (#"[1, "a"].sorted()"#, "'sorted' needs a list of numbers or of Strings, got String in it", 9),
    ("[1, 2].filter($0 + 1)", "'filter' needs a Bool, got Int", 14),
    (#""a".split("")"#, "'split' needs a non-empty separator, got String", 10),
    (#""a".matches("(" + "")"#, "invalid regular expression '('", 12),
    (#""a".matches("(a+)+$" + "")"#, nestedRepetition("(a+)+$"), 12),
    (#""aaaaaaaaaa".matches("a*a*a*a*a*a*a*a*")"#, regexWork("aaaaaaaaaa", "a*a*a*a*a*a*a*a*"), 13),
    // a run of three overlapping repetitions: 3 · (n + 1)^3 steps, up to 148 characters
    (
      "\"" + String(repeating: "a", count: 149) + #"".matches("a*a*a*")"#,
      regexWork(String(repeating: "a", count: 149), "a*a*a*"), 152
    ),
    (#""aaaaaaaaaa".matches("a*a*a*a*a*a*a*a*" + "")"#, regexWork("aaaaaaaaaa", "a*a*a*a*a*a*a*a*"), 13),
    (
      #""aaaaaaaaaa!".matches("a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?aaaaaaaaaa")"#,
      regexWork("aaaaaaaaaa!", "a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?aaaaaaaaaa"), 14
    ),
    (#"abs("x")"#, "'abs' needs a number, got String", 0),
    ("abs(-9223372036854775807 - 1)", "integer overflow", 0),
    ("Int(true)", "cannot convert Bool to Int", 0),
    ("Bool(1)", "cannot convert Int to Bool", 0),
    (#"min(1, "a")"#, "cannot apply '<' to String and Int", 7),
    ("[1, 2][0][0]", "cannot subscript Int", 9),
  ]

  @Test(arguments: errors)
  func runtimeErrors(_ source: String, _ message: String, _ offset: Int) throws {
    let error = try runtimeError(source)
    #expect(error?.message == message, "\(source)")
    #expect(error?.offset == offset, "\(source)")
  }

  /// Where a JavaScript or Swift habit misleads, the error carries a hint for the warning; the
  /// message (and so the error value) stays as it is.
  @Test(
    arguments: [
      ("$0.length", Value.string("hi"), "cannot read 'length' of String", "did you mean 'count'?"),
      ("$0.size", Value.list([1]), "cannot read 'size' of List", "did you mean 'count'?"),
      ("$0.length", Value.int(1), "cannot read 'length' of Int", nil),
    ] as [(String, Value, String, String?)])
  func runTimeHabitsGetAHint(_ source: String, _ value: Value, _ message: String, _ hint: String?) throws {
    let error = try runtimeError(source, value: value)
    #expect(error?.message == message)
    #expect(error?.hint == hint)
  }

  /// A member or method of nil is marked as such, so that the warning can suggest `?? ""`.
  @Test func readingNilIsMarked() throws {
    #expect(try runtimeError("$0.count", value: nil)?.readsNil == true)
    #expect(try runtimeError("$0.lowercased()", value: nil)?.readsNil == true)
    #expect(try runtimeError("$0.isEmpty", value: nil)?.readsNil == true)
    #expect(try runtimeError("$0.count", value: 1)?.readsNil == false)
  }

  @Test(
    arguments: [
      ("$0.count > 0", 3, "($0 ?? \"\").count"),
      ("vm.name.count", 8, "(vm.name ?? \"\").count"),
      ("$1.lowercased() == \"a\"", 3, "($1 ?? \"\").lowercased()"),
      ("$0.hasPrefix(\"a\")", 3, "($0 ?? \"\").hasPrefix(…)"),
      ("($0 + \"\").count", 10, nil),
      ("count", 0, nil),
    ] as [(String, Int, String?)])
  func nilIsReadAsEmptyInTheHint(_ text: String, _ offset: Int, _ rewrite: String?) {
    #expect(readingNilAsEmpty(text, memberAt: offset) == rewrite)
  }

  @Test func throwSendsItsValue() throws {
    let compiled = try CompiledExpression(#"$0 > 3 ? throw("too big") : $0"#, scope: ExpressionScope())
    #expect(try compiled.evaluate(EvalContext(value: 2)) == 2)
    #expect(throws: EvaluationError(message: #"threw "too big""#, offset: 9, thrown: "too big")) {
      try compiled.evaluate(EvalContext(value: 4))
    }
  }

  @Test func literalHelper() throws {
    let compiled = CompiledExpression.literal(3)
    #expect(try compiled.evaluate(EvalContext()) == 3)
    #expect(compiled.constantValue == 3)
  }

  @Test func conditionEvaluation() throws {
    let compiled = try CompiledExpression("$0 + 1", scope: ExpressionScope())
    #expect(throws: EvaluationError(message: "'when' needs a Bool, got Int", offset: 0)) {
      try compiled.evaluateCondition(EvalContext(value: 1), role: "when")
    }
    let test = try CompiledExpression("$0 > 1", scope: ExpressionScope())
    #expect(try test.evaluateCondition(EvalContext(value: 2), role: "filter"))
  }

  @Test func constantsAreFolded() throws {
    #expect(try CompiledExpression(#""a" + String(1 + 2)"#, scope: ExpressionScope()).constantValue == "a3")
    #expect(try CompiledExpression("$0 + 1", scope: ExpressionScope()).constantValue == nil)
    #expect(try CompiledExpression("1 / 0", scope: ExpressionScope()).constantValue == nil)
  }
}

/// The message of a pattern that repeats a group that repeats or alternates.
func nestedRepetition(_ pattern: String) -> String {
  "regular expression '\(pattern)' repeats without bound a group that can match the same text in"
    + " more than one way, which can backtrack exponentially; repeat a character class instead"
    + " (e.g. 'a+' for '(a+)+', '[ab]+' for '(a|ab)+')"
}

/// The message of a `matches` whose estimated work passes the limit.
func regexWork(_ subject: String, _ pattern: String) -> String {
  "'matches' on a string of \(subject.count) characters with '\(pattern)' exceeds the limit of"
    + " 10000000 steps of regular expression work"
}
