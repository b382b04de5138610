import CombineSchedulers
import OpenCombine

/// The Combine operators of the differential beyond the first set (Graph.swift `unary`): each
/// node names an OpenCombine operator and its arguments; a throwing closure throws
/// `FlowError(value: "t")`-like errors the IR names, mapped back to the graph's failure type.
extension GraphRun {
  /// The publisher of `op`, or nil when `op` is not one of these.
  func combineOperator(_ op: String, _ node: [String: Any], _ build: (Any?) throws -> Flow) throws -> Flow? {
    let operators: Set<String> = [
      "compactMap", "tryMap", "tryFilter", "mapError", "first", "last", "output", "dropWhile", "prefixWhile",
      "dropUntilOutput", "prefixUntilOutput", "ignoreOutput", "reduce", "count", "min", "max", "contains",
      "allSatisfy", "removeDuplicatesBy", "subscribeOn", "receiveOn", "measureInterval", "share", "multicast",
      "collect", "collectCount", "tryScan",
    ]
    guard operators.contains(op) else { return nil }
    let src = try build(node["src"])
    switch op {
    case "compactMap":
      let f = try function(try string(node, "fn"))
      let p = try predicate(try string(node, "pred"))
      return src.compactMap { p($0) ? f($0) : nil }.eraseToAnyPublisher()
    case "tryMap":
      let f = try function(try string(node, "fn"))
      let p = try predicate(try string(node, "pred"))
      let error = FlowError(value: try string(node, "error"))
      return src.tryMap { value -> Int in
        if p(value) { throw error }
        return f(value)
      }.mapError(flowError).eraseToAnyPublisher()
    case "tryFilter":
      let p = try predicate(try string(node, "pred"))
      let q = try predicate(try string(node, "throwIf"))
      let error = FlowError(value: try string(node, "error"))
      return src.tryFilter { value -> Bool in
        if q(value) { throw error }
        return p(value)
      }.mapError(flowError).eraseToAnyPublisher()
    case "tryScan":
      let q = try predicate(try string(node, "throwIf"))
      let error = FlowError(value: try string(node, "error"))
      return src.tryScan(try int(node, "seed")) { sum, value -> Int in
        if q(value) { throw error }
        return sum + value
      }.mapError(flowError).eraseToAnyPublisher()
    case "mapError":
      let prefix = try string(node, "prefix")
      return src.mapError { FlowError(value: prefix + $0.value) }.eraseToAnyPublisher()
    case "first":
      guard let name = node["pred"] as? String else { return src.first().eraseToAnyPublisher() }
      return src.first(where: try predicate(name)).eraseToAnyPublisher()
    case "last":
      guard let name = node["pred"] as? String else { return src.last().eraseToAnyPublisher() }
      return src.last(where: try predicate(name)).eraseToAnyPublisher()
    case "output":
      let lower = try int(node, "lower")
      let upper = try int(node, "upper")
      return src.output(in: lower...upper).eraseToAnyPublisher()
    case "dropWhile":
      return src.drop(while: try predicate(try string(node, "pred"))).eraseToAnyPublisher()
    case "prefixWhile":
      return src.prefix(while: try predicate(try string(node, "pred"))).eraseToAnyPublisher()
    case "dropUntilOutput":
      return src.drop(untilOutputFrom: try build(node["other"])).eraseToAnyPublisher()
    case "prefixUntilOutput":
      return src.prefix(untilOutputFrom: try build(node["other"])).eraseToAnyPublisher()
    case "ignoreOutput":
      return src.ignoreOutput().map(absurd).eraseToAnyPublisher()
    case "reduce":
      return src.reduce(try int(node, "seed")) { $0 + $1 }.eraseToAnyPublisher()
    case "count":
      return src.count().eraseToAnyPublisher()
    case "min":
      return src.min().eraseToAnyPublisher()
    case "max":
      return src.max().eraseToAnyPublisher()
    case "contains":
      return src.contains(try int(node, "value")).map { $0 ? 1 : 0 }.eraseToAnyPublisher()
    case "allSatisfy":
      return src.allSatisfy(try predicate(try string(node, "pred"))).map { $0 ? 1 : 0 }.eraseToAnyPublisher()
    case "removeDuplicatesBy":
      return src.removeDuplicates { $1 - $0 == 1 }.eraseToAnyPublisher()
    case "subscribeOn":
      return src.subscribe(on: scheduler).eraseToAnyPublisher()
    case "receiveOn":
      return src.receive(on: scheduler).eraseToAnyPublisher()
    case "measureInterval":
      return src.measureInterval(using: scheduler).map { $0.frames }.eraseToAnyPublisher()
    case "share":
      return src.share().eraseToAnyPublisher()
    case "multicast":
      return src.multicast(subject: PassthroughSubject<Int, FlowError>()).autoconnect().eraseToAnyPublisher()
    case "collect":
      return src.collect().map { self.encode($0) }.eraseToAnyPublisher()
    default:  // collectCount
      return src.collect(try int(node, "n")).map { self.encode($0) }.eraseToAnyPublisher()
    }
  }
}

/// A thrown error back as the graph's failure.
private func flowError(_ error: any Error) -> FlowError {
  error as? FlowError ?? FlowError(value: "\(error)")
}

/// No value of `Never` exists: `ignoreOutput`'s output as the graph's values.
private func absurd(_ never: Never) -> Int {}
