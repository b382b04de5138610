// The example view models driven through N input events (default 100,000), in one process:
// under flowrun's scheduler (ScenarioCheck on a generated scenario: the load, the model's run
// and the bound run, recording and comparison) and under combine-schedulers' TestScheduler (a
// test that sets each input and advances one frame at a time, collecting the outputs).
//   swift build -c release --package-path Benchmarks --scratch-path .build-bench
//   .build-bench/release/BindingBench [events] [reps] [login|search|explore]
// Then ScenarioCheck.exploreFailures against the login view model: generated runs per second.
import CombineSchedulers
import FlowrunTesting
import Foundation
import OpenCombineShim
import ViewModels

let arguments = CommandLine.arguments
let events = arguments.count > 1 ? Int(arguments[1]) ?? 100_000 : 100_000
let reps = arguments.count > 2 ? Int(arguments[2]) ?? 3 : 3
/// Only the workload of this name (`login`, `search`, `explore`), to profile one.
let only = arguments.count > 3 ? arguments[3] : nil
typealias Time = FlowScheduler.SchedulerTimeType
let frame = Time.Stride.milliseconds(100)

func seconds(_ body: () throws -> Void) rethrows -> Double {
  let start = ContinuousClock.now
  try body()
  let elapsed = ContinuousClock.now - start
  return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

func write(_ text: String, _ name: String) -> String {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("binding-bench-\(name).yaml")
  try? Data(text.utf8).write(to: url)
  return url.path
}

// MARK: - Login: account and password set alternately, one per frame.

func loginScenario(_ n: Int) -> String {
  var account = "-"
  var password = "--"
  for k in 0..<(n / 2) {
    account += (k % 2 == 0 ? "a" : "b") + "-"
    password += (k % 2 == 0 ? "p" : "q") + "-"
  }
  let expected = "ff" + String(repeating: "t", count: 2 * (n / 2) - 1)
  return """
    flowrun: 1
    name: login \(n)
    tick: 100ms
    limit: { events: \(2 * n + 10), time: \(2 * n + 10) }
    values: { a: "1", b: "12", p: "123", q: "1234", t: true, f: false }
    signals:
      accountText: { hot: "\(account)" }
      passwordText: { hot: "\(password)" }
      loginEnabled:
        - combineLatest: [vm.account, vm.password]
        - map: '($0 ?? "").count > 0 && ($1 ?? "").count > 0'
    properties:
      vm.account: accountText
      vm.password: passwordText
      loginButton.enabled: loginEnabled
    expect:
      loginButton.enabled: "\(expected)"
    """
}

func loginUnderFlowrun(_ path: String) throws -> Int {
  let failures = try ScenarioCheck.failures(path, root: "/") { flow in
    let vm = LoginViewModel()
    flow.drive("vm.account") { vm.account = $0 }
    flow.drive("vm.password") { vm.password = $0 }
    flow.observe("loginButton.enabled", vm.$isLoginEnabled)
  }
  precondition(failures.isEmpty, "\(failures.first!.message.prefix(2_000))")
  return 1
}

func loginUnderTestScheduler(_ n: Int) -> Int {
  let scheduler = TestScheduler<Time, Never>(now: Time(nanoseconds: 0))
  let vm = LoginViewModel()
  var seen = 0
  let subscription = vm.$isLoginEnabled.sink { _ in seen += 1 }
  for k in 0..<(n / 2) {
    scheduler.advance(by: frame)
    vm.account = k % 2 == 0 ? "1" : "12"
    scheduler.advance(by: frame)
    vm.password = k % 2 == 0 ? "123" : "1234"
  }
  scheduler.run()
  subscription.cancel()
  precondition(seen == 2 * (n / 2) + 1, "login: \(seen) values")
  return seen
}

// MARK: - Search: a query every 4 frames, alternating, answered one frame after the call.

func searchScenario(_ n: Int) -> String {
  var typed = "-"
  var calls = "----"
  var items = "n----"
  for k in 0..<n {
    typed += (k % 2 == 0 ? "a" : "b") + "---"
    calls += (k % 2 == 0 ? "a" : "b") + (k == n - 1 ? "" : "---")
    items += "R" + (k == n - 1 ? "" : "---")
  }
  return """
    flowrun: 1
    name: search \(n)
    tick: 100ms
    limit: { events: \(2 * n + 10), time: \(4 * n + 10) }
    values: { n: ~, a: "s", b: "sw", R: [x] }
    signals:
      queryText: { hot: "\(typed)" }
      query:
        - from: queryText
        - debounce: 300ms
        - distinctUntilChanged
      results:
        - from: query
        - flatMapLatest: { call: searchAPI, with: outer }
    services:
      searchAPI: { cold: "-(r|)", values: { r: [x] } }
    properties:
      resultsTable.items: results
    expect:
      searchAPI.calls: "\(calls)"
      resultsTable.items: "\(items)"
    """
}

func searchUnderFlowrun(_ path: String) throws -> Int {
  let failures = try ScenarioCheck.failures(path, root: "/") { flow in
    let api = flow.service("searchAPI", returning: [String].self)
    let vm = SearchViewModel(
      scheduler: flow.scheduler, search: { api($0).replaceError(with: []).eraseToAnyPublisher() })
    flow.drive("queryText") { vm.query = $0 }
    flow.observe("resultsTable.items", vm.$results)
  }
  precondition(failures.isEmpty, "\(failures.first!.message.prefix(2_000))")
  return 1
}

func searchUnderTestScheduler(_ n: Int) -> Int {
  let scheduler = TestScheduler<Time, Never>(now: Time(nanoseconds: 0))
  var calls = 0
  let vm = SearchViewModel(
    scheduler: scheduler,
    search: { _ in
      calls += 1
      return Just(["x"]).delay(for: frame, scheduler: scheduler).eraseToAnyPublisher()
    })
  var results = 0
  let subscription = vm.$results.sink { _ in results += 1 }
  scheduler.advance(by: frame)
  for k in 0..<n {
    vm.query = k % 2 == 0 ? "s" : "sw"
    for _ in 0..<4 { scheduler.advance(by: frame) }
  }
  scheduler.run()
  subscription.cancel()
  precondition(calls == n && results == n + 1, "search: \(calls) calls, \(results) results")
  return results
}

// MARK: - Explore: the login view model against an invariant, on generated timelines.

/// The login twin of Examples/scenarios/login-invariant.yaml: each run is a generated timeline
/// of up to three sets of each field in ten frames, fed to a fresh view model.
let exploreScenario = """
  flowrun: 1
  name: login explored
  tick: 100ms
  values: { a: "1", b: "123", t: true, f: false }
  signals:
    accountText:  { hot: "-a---b----" }
    passwordText: { hot: "-b--------" }
    loginEnabled:
      - combineLatest: [vm.account, vm.password]
      - map: '($0 ?? "").count > 0 && ($1 ?? "").count > 0'
  properties:
    vm.account: accountText
    vm.password: passwordText
    loginButton.enabled: loginEnabled
  invariants:
    - 'loginButton.enabled == ((vm.account ?? "").count > 0 && (vm.password ?? "").count > 0)'
  explore:
    frames: 10
    inputs:
      accountText:  { values: ["", "1", "123"], events: 0..3 }
      passwordText: { values: ["", "1", "123"], events: 0..3 }
  expect:
    loginButton.enabled: "f(ft)---t"
  """

/// `runs` generated runs against the login view model; none may fail.
func exploreLogin(_ path: String, runs: Int) throws {
  let failures = try ScenarioCheck.exploreFailures(path, root: "/", runs: runs, seed: 1) { flow in
    let vm = LoginViewModel()
    flow.drive("vm.account") { vm.account = $0 }
    flow.drive("vm.password") { vm.password = $0 }
    flow.observe("loginButton.enabled", vm.$isLoginEnabled)
  }
  precondition(failures.isEmpty, "\(failures.first!.message.prefix(2_000))")
}

// MARK: - The run

let loginPath = write(loginScenario(events), "login")
let searchPath = write(searchScenario(events), "search")
print("\(events) input events, \(reps) reps (medians, seconds)")
print("| view model | flowrun (ScenarioCheck) | TestScheduler | ratio |")
print("|---|---|---|---|")
for (name, flowrun, peer) in [
  ("login", { _ = try loginUnderFlowrun(loginPath) }, { _ = loginUnderTestScheduler(events) }),
  ("search", { _ = try searchUnderFlowrun(searchPath) }, { _ = searchUnderTestScheduler(events) }),
] as [(String, () throws -> Void, () -> Void)] where only == nil || only == name {
  var ours: [Double] = []
  var theirs: [Double] = []
  for _ in 0..<reps {
    ours.append(try seconds(flowrun))
    theirs.append(seconds(peer))
  }
  let (a, b) = (median(ours), median(theirs))
  print("| \(name) | \(String(format: "%.4f", a)) | \(String(format: "%.4f", b)) | \(String(format: "%.2f", b / a))× |")
}

let explorePath = write(exploreScenario, "explore")
let exploreRuns = 5_000
var rates: [Double] = []
for _ in 0..<reps where only == nil || only == "explore" {
  rates.append(Double(exploreRuns) / (try seconds { try exploreLogin(explorePath, runs: exploreRuns) }))
}
if !rates.isEmpty {
  print("")
  print("explore against the login view model: \(exploreRuns) runs, \(String(format: "%.0f", median(rates))) runs/s")
}
