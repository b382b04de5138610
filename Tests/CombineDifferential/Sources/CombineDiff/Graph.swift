import CombineSchedulers
import OpenCombine

/// Builds the Combine publisher of one graph described in JSON (the driver's IR) and runs it.
///
/// A graph is `{"until": n, "hot": [{name, events}], "subjects": [{name, kind, value}],
/// "timeline": [[frame, action, subject, value]], "out": node}`; a node is `{"op": …}` with its
/// arguments and, for operators, `"src"` (one input) or `"srcs"` (several).
struct GraphError: Error, CustomStringConvertible {
  let description: String
}

final class GraphRun {
  let scheduler = FrameScheduler(now: Frame(0))
  private var hot: [String: HotSource] = [:]
  private var passthrough: [String: PassthroughSubject<Int, FlowError>] = [:]
  private var current: [String: CurrentValueSubject<Int, FlowError>] = [:]
  /// The subscription logs of the cold marbles that carry a `log` name.
  private(set) var logs: [String: SubscriptionLog] = [:]
  /// The arrays `collect` sent, each sent as `listBase - index` (the driver decodes them).
  private(set) var lists: [[Int]] = []
  static let listBase = -1_000_000

  /// Runs the graph: hot events, then timeline actions are scheduled, then the recorder
  /// subscribes, then virtual time advances to `until` (actions due at `until` run).
  func run(_ graph: [String: Any]) throws -> Recorder {
    for source in graph["hot"] as? [[String: Any]] ?? [] {
      let name = try string(source, "name")
      hot[name] = HotSource(scheduler, try events(source["events"]))
    }
    for subject in graph["subjects"] as? [[String: Any]] ?? [] {
      let name = try string(subject, "name")
      if try string(subject, "kind") == "current" {
        current[name] = CurrentValueSubject(try int(subject, "value"))
      } else {
        passthrough[name] = PassthroughSubject()
      }
    }
    for action in graph["timeline"] as? [[Any]] ?? [] {
      try scheduleTimeline(action)
    }
    let out = try build(graph["out"])
    let recorder = Recorder(scheduler)
    out.subscribe(recorder)
    scheduler.advance(to: Frame(try int(graph, "until")))
    return recorder
  }

  private func scheduleTimeline(_ action: [Any]) throws {
    guard action.count >= 3, let frame = action[0] as? Int, let verb = action[1] as? String,
      let name = action[2] as? String
    else { throw GraphError(description: "bad timeline action \(action)") }
    let value = action.count > 3 ? action[3] : nil
    let send: (Event) -> Void
    if let subject = passthrough[name] {
      send = { event in
        switch event {
        case .next(let v): subject.send(v)
        case .completed: subject.send(completion: .finished)
        case .failed(let e): subject.send(completion: .failure(FlowError(value: e)))
        }
      }
    } else if let subject = current[name] {
      send = { event in
        switch event {
        case .next(let v): subject.send(v)
        case .completed: subject.send(completion: .finished)
        case .failed(let e): subject.send(completion: .failure(FlowError(value: e)))
        }
      }
    } else {
      throw GraphError(description: "unknown subject '\(name)'")
    }
    let event: Event
    switch verb {
    case "send": event = .next(value as? Int ?? 0)
    case "complete": event = .completed
    default: event = .failed(value as? String ?? "error")
    }
    scheduler.schedule(after: Frame(frame)) { send(event) }
  }

  // MARK: - Nodes

