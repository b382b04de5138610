import Testing

@testable import FlowrunYAML

/// A scalar as written after `k: ` and the value the core schema gives it.
struct ResolutionCase: Sendable, CustomTestStringConvertible {
  var source: String
  var expected: ScalarValue

  init(_ source: String, _ expected: ScalarValue) {
    self.source = source
    self.expected = expected
  }

  var testDescription: String { source }
}

let resolutionCases: [ResolutionCase] = [
  ResolutionCase("true", .bool(true)),
  ResolutionCase("True", .bool(true)),
  ResolutionCase("TRUE", .bool(true)),
  ResolutionCase("tRuE", .bool(true)),
  ResolutionCase("false", .bool(false)),
  ResolutionCase("FaLsE", .bool(false)),
  ResolutionCase("null", .null),
  ResolutionCase("Null", .null),
  ResolutionCase("NULL", .null),
  ResolutionCase("~", .null),
  ResolutionCase("", .null),
  ResolutionCase("nULL", .string("nULL")),
  ResolutionCase("on", .string("on")),
  ResolutionCase("off", .string("off")),
  ResolutionCase("yes", .string("yes")),
  ResolutionCase("no", .string("no")),
  ResolutionCase("y", .string("y")),
  ResolutionCase("n", .string("n")),
  ResolutionCase("0", .int(0)),
  ResolutionCase("42", .int(42)),
  ResolutionCase("-17", .int(-17)),
  ResolutionCase("+8", .int(8)),
  ResolutionCase("007", .int(7)),
  ResolutionCase("0x1F", .int(31)),
  ResolutionCase("0xff", .int(255)),
  ResolutionCase("0o17", .int(15)),
  ResolutionCase("0o19", .string("0o19")),
  ResolutionCase("0x", .string("0x")),
  ResolutionCase("9223372036854775807", .int(Int.max)),
  ResolutionCase("-9223372036854775808", .int(Int.min)),
  ResolutionCase("9223372036854775808", .double(9_223_372_036_854_775_808)),
  ResolutionCase("0x10000000000000000", .double(18_446_744_073_709_551_616)),
  ResolutionCase("1.5", .double(1.5)),
  ResolutionCase("-2e3", .double(-2000)),
  ResolutionCase("1e3", .double(1000)),
  ResolutionCase(".5", .double(0.5)),
  ResolutionCase("-.5", .double(-0.5)),
  ResolutionCase("1.", .double(1)),
  ResolutionCase("2.5E-1", .double(0.25)),
  ResolutionCase(".inf", .double(.infinity)),
  ResolutionCase(".Inf", .double(.infinity)),
  ResolutionCase("+.INF", .double(.infinity)),
  ResolutionCase("-.inf", .double(-.infinity)),
  ResolutionCase("1e", .string("1e")),
  ResolutionCase(".", .string(".")),
  ResolutionCase("+", .string("+")),
  ResolutionCase("1_000", .string("1_000")),
  ResolutionCase("12:30", .string("12:30")),
  ResolutionCase("100ms", .string("100ms")),
  ResolutionCase("--a|", .string("--a|")),
  ResolutionCase("\"true\"", .string("true")),
  ResolutionCase("'12'", .string("12")),
  ResolutionCase("\"\"", .string("")),
  ResolutionCase("!!str true", .string("true")),
  ResolutionCase("! 12", .string("12")),
  ResolutionCase("!!int \"12\"", .int(12)),
  ResolutionCase("!!float 3", .double(3)),
  ResolutionCase("!!bool 'false'", .bool(false)),
  ResolutionCase("!!null ''", .null),
  ResolutionCase("!cold 12", .int(12)),
]

@Suite struct ScalarValueTests {
  @Test(arguments: resolutionCases)
  func coreSchemaResolution(_ testCase: ResolutionCase) throws {
    let (file, diagnostics) = YAMLFile.parse(path: "t.yaml", text: "k: \(testCase.source)\n")
    #expect(diagnostics.isEmpty)
    let node = try #require(file.documents.first?.root?["k"])
    #expect(node.resolvedScalar == testCase.expected)
  }

  @Test func notANumberResolvesToNaN() throws {
    for text in [".nan", ".NaN", ".NAN"] {
      guard case .double(let value) = ScalarValue.resolve(text) else {
        Issue.record("\(text) is not a double")
        continue
      }
      #expect(value.isNaN)
    }
    #expect(ScalarValue.resolve(".nAn") == .string(".nAn"))
  }

  @Test func blockScalarsAreStrings() throws {
    let (file, _) = YAMLFile.parse(path: "t.yaml", text: "a: |\n  12\nb: >\n  true\n")
    let root = try #require(file.documents.first?.root)
    #expect(root["a"]?.resolvedScalar == .string("12\n"))
    #expect(root["b"]?.resolvedScalar == .string("true\n"))
    #expect(root.resolvedScalar == nil)
  }
}
