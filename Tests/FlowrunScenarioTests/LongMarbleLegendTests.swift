import FlowrunTestSupport
import Testing

/// A long hot or expected marble read through a small plain file legend has its one-character
/// tokens resolved by byte while it is parsed (`LegendResolver.parseEvents`): to the same
/// values as a token looked up in the legend, then read by default (a character no key is).
struct LongMarbleLegendTests {
  @Test func oneCharacterTokensOfALongMarbleResolveAsALookupDoes() {
    // 400 characters: past the length from which tokens are resolved by byte.
    let marble = String(repeating: "-a-1-x-'a'", count: 40)
    let yaml = """
      flowrun: 1
      name: long marble
      values: { a: 10, "1": 5, "2": 6 }
      signals:
        s: { hot: "\(marble)" }
        t: { from: s }
      expect:
        s: { marble: "\(marble)", values: { a: 10, "1": 5, x: "x" } }
        t: "\(marble)"
      """
    #expect(problemsRunning(yaml) == nil)
  }

  @Test func aLongMarbleWhoseTokenReadsWrongFails() {
    let marble = String(repeating: "-a-1", count: 100)
    let yaml = """
      flowrun: 1
      name: long marble, wrong value
      values: { a: 10, "1": 5 }
      signals:
        s: { hot: "\(marble)" }
      expect:
        s: { marble: "\(marble)", values: { a: 10, "1": 1 } }
      """
    #expect(problemsRunning(yaml) != nil)
  }
}