  func build(_ any: Any?) throws -> Flow {
    guard let node = any as? [String: Any] else { throw GraphError(description: "bad node \(String(describing: any))") }
    let op = try string(node, "op")
    switch op {
    case "hot":
      let name = try string(node, "name")
      guard let source = hot[name] else { throw GraphError(description: "unknown hot '\(name)'") }
      return source.eraseToAnyPublisher()
    case "subject":
      let name = try string(node, "name")
      if let subject = passthrough[name] { return subject.eraseToAnyPublisher() }
      if let subject = current[name] { return subject.eraseToAnyPublisher() }
      throw GraphError(description: "unknown subject '\(name)'")
    case "cold":
      var log: SubscriptionLog?
      if let name = node["log"] as? String {
        log = logs[name] ?? SubscriptionLog()
        logs[name] = log
      }
      return ColdSource(scheduler: scheduler, events: try events(node["events"]), log: log).eraseToAnyPublisher()
    case "just":
      return Just(try int(node, "value")).setFailureType(to: FlowError.self).eraseToAnyPublisher()
    case "of":
      let values = node["values"] as? [Int] ?? []
      return Publishers.Sequence<[Int], FlowError>(sequence: values).eraseToAnyPublisher()
    case "empty":
      return Empty().eraseToAnyPublisher()
    case "never":
      return Empty(completeImmediately: false).eraseToAnyPublisher()
    case "fail":
      return Fail(error: FlowError(value: try string(node, "error"))).eraseToAnyPublisher()
    case "merge":
      let inputs = try (node["srcs"] as? [Any] ?? []).map(build)
      // OpenCombine 0.14.0 has no Merge: Publishers.Sequence + flatMap is the same publisher.
      return Publishers.Sequence<[Flow], FlowError>(sequence: inputs).flatMap { $0 }.eraseToAnyPublisher()
    case "zip":
      let inputs = try (node["srcs"] as? [Any] ?? []).map(build)
      guard inputs.count == 2 else { throw GraphError(description: "zip takes two inputs") }
      return inputs[0].zip(inputs[1]).map { $0 + $1 }.eraseToAnyPublisher()
    case "record":
      let values = node["values"] as? [Int] ?? []
      let completion: Subscribers.Completion<FlowError> =
        (node["error"] as? String).map { .failure(FlowError(value: $0)) } ?? .finished
      return Record(output: values, completion: completion).eraseToAnyPublisher()
    case "future":
      // Made now (at setup, as a view model makes it): the promise subscribes its source at once.
      let source = try build(node["src"])
      var keep: AnyCancellable?
      let future = Future<Int, FlowError> { promise in
        // The work the promise waits for: its first value fulfils it (flowrun's `Future`).
        keep = source.first().sink(
          receiveCompletion: { if case .failure(let e) = $0 { promise(.failure(e)) } },
          receiveValue: { promise(.success($0)) })
      }
      retained.append(keep as Any)
      return future.eraseToAnyPublisher()
    case "deferred":
      let inner = node["src"]
      _ = try build(inner)
      return Deferred { (try? self.build(inner)) ?? Empty().eraseToAnyPublisher() }.eraseToAnyPublisher()
    default:
      if let flow = try combineOperator(op, node, { try self.build($0) }) { return flow }
      if let flow = try combineOperator2(op, node, { try self.build($0) }) { return flow }
      return try unary(op, node, try build(node["src"]))
    }
  }

  /// What the run keeps alive (a Future's subscription to its source).
  var retained: [Any] = []

  /// Records a list `collect` sent and returns its code.
  func encode(_ list: [Int]) -> Int {
    lists.append(list)
    return Self.listBase - (lists.count - 1)
  }

