import FlowrunCore
import FlowrunDiagnostics
import FlowrunExpressions
import Testing

@Suite struct ArithmeticTests {
  static let values: [(String, Value)] = [
    // precedence and associativity
    ("1 + 2 * 3", 7 as Value),
    ("(1 + 2) * 3", 9),
    ("10 - 4 - 3", 3),
    ("100 / 10 / 5", 2),
    ("2 * 3 % 4", 2),
    ("-2 * 3", -6),
    ("- -3", 3),
    ("!true == false", true),
    ("1 + 2 == 3 && 2 < 3", true),
    ("true || false && false", true),
    ("(true || false) && false", false),
    ("false ? 1 : true ? 2 : 3", 2),
    ("true ? false ? 1 : 2 : 3", 2),
    ("nil ?? nil ?? 3", 3),
    ("nil ?? 1 + 1", 2),
    ("1 ?? 2 == 1", true),
    ("3 > 2 ? \"a\" : \"b\"", "a"),
    ("[1, 2, 3][1] + 1", 3),
    ("-[1, 2][0]", -1),
    // arithmetic
    ("7 / 2", 3),
    ("-7 / 2", -3),
    ("7 % 3", 1),
    ("-7 % 3", -1),
    ("7 % -3", 1),
    ("7.5 % 2", 1.5),
    ("1 + 0.5", 1.5),
    ("3 / 2.0", 1.5),
    ("2 * 1.5", 3.0),
    ("1.5 - 1", 0.5),
    ("9223372036854775807", .int(Int.max)),
    ("-9223372036854775808", .int(Int.min)),
    ("1_000 + 1", 1001),
    ("1e3", 1000.0),
    ("2.5e-1", 0.25),
    ("\"a\" + \"b\"", "ab"),
    ("[1] + [2, 3]", [1, 2, 3]),
    ("[] + []", []),
    // comparison
    ("1 == 1.0", true),
    ("1 != 2", true),
    ("\"a\" < \"b\"", true),
    ("2 <= 2", true),
    ("2.5 > 2", true),
    ("3 >= 4", false),
    ("1 < 1.5", true),
    ("[1, [2]] == [1, [2.0]]", true),
    ("[\"a\": 1, \"b\": 2] == [\"b\": 2, \"a\": 1]", true),
    ("[\"a\": 1] == [\"a\": 2]", false),
    ("nil == nil", true),
    ("nil == 0", false),
    ("\"1\" == 1", false),
    // logic
    ("!false", true),
    ("true && true", true),
    ("false || true", true),
    ("false && (1 / 0 == 1)", false),
    ("true || (1 / 0 == 1)", true),
    ("false && 3", false),
    ("true ? 1 : 1 / 0", 1),
    ("1 ?? 1 / 0", 1),
  ]

  @Test(arguments: values)
  func evaluates(_ source: String, _ expected: Value) throws {
    let result = try run(source)
    #expect(identical(result, expected), "\(source) gave \(result)")
  }

  static let errors: [(String, String, Int)] = [
    ("9223372036854775807 + 1", "integer overflow", 20),
    ("-9223372036854775807 - 2", "integer overflow", 21),
    ("9223372036854775807 * 2", "integer overflow", 20),
    ("-(-9223372036854775807 - 1)", "integer overflow", 0),
    ("(-9223372036854775807 - 1) / -1", "integer overflow", 27),
    ("(-9223372036854775807 - 1) % -1", "integer overflow", 27),
    ("1 / 0", "division by zero", 2),
    ("1 % 0", "division by zero", 2),
    ("1.0 / 0", "division by zero", 4),
    ("\"a\" - 1", "cannot apply '-' to String and Int", 4),
    ("1 + \"a\"", "cannot apply '+' to Int and String", 2),
    ("[1] * 2", "cannot apply '*' to List and Int", 4),
    ("true < false", "cannot apply '<' to Bool and Bool", 5),
    ("\"a\" >= 1", "cannot apply '>=' to String and Int", 4),
    ("-\"a\"", "cannot apply '-' to String", 0),
    ("!1", "cannot apply '!' to Int", 0),
    ("1 && true", "'&&' needs a Bool, got Int", 0),
    ("true && 1", "'&&' needs a Bool, got Int", 8),
    ("false || nil", "'||' needs a Bool, got nil", 9),
    ("1 ? 2 : 3", "the condition of '?:' needs a Bool, got Int", 0),
  ]

  @Test(arguments: errors)
  func runtimeErrors(_ source: String, _ message: String, _ offset: Int) throws {
    let error = try runtimeError(source)
    #expect(error?.message == message)
    #expect(error?.offset == offset)
    #expect(error?.thrown == nil)
  }

  @Test func nonBoolOperandOfShortCircuitIsAnErrorEvenWhenDynamic() throws {
    let error = try runtimeError("$0 && true", value: 1)
    #expect(error == EvaluationError(message: "'&&' needs a Bool, got Int", offset: 0))
  }
}
