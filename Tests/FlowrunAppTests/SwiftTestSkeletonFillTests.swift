import FlowrunScenario
import Testing

@testable import FlowrunApp

/// `SwiftTestSkeleton.Fill`, as `flowrun-import` fills it: an async service is made with
/// `flow.asyncService`, and an output with lines of its own is written with them instead of a
/// `flow.observe`.
@Suite struct SwiftTestSkeletonFillTests {
  static let scenario = """
    flowrun: 1
    name: fill
    library: async
    properties:
      vm.query: { initial: "" }
      vm.results: { initial: [] }
    services:
      search: { cold: "-(r|)", values: { r: ["a"] } }
    signals:
      found: [{ from: vm.query }, { flatMapLatest: [{ call: search, with: outer }] }]
    timeline:
      - { at: 1, set: { vm.query: "q" } }
    expect:
      found: "-"
      vm.results: "-"
      search.calls: "-"

    """

  static func text(_ fill: SwiftTestSkeleton.Fill) throws -> String {
    let loaded = ScenarioLoader.load(path: "fill.yaml", bytes: Array(scenario.utf8))
    #expect(!loaded.hasErrors, "\(loaded.diagnostics.count) diagnostics")
    return SwiftTestSkeleton.text(file: loaded, path: "fill.yaml", fill: fill)
  }

  @Test func anAsyncServiceIsFlowAsyncService() throws {
    var fill = SwiftTestSkeleton.Fill()
    fill.construction = "let viewModel = SearchModel(search: { try await search($0) })"
    fill.serviceTypes["search"] = "[String]"
    fill.asyncServices = ["search"]
    let text = try Self.text(fill)
    #expect(text.contains(#"    let search = flow.asyncService("search", returning: [String].self)"#), "\(text)")
    #expect(!text.contains("flow.service("), "\(text)")
  }

  @Test func aServiceIsFlowServiceWithoutAsyncServices() throws {
    var fill = SwiftTestSkeleton.Fill()
    fill.serviceTypes["search"] = "[String]"
    let text = try Self.text(fill)
    #expect(text.contains(#"let search = flow.service("search", returning: [String].self)"#), "\(text)")
  }

  @Test func outputLinesReplaceTheObserve() throws {
    var fill = SwiftTestSkeleton.Fill()
    fill.construction = "let viewModel = SearchModel()"
    fill.outputs["found"] = "viewModel.found"
    fill.outputLines["vm.results"] = [
      #"let resultsOutput = flow.output("vm.results", as: [String].self)"#,
      "_ = viewModel.results.asObservable().subscribe(onNext: { resultsOutput.send($0) })",
    ]
    let text = try Self.text(fill)
    let lines = text.split(separator: "\n").map(String.init)
    let start = try #require(lines.firstIndex(of: #"    flow.observe("found", viewModel.found)"#), "\(text)")
    #expect(
      Array(lines[(start + 1)...].prefix(2)) == [
        #"    let resultsOutput = flow.output("vm.results", as: [String].self)"#,
        "    _ = viewModel.results.asObservable().subscribe(onNext: { resultsOutput.send($0) })",
      ], "\(text)")
    #expect(!text.contains(#"flow.observe("vm.results""#), "\(text)")
  }
}
