import Flowrun
import FlowrunCore
import FlowrunMarbles
import FlowrunYAML
import Foundation

// Runs one workload `reps` times and prints a `RESULT` line in the format of the peers
// (shared/bench-peers), plus the load time.
//
//   FlowrunBench W1|W2|W3|W4 DATA_DIR [reps]
//       loads DATA_DIR/Wn.yaml (not timed: the scenario is reused), then times
//       `ScenarioRunner.run`: building the graph, scheduling the hot marbles, running virtual
//       time, recording and comparing with the full expected marble. The load time is printed.
//   FlowrunBench W5 DATA_DIR [reps]
//       times, per repetition, loading (YAML parsing included) and running the 2,000 scenario
//       documents of DATA_DIR/W5.yaml, each one a fresh scheduler and graph.
//   FlowrunBench load FILE [reps]        times loading FILE (and runs it once, untimed).
//   FlowrunBench graph FILE [reps]       times loading and running FILE.
//   FlowrunBench memory FILE             resident memory after loading and after one run.
//   FlowrunBench marbles N [reps]        times printing N recorded events as a marble (one per
//       frame, 'a' or 'b') and parsing the marble back; both are linear (target: 500 ms each
//       for a million events).
//   FlowrunBench explore FILE [reps]     times `flowrun explore` of FILE's first scenario in
//       process: 10,000 generated runs (seed 0) on the compiled scenario, none may fail; prints
//       runs/s (scenarios/explore/login-command.yaml is the login-command flow).

@inline(never) func nowNs() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// The CPU time of this process so far (one core's time when single-threaded, whatever else
/// the machine runs).
func cpuSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func fail(_ message: String) -> Never {
  print("VERIFY FAILED: \(message)")
  exit(1)
}

func bytes(_ path: String) -> [UInt8] {
  guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
  return [UInt8](data)
}

/// W1-W4 spell out 0.5-1 million distinct values (legend and marbles: 25-35 MB, 2-3 million
/// YAML nodes, marbles of 1-3 million frames), past the CLI's default limits (10 MiB, 1,000,000
/// nodes, marbles of 1,000,000 frames and characters).

func load(_ path: String) -> (LoadedFile, Double) {
  let data = bytes(path)
  let t0 = nowNs()
  let file = ScenarioLoader.load(path: path, bytes: data, limits: .init(maxFileSize: 256 << 20, maxNodes: 8_000_000),
    marbleLimits: .init(frames: 10_000_000, characters: 100_000_000))
  let dt = Double(nowNs() - t0) / 1e9
  guard !file.hasErrors, !file.scenarios.isEmpty else {
    fail("\(path) did not load: \(file.diagnostics.map(\.message).prefix(3))")
  }
  return (file, dt)
}

/// Current and peak resident memory, from /proc/self/status (Linux).
func memory() -> String {
  let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
  return status.split(separator: "\n").filter { $0.hasPrefix("VmRSS") || $0.hasPrefix("VmHWM") }
    .map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }.joined(separator: ", ")
}

func verify(_ result: ScenarioResult) {
  guard result.status == .passed else {
    let first = result.expectations.first { !$0.passed }
    fail(
      "\(result.scenario.name): \(result.status) at event \(first?.firstDifference ?? -1) "
        + "\(result.diagnostics.map(\.message).prefix(3))")
  }
}

/// Input events of each workload, as the peers count them.
func inputEvents(_ workload: String, _ n: Int) -> Int {
  switch workload {
  case "W2": n * 2
  case "W5": n * 20
  default: n
  }
}

/// Runs `body` on a thread with a large stack (deep graphs nest deliveries), waiting for it.
func onLargeStack(_ body: @escaping @Sendable () -> Void) {
  let done = DispatchSemaphore(value: 0)
  let thread = Thread {
    body()
    done.signal()
  }
  thread.stackSize = 1 << 29
  thread.start()
  done.wait()
}

func report(_ name: String, _ n: Int, _ times: [Double], events: Int, extra: String = "") {
  let sorted = times.sorted()
  let median = sorted[sorted.count / 2]
  print(
    String(
      format: "RESULT peer=flowrun workload=%@ n=%d reps=%d min=%.4f median=%.4f input_events=%d events_per_s_median=%.0f ns_per_event_median=%.1f",
      name, n, times.count, sorted[0], median, events, Double(events) / median, median * 1e9 / Double(max(events, 1)))
      + extra)
}

let args = CommandLine.arguments
guard args.count >= 3 else {
  print("usage: FlowrunBench W1|W2|W3|W4|W5 DATA_DIR [reps] | load FILE [reps] | graph FILE [reps] | marbles N [reps]")
  exit(0)
}
let workload = args[1]
let target = args[2]
let reps = args.count > 3 ? Int(args[3])! : 5

