import FlowrunCore
import FlowrunDiagnostics
import FlowrunExpressions
import Testing

/// The lexer reads the text's UTF-8 bytes: offsets still count Unicode scalars after multi-byte
/// characters, numbers are shown as written, and `.count` counts characters.
@Suite struct TextTests {
  static let errors: [(String, String, Int)] = [
    // offsets after multi-byte characters in strings, names and escapes
    ("\"日本\" 1", "unexpected '1'", 5),
    ("\"é\" + x", "unknown name 'x'", 6),
    ("\"🇫🇷\" + ñame", "unknown name 'ñame'", 7),
    ("\"\\u{1F600}\" 1", "unexpected '1'", 12),
    ("\"x\\é\"", "invalid escape sequence '\\é'", 2),
    ("\"😀\\q\"", "invalid escape sequence '\\q'", 2),
    ("\"😀\\(1 + )\"", "unexpected end of expression", 8),
    ("\"😀\\(\"ü\" 2)\"", "unexpected '2'", 8),
    ("\"é\\(1)ü", "unterminated string", 0),
    ("\"é\" + \"😀", "unterminated string", 6),
    ("1 + 😀", "unexpected character '😀'", 4),
    ("é😀", "unexpected character '😀'", 1),
    ("12é", "invalid number '12é'", 0),
    ("\"é\" + 1.5e", "invalid number '1.5e'", 6),
    // numbers as written
    ("1 007", "unexpected '007'", 2),
    ("1 1_000", "unexpected '1000'", 2),
    ("1 0", "unexpected '0'", 2),
    ("1 99_999_999_999_999_999_999", "unexpected '99999999999999999999'", 2),
    ("9223372036854775808", "integer literal '9223372036854775808' overflows", 0),
    ("$99999999999999999999", "'$99999999999999999999' is out of range", 0),
  ]

  @Test(arguments: errors)
  func offsetsCountScalars(_ source: String, _ message: String, _ offset: Int) {
    #expect(compileError(source) == ExpressionError(message: Diagnostic.Message(message), offset: offset), "\(source)")
  }

  static let values: [(String, Value)] = [
    ("\"é\\t😀\\u{E9}\\(\"ü\")\"", "é\t😀éü"),
    ("\"日本\" + \"語\"", "日本語"),
    ("ñ", "ñ-value"),
    ("-9_223_372_036_854_775_808 == -9223372036854775807 - 1", true),
    ("007 + 1_0", 17),
    ("1_0.2_5e1_0", 102_500_000_000.0),
    ("2E-1", 0.2),
  ]

  @Test(arguments: values)
  func multiByteTextEvaluates(_ source: String, _ expected: Value) throws {
    let scope = ExpressionScope(parameters: .keyed(names: ["ñ"]))
    #expect(try run(source, value: ["ñ": "ñ-value"], scope: scope) == expected, "\(source)")
  }

  @Test func lengthLimitCountsScalars() {
    let scope = ExpressionScope(maxLength: 3)
    #expect(compileError("\"😀\"", scope: scope) == nil)
    #expect(
      compileError("\"😀😀\"", scope: scope) == ExpressionError(message: "expression longer than 3 characters", offset: 0)
    )
  }

  static let strings = ["", "abc", "a\r\nb", "\r\n\r\n", "\n\r", "\r\r\n", "é", "e\u{301}", "🇫🇷", "a😀b\r\n", "👨‍👩‍👧"]

  @Test(arguments: strings)
  func countCountsCharacters(_ s: String) throws {
    let count = Value.int(s.count)
    #expect(try run("$0.count", value: .string(s)) == count)
    #expect(try run("[$0][0].count", value: .string(s)) == count)
    #expect(try run("$1.count", value: [1, .string(s)], scope: ExpressionScope(parameters: .tuple(arity: 2))) == count)
  }

  @Test func memberReadsOfParametersFailWhereTheyDidBefore() throws {
    let pair = ExpressionScope(parameters: .tuple(arity: 2))
    #expect(
      try runtimeError("$1.count", value: [1], scope: pair)
        == EvaluationError(message: "'$1' needs a list of 2 or more values, got List", offset: 0))
    #expect(try runtimeError("$0.count", value: 5) == EvaluationError(message: "cannot read 'count' of Int", offset: 3))
    #expect(
      try runtimeError("1 + $0.first", value: 5) == EvaluationError(message: "cannot read 'first' of Int", offset: 7))
    #expect(try run("$0.key", value: ["key": 4]) == 4)
  }

  @Test func longPropertyListsResolveToTheFirstSlot() throws {
    let properties = (0..<20).map { "p\($0)" } + ["p3", "vm.a"]
    let scope = ExpressionScope(properties: properties)
    let compiled = try CompiledExpression("p3 + p19 + vm.a.count + p3", scope: scope)
    #expect(compiled.referencedProperties == [3, 19, 21])
    let values: [Value] = (0..<20).map { .int($0) } + [-1, "abc"]
    #expect(try compiled.evaluate(EvalContext(properties: Properties(values))) == 28)
    #expect(compileError("p20", scope: scope)?.message.hasPrefix("unknown name 'p20'") == true)
  }
}
