import FlowrunCore
import FlowrunDiagnostics
import FlowrunExpressions
import Testing

@Suite struct SyntaxErrorTests {
  static let errors: [(String, String, Int)] = [
    ("(1 + 2", "expected ')'", 6),
    ("min(1, 2", "expected ')'", 8),
    ("min(1 2)", "expected ')'", 6),
    ("[1, 2", "expected ']'", 5),
    ("[1 2]", "expected ']'", 3),
    ("[\"a\": 1, \"b\" 2]", "expected ':'", 13),
    ("true ? 1", "unexpected end of expression", 8),
    ("1 +", "unexpected end of expression", 3),
    ("", "unexpected end of expression", 0),
    ("1 + )", "unexpected ')'", 4),
    ("1 2", "unexpected '2'", 2),
    ("\"abc", "unterminated string", 0),
    ("1 + \"a\\(2\"", "unterminated string", 9),
    (#""a\qb""#, "invalid escape sequence '\\q'", 2),
    (#""\u{110000}""#, "invalid unicode escape", 1),
    ("1 < 2 < 3", "comparison operators cannot be chained", 6),
    ("1 == 2 != true", "comparison operators cannot be chained", 7),
    ("1 < 2 == true", "comparison operators cannot be chained", 6),
    ("foo(1)", "unknown function 'foo'", 0),
    ("mn(1, 2)", "unknown function 'mn'; did you mean 'min'?", 0),
    ("\"a\".foo()", "unknown method 'foo'", 4),
    ("\"a\".uppercase()", "unknown method 'uppercase'; did you mean 'uppercased'?", 4),
    ("\"a\".contains()", "'contains' takes 1 argument, got 0", 4),
    ("\"a\".trimmed(1)", "'trimmed' takes no arguments, got 1", 4),
    ("[1].dropFirst(1, 2)", "'dropFirst' takes 0 or 1 argument, got 2", 4),
    ("min(1)", "'min' needs at least 2 arguments, got 1", 0),
    ("\"a\".matches(\"(\")", "invalid regular expression '('", 12),
    (#""a".matches("(a+)+$")"#, nestedRepetition("(a+)+$"), 12),
    (#""a".matches("(a|aa)*")"#, nestedRepetition("(a|aa)*"), 12),
    (#""a".matches("((ab)*c)+")"#, nestedRepetition("((ab)*c)+"), 12),
    (#""a".matches("(?:a*b){2,}")"#, nestedRepetition("(?:a*b){2,}"), 12),
    (#""a".matches("(\\d+,)*")"#, nestedRepetition("(\\d+,)*"), 12),
    (#""a".matches("(-[a-z-]+)*")"#, nestedRepetition("(-[a-z-]+)*"), 12),
    (#""a".matches("(\\..*)+")"#, nestedRepetition("(\\..*)+"), 12),
    (#""a".matches("(\\w|_)+")"#, nestedRepetition("(\\w|_)+"), 12),
    (#""a".matches("(a|)*")"#, nestedRepetition("(a|)*"), 12),
    (#""a".matches("(\\d{1,3}-)+")"#, nestedRepetition("(\\d{1,3}-)+"), 12),
    ("1 = 2", "unexpected character '='; did you mean '=='?", 2),
    ("$0 => 2", "unexpected character '=' in '=>'; did you mean '>='?", 3),
    ("$0 =< 2", "unexpected character '=' in '=<'; did you mean '<='?", 3),
    ("\"a\".length()", "unknown method 'length'; did you mean the member 'count'?", 4),
    ("[1].isEmpty()", "unknown method 'isEmpty'; 'isEmpty' is a member: write '.isEmpty' without '()'", 4),
    ("1 & 2", "unexpected character '&'", 2),
    ("1 # 2", "unexpected character '#'", 2),
    ("$ + 1", "expected a digit after '$'", 0),
    ("[1].1", "expected a member name after '.'", 4),
    ("12abc", "invalid number '12a'", 0),
    ("99999999999999999999", "integer literal '99999999999999999999' overflows", 0),
    ("-9223372036854775809", "integer literal '-9223372036854775809' overflows", 0),
    ("[\"a\": 1, \"a\": 2]", "duplicate key 'a'", 9),
    ("[1: 2]", "a map key must be a String, got Int", 1),
    ("\"é\" + ", "unexpected end of expression", 6),
    ("\"😀\" + )", "unexpected ')'", 6),
    ("\"\\()\"", "unexpected end of expression", 3),
    ("[:", "expected ']'", 2),
  ]

  @Test(arguments: errors)
  func compileErrors(_ source: String, _ message: String, _ offset: Int) {
    #expect(compileError(source) == ExpressionError(message: Diagnostic.Message(message), offset: offset), "\(source)")
  }

  @Test func tenThousandNestedParenthesesAreADiagnostic() {
    let source = String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000)
    let error = compileError(source)
    #expect(error == ExpressionError(message: "expression nested deeper than 256 levels", offset: 256))
    let deepest = String(repeating: "(", count: 256) + "1" + String(repeating: ")", count: 256)
    #expect(compileError(deepest) == nil)
  }

  static let deep: [String] = [
    String(repeating: "!", count: 10_000) + "true",
    String(repeating: "-", count: 10_000) + "1",
    String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000),
    String(repeating: "\"\\(", count: 5_000) + String(repeating: ")\"", count: 5_000),
    "1" + String(repeating: " + 1", count: 10_000),
    "nil" + String(repeating: " ?? nil", count: 10_000),
    "$0" + String(repeating: ".a", count: 10_000),
    String(repeating: "true ? 1 : ", count: 5_000) + "2",
  ]

  @Test(arguments: deep)
  func deepInputsNeverOverflowTheStack(_ source: String) {
    #expect(compileError(source)?.message == "expression nested deeper than 256 levels")
  }

  @Test func nestingWithinTheLimitCompiles() throws {
    let source = String(repeating: "(", count: 200) + "1" + String(repeating: ")", count: 200)
    #expect(try run(source) == 1)
    #expect(try run("1" + String(repeating: " + 1", count: 200)) == 201)
  }

  @Test func limitsAreConfigurable() {
    let scope = ExpressionScope(maxDepth: 3, maxLength: 10)
    #expect(compileError("((((1))))", scope: scope)?.message == "expression nested deeper than 3 levels")
    #expect(
      compileError("1 + 2 + 3 + 4", scope: scope)
        == ExpressionError(message: "expression longer than 10 characters", offset: 0))
  }
}