onLargeStack {
  switch workload {
  case "W1", "W2", "W3", "W4":
    let (file, loadTime) = load(target + "/\(workload).yaml")
    let scenario = file.scenarios[0]
    // The scenario's name states its size ("W1 map x10 over 1000000 values").
    let n = scenario.name.split(separator: " ").compactMap { Int($0) }.last ?? 0
    var times: [Double] = []
    for _ in 0..<reps {
      let t0 = nowNs()
      let result = ScenarioRunner.run(scenario)
      let dt = Double(nowNs() - t0) / 1e9
      verify(result)
      times.append(dt)
      print(String(format: "run %@ n=%d time=%.4fs verified=ok", workload, n, dt))
    }
    report(workload, n, times, events: inputEvents(workload, n), extra: String(format: " load_s=%.4f", loadTime))
  case "W5":
    let path = target + "/W5.yaml"
    let data = bytes(path)
    var times: [Double] = []
    var tests = 0
    for _ in 0..<reps {
      let t0 = nowNs()
      let file = ScenarioLoader.load(path: path, bytes: data)
      var passed = 0
      for scenario in file.scenarios where ScenarioRunner.run(scenario).status == .passed { passed += 1 }
      let dt = Double(nowNs() - t0) / 1e9
      guard !file.hasErrors, passed == file.scenarios.count, passed > 0 else {
        fail("W5: \(passed) of \(file.scenarios.count) passed \(file.diagnostics.map(\.message).prefix(3))")
      }
      tests = passed
      times.append(dt)
      print(String(format: "run W5 n=%d time=%.4fs verified=ok", tests, dt))
    }
    report("W5", tests, times, events: inputEvents("W5", tests))
  case "load":
    var times: [Double] = []
    var last: LoadedFile?
    for _ in 0..<reps {
      let (file, dt) = load(target)
      times.append(dt)
      last = file
    }
    verify(ScenarioRunner.run(last!.scenarios[0]))
    let size = bytes(target).count
    report("load", size, times, events: size, extra: " (events = bytes)")
  case "graph":
    var times: [Double] = []
    for _ in 0..<reps {
      let t0 = nowNs()
      let (file, _) = load(target)
      verify(ScenarioRunner.run(file.scenarios[0]))
      times.append(Double(nowNs() - t0) / 1e9)
    }
    report("graph", 10_000, times, events: 1)
  case "explore":
    let (file, _) = load(target)
    let runs = 10_000
    var times: [Double] = []
    var cpuTimes: [Double] = []
    for _ in 0..<reps {
      let t0 = nowNs()
      let c0 = cpuSeconds()
      let exploration = Explorer.explore(file.scenarios[0], options: ExploreOptions(runs: runs, seed: 0))
      let cpu = cpuSeconds() - c0
      let dt = Double(nowNs() - t0) / 1e9
      guard exploration.counterexample == nil, exploration.runs == runs else {
        fail("explore: a counterexample after \(exploration.runs) runs")
      }
      times.append(dt)
      cpuTimes.append(cpu)
      print(
        String(
          format: "run explore runs=%d time=%.4fs runs_per_s=%.0f cpu=%.4fs runs_per_cpu_s=%.0f", runs, dt,
          Double(runs) / dt, cpu, Double(runs) / cpu))
    }
    let cpuMedian = cpuTimes.sorted()[cpuTimes.count / 2]
    report(
      "explore", runs, times, events: runs,
      extra: String(format: " runs_per_cpu_s_median=%.0f (events = generated runs)", Double(runs) / cpuMedian))
  case "marbles":
    guard let n = Int(target), n > 0 else { fail("marbles: N must be a positive count, found \(target)") }
    var events: [Recorded] = []
    events.reserveCapacity(n)
    for frame in 0..<n { events.append(Recorded(frame: frame, event: .next(.string(frame % 3 == 0 ? "a" : "b")))) }
    var printTimes: [Double] = []
    var parseTimes: [Double] = []
    for _ in 0..<reps {
      var printer = MarblePrinter()
      let (t0, c0) = (nowNs(), cpuSeconds())
      let text = printer.print(events).text
      let (t1, c1) = (nowNs(), cpuSeconds())
      let parsed: ParsedMarble
      do throws(MarbleError) { parsed = try MarbleParser().parseCold(text) } catch { fail("marbles: \(error)") }
      let (t2, c2) = (nowNs(), cpuSeconds())
      guard parsed.items.count == n else { fail("marbles: \(parsed.items.count) items parsed, \(n) printed") }
      printTimes.append(Double(t1 - t0) / 1e9)
      parseTimes.append(Double(t2 - t1) / 1e9)
      print(
        String(
          format: "run marbles n=%d print=%.4fs (cpu %.4fs) parse=%.4fs (cpu %.4fs)", n, printTimes.last!, c1 - c0,
          parseTimes.last!, c2 - c1))
    }
    report("marbles-print", n, printTimes, events: n)
    report("marbles-parse", n, parseTimes, events: n)
  case "memory":
    // Peak RSS after each stage of loading and running FILE once (VmHWM of /proc/self/status).
    print("start: \(memory())")
    print(
      "strides: Value \(MemoryLayout<Value>.stride) B, Recorded \(MemoryLayout<Recorded>.stride) B, "
        + "MarbleItem \(MemoryLayout<MarbleItem>.stride) B")
    if CommandLine.arguments.count > 3 {
      let (parsed, _) = YAMLFile.parse(path: target, bytes: bytes(target), limits: .init(maxFileSize: 256 << 20, maxNodes: 8_000_000))
      print("parsed: \(memory()) \(parsed.documents.count)")
    }
    let (file, _) = load(target)
    print("loaded: \(memory())")
    verify(ScenarioRunner.run(file.scenarios[0]))
    print("ran: \(memory())")
  default:
    fail("unknown workload \(workload)")
  }
}