  private func unary(_ op: String, _ node: [String: Any], _ src: Flow) throws -> Flow {
    switch op {
    case "map":
      let f = try function(try string(node, "fn"))
      return src.map(f).eraseToAnyPublisher()
    case "filter":
      let p = try predicate(try string(node, "fn"))
      return src.filter(p).eraseToAnyPublisher()
    case "scan":
      return src.scan(try int(node, "seed")) { $0 + $1 }.eraseToAnyPublisher()
    case "removeDuplicates":
      return src.removeDuplicates().eraseToAnyPublisher()
    case "prepend":
      return src.prepend(try node["values"] as? [Int] ?? [int(node, "value")]).eraseToAnyPublisher()
    case "append":
      return src.append(try node["values"] as? [Int] ?? [int(node, "value")]).eraseToAnyPublisher()
    case "dropFirst":
      return src.dropFirst(try int(node, "n")).eraseToAnyPublisher()
    case "prefix":
      return src.prefix(try int(node, "n")).eraseToAnyPublisher()
    case "replaceError":
      let value = try int(node, "value")
      return src.replaceError(with: value).setFailureType(to: FlowError.self).eraseToAnyPublisher()
    case "replaceEmpty":
      return src.replaceEmpty(with: try int(node, "value")).eraseToAnyPublisher()
    case "retry":
      return src.retry(try int(node, "n")).eraseToAnyPublisher()
    case "debounce":
      return src.debounce(for: FrameStride(try int(node, "d")), scheduler: scheduler).eraseToAnyPublisher()
    case "throttle":
      let latest = node["latest"] as? Bool ?? true
      return src.throttle(for: FrameStride(try int(node, "d")), scheduler: scheduler, latest: latest)
        .eraseToAnyPublisher()
    case "delay":
      return src.delay(for: FrameStride(try int(node, "d")), scheduler: scheduler).eraseToAnyPublisher()
    case "timeout":
      let error = (node["customError"] as? String).map { FlowError(value: $0) }
      return src.timeout(FrameStride(try int(node, "d")), scheduler: scheduler, customError: error.map { e in { e } })
        .eraseToAnyPublisher()
    case "flatMap":
      let inner = try template(node["inner"])
      if let max = node["max"] as? Int {
        return src.flatMap(maxPublishers: .max(max), inner).eraseToAnyPublisher()
      }
      return src.flatMap(inner).eraseToAnyPublisher()
    case "switchMap":
      let inner = try template(node["inner"])
      return src.map(inner).switchToLatest().eraseToAnyPublisher()
    default:
      throw GraphError(description: "unknown operator '\(op)'")
    }
  }

  /// An inner publisher made anew for each outer value (the closure keeps the run alive: one run
  /// per graph, dropped with its scheduler): a source, optionally mapped with
  /// `$0 + outer * 10`.
  func template(_ any: Any?) throws -> (Int) -> Flow {
    guard let node = any as? [String: Any] else { throw GraphError(description: "bad template") }
    let source = node["source"]
    let addOuter = node["addOuter"] as? Bool ?? false
    _ = try build(source)  // validates the source once
    return { outer in
      let inner = (try? self.build(source)) ?? Empty().eraseToAnyPublisher()
      return addOuter ? inner.map { $0 + outer * 10 }.eraseToAnyPublisher() : inner
    }
  }

  // MARK: - Reading the IR

  private func events(_ any: Any?) throws -> [Timed] {
    guard let list = any as? [[Any]] else { throw GraphError(description: "bad events") }
    return try list.map { item in
      guard item.count >= 2, let frame = item[0] as? Int, let kind = item[1] as? String else {
        throw GraphError(description: "bad event \(item)")
      }
      switch kind {
      case "N": return Timed(frame: frame, event: .next(item.count > 2 ? item[2] as? Int ?? 0 : 0))
      case "C": return Timed(frame: frame, event: .completed)
      default: return Timed(frame: frame, event: .failed(item.count > 2 ? item[2] as? String ?? "error" : "error"))
      }
    }
  }

  func function(_ name: String) throws -> (Int) -> Int {
    switch name {
    case "$0 + 1": return { $0 + 1 }
    case "$0 * 2": return { $0 * 2 }
    case "$0 % 3": return { $0 % 3 }
    case "$0 - 4": return { $0 - 4 }
    default: throw GraphError(description: "unknown function '\(name)'")
    }
  }

  func predicate(_ name: String) throws -> (Int) -> Bool {
    switch name {
    case "$0 % 2 == 0": return { $0 % 2 == 0 }
    case "$0 > 3": return { $0 > 3 }
    case "$0 < 6": return { $0 < 6 }
    case "$0 > 7": return { $0 > 7 }
    case "$0 == 5": return { $0 == 5 }
    default: throw GraphError(description: "unknown predicate '\(name)'")
    }
  }

  func string(_ node: [String: Any], _ key: String) throws -> String {
    guard let value = node[key] as? String else { throw GraphError(description: "missing '\(key)' in \(node)") }
    return value
  }

  func int(_ node: [String: Any], _ key: String) throws -> Int {
    guard let value = node[key] as? Int else { throw GraphError(description: "missing '\(key)' in \(node)") }
    return value
  }
}
