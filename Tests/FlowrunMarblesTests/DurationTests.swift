import FlowrunCore
import FlowrunDiagnostics
import Testing

@testable import FlowrunMarbles

@Suite struct DurationTests {
  @Test(arguments: [
    ("5", 5), ("10f", 10), ("1ms", 1), ("500ms", 500), ("1.5s", 1_500), ("2m", 120_000),
    ("0.5s", 500), ("1.250s", 1_250), ("0ms", 0), ("1.0f", 1),
  ])
  func framesWithDefaultTick(text: String, frames: Int) throws {
    #expect(try DurationLiteral(parsing: text).frames(tick: .default) == frames)
  }

  @Test(arguments: [
    ("1.5s", 1_500_000_000), ("500ms", 500_000_000), ("2m", 120_000_000_000), ("0.000001ms", 1),
  ])
  func exactNanoseconds(text: String, nanoseconds: Int) throws {
    #expect(try DurationLiteral(parsing: text).nanoseconds() == nanoseconds)
  }

  @Test(arguments: [
    ("250ms", "100ms", "duration 250ms is not a whole number of ticks (tick = 100ms)"),
    ("1.05s", "100ms", "duration 1.05s is not a whole number of ticks (tick = 100ms)"),
    ("1.5f", "1ms", "duration 1.5f is not a whole number of frames"),
    ("0.0000001ms", "1ms", "duration 0.0000001ms is finer than a nanosecond"),
    ("99999999999999999999ms", "1ms", "duration 99999999999999999999ms is too large"),
    ("9999999999999999m", "1ms", "duration 9999999999999999m is too large"),
  ])
  func conversionErrors(text: String, tick: String, message: String) throws {
    let tick = try Tick(parsing: tick)
    #expect(throws: DurationError(Diagnostic.Message(message))) {
      try DurationLiteral(parsing: text).frames(tick: tick)
    }
  }

  @Test(arguments: ["", "ms", "1.s", ".5s", "1h", "1 s", "-1ms", "1.2.3s", "abc", "1sm"])
  func invalidSyntax(text: String) {
    #expect(throws: DurationError("invalid duration '\(text)' (expected a number with ms, s, m or f)")) {
      try DurationLiteral(parsing: text)
    }
  }

  @Test func ticks() throws {
    #expect(try Tick(parsing: "100ms").nanoseconds == 100_000_000)
    #expect(Tick.default.nanoseconds == 1_000_000)
    #expect(Tick.default.description == "1ms")
    #expect(try DurationLiteral(parsing: "1.5s").frames(tick: Tick(parsing: "500ms")) == 3)
    #expect(throws: DurationError("tick 5f must be a time (ms, s or m), not frames")) { try Tick(parsing: "5f") }
    #expect(throws: DurationError("tick 5 must be a time (ms, s or m), not frames")) { try Tick(parsing: "5") }
    #expect(throws: DurationError("tick 0ms must be greater than zero")) { try Tick(parsing: "0ms") }
  }

  @Test(arguments: [
    (3, "100ms", "300 ms"), (15, "100ms", "1.5 s"), (1, "0.5ms", "0.5 ms"), (0, "1ms", "0 ms"),
    (-3, "100ms", "-300 ms"), (120, "1s", "120 s"), (1, "1.25s", "1.25 s"), (7, "1ms", "7 ms"),
  ])
  func realTime(frames: Int, tick: String, text: String) throws {
    #expect(try Tick(parsing: tick).realTime(frames: frames) == text)
  }

  @Test func literalKeepsText() throws {
    let literal = try DurationLiteral(parsing: "1.50s")
    #expect(literal.description == "1.50s")
    #expect(literal.isTime)
    #expect(try !DurationLiteral(parsing: "3").isTime)
    #expect(DurationLiteral(frames: 4).text == "4")
  }
}
