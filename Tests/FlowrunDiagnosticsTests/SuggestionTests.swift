import FlowrunDiagnostics
import Testing

/// "Did you mean" hints.
@Suite struct SuggestionTests {
  @Test(
    arguments: [
      ("descripton", ["name", "description", "tags"], "description"),
      ("mapp", ["map", "mapTo", "filter"], "map"),
      ("zzz", ["map", "filter"], nil),
      ("vm.acount", ["vm.account", "vm.password"], "vm.account"),
      ("", ["ab", "abcd"], "ab"),
    ] as [(String, [String], String?)])
  func suggestsTheClosestNameWithinTwoEdits(name: String, candidates: [String], expected: String?) {
    #expect(closestName(to: name, among: candidates) == expected)
  }
}
