import FlowrunCore
import FlowrunDiagnostics
import FlowrunReport
import FlowrunScenario
import FlowrunTestSupport
import Foundation
import Testing

@Suite struct TraceTests {
  @Test(arguments: teachingFlows.map(\.name))
  func teachingFlowTrace(_ name: String) throws {
    let flow = try #require(teachingFlows.first { $0.name == name })
    let text = try tracedRuns(flow.path).map { TraceRenderer($0).render() }.joined(separator: "\n")
    expectGolden(text, "\(name).trace.txt")
  }

  /// The example of cli.md §trace: the value that made each event, the operator chain.
  @Test func combineLatestLineNamesItsInputsAndOperator() throws {
    let run = try #require(try tracedRuns("scenarios/login/enable-button.yaml").first)
    let lines = TraceRenderer(run).lines
    let line = try #require(lines.first { $0.frame == 3 && $0.name == "loginEnabled" })
    #expect(line.what == "next true")
    #expect(line.via == "combineLatest: [\"1\", \"123\"] → map")
    let parent = try #require(line.parent.map { lines[$0] })
    #expect(parent.name == "vm.password" && parent.what == "set \"123\"")
    #expect(lines[try #require(parent.parent)].name == "passwordText")
  }

  @Test func rejectedExecutionsAndSubscriptionsAreListed() throws {
    let run = try #require(try tracedRuns("scenarios/hud/two-commands.yaml").first)
    let lines = TraceRenderer(run).lines
    #expect(lines.contains { $0.frame == 2 && $0.name == "fetchSummary" && $0.what == "execute rejected (disabled)" })
    #expect(lines.contains { $0.frame == 1 && $0.name == "fetchSummary › cold" && $0.what == "subscribed" })
  }

  /// flatMapLatest disposes the stale request: the trace shows the disposal (signup story).
  @Test func staleRequestDisposalIsTraced() throws {
    let run = try #require(try tracedRuns("scenarios/signup/signup-form.yaml").first)
    let lines = TraceRenderer(run).lines
    #expect(lines.contains { $0.frame == 7 && $0.what == "disposed" && $0.name.hasPrefix("usernameAvailable") })
  }

  /// Tracing observes: a traced run gives the same result as an untraced one, for every
  /// scenario of the repository and of the spec examples.
  @Test func tracingChangesNothing() throws {
    var paths: [String] = []
    for directory in ["scenarios", "../shared/spec/examples"] {
      let root = packageRoot.appendingPathComponent(directory)
      let enumerator = FileManager.default.enumerator(atPath: root.path)
      while let item = enumerator?.nextObject() as? String {
        if item.hasSuffix(".yaml") { paths.append(root.appendingPathComponent(item).path) }
      }
    }
    #expect(paths.count > 10)
    for path in paths {
      let file = ScenarioLoader.load(path: path)
      for scenario in file.scenarios {
        let plain = ScenarioRunner.run(scenario)
        let traced = ScenarioRunner.traced(scenario).result
        #expect(plain.status == traced.status, "\(path): \(scenario.name)")
        #expect(plain.stats == traced.stats, "\(path): \(scenario.name)")
        #expect(plain.expectations.map(\.passed) == traced.expectations.map(\.passed), "\(path)")
      }
    }
  }

  @Test func traceIsDeterministic() throws {
    let first = try tracedRuns("scenarios/paging/refresh-and-next-page.yaml").map { TraceRenderer($0).render() }
    let second = try tracedRuns("scenarios/paging/refresh-and-next-page.yaml").map { TraceRenderer($0).render() }
    #expect(first == second)
  }
}
