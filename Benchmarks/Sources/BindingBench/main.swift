// The example view models driven through N input events (default 100,000), in one process:
// under flowrun's scheduler (ScenarioCheck on a generated scenario: the load, the bound run,
// recording and comparison with the full expected marbles) and under combine-schedulers'
// TestScheduler (a test that builds its timed inputs and expected (time, value) lists, sets
// each input after advancing to its instant, records every output with its time and compares
// the recorded lists with the expected ones).
//   swift build -c release --package-path Benchmarks --scratch-path .build-bench
//   .build-bench/release/BindingBench [events] [reps] [login|search|explore|clockless][:flowrun|:peer]
// Then ScenarioCheck.exploreFailures against the login view model: generated runs per second;
// then ten virtual minutes of a view model that sleeps with a plain `Task.sleep` (no clock).
import CombineSchedulers
import FlowrunTesting
import Foundation
import OpenCombineShim
import ViewModels

let arguments = CommandLine.arguments
let events = arguments.count > 1 ? Int(arguments[1]) ?? 100_000 : 100_000
let reps = arguments.count > 2 ? Int(arguments[2]) ?? 3 : 3
/// Only the workload of this name (`login`, `search`, `explore`), to profile one; with a side
/// (`login:flowrun`, `login:peer`), only that side of it, to count its instructions alone
/// (`perf stat -e instructions:u`, which a loaded machine does not change).
let selection = arguments.count > 3 ? arguments[3].split(separator: ":").map(String.init) : []
let only = selection.first
let side = selection.count > 1 ? selection[1] : nil
typealias Time = FlowScheduler.SchedulerTimeType
let frame = Time.Stride.milliseconds(100)
/// The instant of frame `f` (a tick of 100 ms).
func at(frame f: Int) -> Time { Time(nanoseconds: Int64(f) * 100_000_000) }

/// Wall-clock and CPU seconds of `body` (CPU: this thread's, which a busy machine does not
/// stretch as it does the wall clock; the run is single-threaded).
func seconds(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
  func cpuNow() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }
  let start = ContinuousClock.now
  let cpuStart = cpuNow()
  try body()
  let cpu = cpuNow() - cpuStart
  let elapsed = ContinuousClock.now - start
  return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, cpu)
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

/// What a hand-written TestScheduler test records of an output: each value with the instant
/// it came at, compared as a whole with the expected list (`XCTAssertEqual(recorded, expected)`).
struct Recorded<Value: Equatable>: Equatable {
  var time: Time
  var value: Value
}

/// The login test as written against combine-schedulers: the inputs as a list of timed sets,
/// the expected button states computed from them (the rule applied to the fields' values after
/// each set), the test scheduler advanced to each set, every emission recorded with its time,
/// and the recorded list compared with the expected one.
func loginUnderTestScheduler(_ n: Int) -> Int {
  enum Field { case account, password }
  var inputs: [(time: Time, field: Field, text: String)] = []
  inputs.reserveCapacity(n)
  for k in 0..<(n / 2) {
    inputs.append((at(frame: 2 * k + 1), .account, k % 2 == 0 ? "1" : "12"))
    inputs.append((at(frame: 2 * k + 2), .password, k % 2 == 0 ? "123" : "1234"))
  }
  var expected = [Recorded(time: Time(nanoseconds: 0), value: false)]
  expected.reserveCapacity(n + 1)
  var (account, password) = ("", "")
  for input in inputs {
    if input.field == .account { account = input.text } else { password = input.text }
    expected.append(Recorded(time: input.time, value: !account.isEmpty && !password.isEmpty))
  }

  let scheduler = TestScheduler<Time, Never>(now: Time(nanoseconds: 0))
  let vm = LoginViewModel()
  var recorded: [Recorded<Bool>] = []
  let subscription = vm.$isLoginEnabled.sink { recorded.append(Recorded(time: scheduler.now, value: $0)) }
  for input in inputs {
    scheduler.advance(to: input.time)
    switch input.field {
    case .account: vm.account = input.text
    case .password: vm.password = input.text
    }
  }
  scheduler.run()
  subscription.cancel()
  precondition(recorded == expected, "login: recorded \(recorded.count) values, expected \(expected.count)")
  return recorded.count
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

/// The search test as written against combine-schedulers: the typed queries as a timed list,
/// the expected calls (each query 300 ms after it was typed: the next comes later, and none
/// repeats the one before) and results (the initial nil, then each call's answer a frame after
/// it), the service a stub that logs its call with its time and answers a frame later on the
/// same scheduler, every emission recorded with its time, both lists compared.
func searchUnderTestScheduler(_ n: Int) -> Int {
  var typed: [Recorded<String>] = []
  typed.reserveCapacity(n)
  for k in 0..<n {
    typed.append(Recorded(time: at(frame: 4 * k + 1), value: k % 2 == 0 ? "s" : "sw"))
  }
  let expectedCalls = typed.map { Recorded(time: $0.time.advanced(by: .milliseconds(300)), value: $0.value) }
  let expectedResults =
    [Recorded<[String]?>(time: Time(nanoseconds: 0), value: nil)]
    + expectedCalls.map { Recorded(time: $0.time.advanced(by: frame), value: ["x"]) }

  let scheduler = TestScheduler<Time, Never>(now: Time(nanoseconds: 0))
  var calls: [Recorded<String>] = []
  let vm = SearchViewModel(
    scheduler: scheduler,
    search: { query in
      calls.append(Recorded(time: scheduler.now, value: query))
      return Just(["x"]).delay(for: frame, scheduler: scheduler).eraseToAnyPublisher()
    })
  var results: [Recorded<[String]?>] = []
  let subscription = vm.$results.sink { results.append(Recorded(time: scheduler.now, value: $0)) }
  for query in typed {
    scheduler.advance(to: query.time)
    vm.query = query.value
  }
  scheduler.run()
  subscription.cancel()
  precondition(calls == expectedCalls, "search: \(calls.count) calls, expected \(expectedCalls.count)")
  precondition(results == expectedResults, "search: \(results.count) results, expected \(expectedResults.count)")
  return results.count
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

// MARK: - Ten minutes of a view model that takes no clock

/// A search field typed every 400 ms for ten minutes (6,000 frames of 100 ms): each keystroke
/// settles after the view model's plain `Task.sleep(for: .milliseconds(300))`, then calls the
/// service, which answers 100 ms later.
func clocklessScenario() -> String {
  var typed = Array(repeating: Character("-"), count: 6_000)
  var calls = typed
  for k in 0..<1_499 {
    let key: Character = k % 2 == 0 ? "a" : "b"
    typed[4 * k + 1] = key
    calls[4 * k + 4] = key
  }
  return """
    flowrun: 1
    name: Ten minutes of search as you type
    tick: 100ms
    values: { a: "swift", b: "rx" }
    signals:
      queryText: { hot: "\(String(typed))" }
      query:
        - from: queryText
        - debounce: 300ms
        - distinctUntilChanged
      results:
        - from: query
        - flatMapLatest: { call: searchAPI, with: outer }
    services:
      searchAPI: { cold: "-(r|)", values: { r: [Swift] } }
    expect:
      searchAPI.calls: "\(String(calls))"
    """
}

/// The check of `ClocklessSearchViewModel` on the ten-minute scenario; it must pass.
@MainActor func clocklessUnderFlowrun(_ path: String) throws {
  let failures = try ScenarioCheck.failures(path, root: "/") { flow in
    let api = flow.asyncService("searchAPI", returning: [String].self)
    let vm = ClocklessSearchViewModel(search: { try await api($0) })
    flow.drive("queryText") { vm.query = $0 }
  }
  precondition(failures.isEmpty, "\(failures.first!.message.prefix(2_000))")
}

// MARK: - The run

let loginPath = write(loginScenario(events), "login")
let searchPath = write(searchScenario(events), "search")
print("\(events) input events, \(reps) reps (medians, seconds; ratio = TestScheduler / flowrun, > 1: flowrun faster)")
print("| view model | flowrun wall | TestScheduler wall | ratio (wall) | flowrun CPU | TestScheduler CPU | ratio (CPU) |")
print("|---|---|---|---|---|---|---|")
/// The targets missed (flowrun's CPU time above the peer's, explore under 1,000 runs per CPU
/// second): the process exits 1 when there is one.
var missed: [String] = []
for (name, flowrun, peer) in [
  ("login", { _ = try loginUnderFlowrun(loginPath) }, { _ = loginUnderTestScheduler(events) }),
  ("search", { _ = try searchUnderFlowrun(searchPath) }, { _ = searchUnderTestScheduler(events) }),
] as [(String, () throws -> Void, () -> Void)] where only == nil || only == name {
  var ours: [(wall: Double, cpu: Double)] = []
  var theirs: [(wall: Double, cpu: Double)] = []
  for _ in 0..<reps {
    ours.append(side == nil || side == "flowrun" ? try seconds(flowrun) : (1, 1))
    theirs.append(side == nil || side == "peer" ? seconds(peer) : (1, 1))
  }
  let (a, b) = (median(ours.map(\.wall)), median(theirs.map(\.wall)))
  let (c, d) = (median(ours.map(\.cpu)), median(theirs.map(\.cpu)))
  func f(_ x: Double) -> String { String(format: "%.4f", x) }
  print(
    "| \(name) | \(f(a)) | \(f(b)) | \(String(format: "%.2f", b / a))× | \(f(c)) | \(f(d)) | \(String(format: "%.2f", d / c))× |"
  )
  if side == nil, d / c < 1 { missed.append("\(name): flowrun slower than TestScheduler (CPU ratio \(String(format: "%.2f", d / c))×)") }
}

let explorePath = write(exploreScenario, "explore")
let exploreRuns = 5_000
var rates: [(wall: Double, cpu: Double)] = []
for _ in 0..<reps where only == nil || only == "explore" {
  let time = try seconds { try exploreLogin(explorePath, runs: exploreRuns) }
  rates.append((Double(exploreRuns) / time.wall, Double(exploreRuns) / time.cpu))
}
if !rates.isEmpty {
  print("")
  print(
    "explore against the login view model: \(exploreRuns) runs, \(String(format: "%.0f", median(rates.map(\.wall)))) runs/s"
      + " (wall clock), \(String(format: "%.0f", median(rates.map(\.cpu)))) runs per CPU second")
  if median(rates.map(\.cpu)) < 1_000 { missed.append("explore: under 1,000 runs per CPU second") }
}
let clocklessPath = write(clocklessScenario(), "clockless")
var clockless: [(wall: Double, cpu: Double)] = []
for _ in 0..<reps where only == nil || only == "clockless" {
  clockless.append(try seconds { try clocklessUnderFlowrun(clocklessPath) })
}
if !clockless.isEmpty {
  let (wall, cpu) = (median(clockless.map(\.wall)), median(clockless.map(\.cpu)))
  print("")
  print(
    "clockless search (plain Task.sleep, no clock given): 10 min of virtual time, 1,499 keystrokes, "
      + "\(String(format: "%.4f", wall)) s wall, \(String(format: "%.4f", cpu)) s CPU")
  if cpu >= 1 { missed.append("clockless: ten virtual minutes took a second of CPU or more") }
}
print("")
print(
  missed.isEmpty
    ? "targets met (flowrun at least as fast; explore at least 1,000 runs/s; ten clockless minutes under 1 s)"
    : "targets missed:")
for line in missed { print("  " + line) }
if !missed.isEmpty { exit(1) }
