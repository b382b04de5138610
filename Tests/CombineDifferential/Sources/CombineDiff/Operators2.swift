import Foundation
import OpenCombine

/// The Combine operators of the differential's third set: the throwing and `by:`/`where:` forms
/// of the reducing operators, `catch`/`tryCatch`, `makeConnectable`/`multicast` with and without
/// `autoconnect`, `buffer`, `encode` + `decode`, and `replaceNil` over an `Int?` map (Graph.swift `build` asks these first).
extension GraphRun {
  /// The publisher of `op`, or nil when `op` is not one of these.
  func combineOperator2(_ op: String, _ node: [String: Any], _ build: (Any?) throws -> Flow) throws -> Flow? {
    let operators: Set<String> = [
      "tryCompactMap", "tryReduce", "comparison", "containsWhere", "catch", "tryCatch", "connectable", "buffer",
      "encodeDecode", "replaceNil",
    ]
    guard operators.contains(op) else { return nil }
    let src = try build(node["src"])
    switch op {
    case "tryCompactMap":
      let f = try function(try string(node, "fn"))
      let p = try predicate(try string(node, "pred"))
      let q = try predicate(try string(node, "throwIf"))
      let error = FlowError(value: try string(node, "error"))
      return src.tryCompactMap { value -> Int? in
        if q(value) { throw error }
        return p(value) ? f(value) : nil
      }.mapError(anyFlowError).eraseToAnyPublisher()
    case "replaceNil":
      // An Int? publisher (a map that gives nil where `pred` holds), as replaceNil needs.
      let f = try function(try string(node, "fn"))
      let p = try predicate(try string(node, "pred"))
      return src.map { p($0) ? nil : f($0) }.replaceNil(with: try int(node, "value")).eraseToAnyPublisher()
    case "tryReduce":
      let q = try predicate(try string(node, "throwIf"))
      let error = FlowError(value: try string(node, "error"))
      return src.tryReduce(try int(node, "seed")) { sum, value -> Int in
        if q(value) { throw error }
        return sum + value
      }.mapError(anyFlowError).eraseToAnyPublisher()
    case "comparison":
      // areInIncreasingOrder($0, $1) is `$0 < $1` or `$0 > $1`; with `error` it throws when
      // $0 + $1 == throwSum.
      let less = try string(node, "by") == "$0 < $1"
      let order: (Int, Int) -> Bool = less ? { $0 < $1 } : { $0 > $1 }
      let isMax = try string(node, "kind") == "max"
      guard let e = node["error"] as? String else {
        return (isMax ? src.max(by: order).eraseToAnyPublisher() : src.min(by: order).eraseToAnyPublisher())
      }
      let error = FlowError(value: e)
      let sum = try int(node, "throwSum")
      let throwing: (Int, Int) throws -> Bool = { a, b in
        if a + b == sum { throw error }
        return order(a, b)
      }
      let flow = isMax ? src.tryMax(by: throwing).eraseToAnyPublisher() : src.tryMin(by: throwing).eraseToAnyPublisher()
      return flow.mapError(anyFlowError).eraseToAnyPublisher()
    case "containsWhere":
      let p = try predicate(try string(node, "pred"))
      guard let e = node["error"] as? String else {
        return src.contains(where: p).map { $0 ? 1 : 0 }.eraseToAnyPublisher()
      }
      let q = try predicate(try string(node, "throwIf"))
      let error = FlowError(value: e)
      return src.tryContains { value -> Bool in
        if q(value) { throw error }
        return p(value)
      }.map { $0 ? 1 : 0 }.mapError(anyFlowError).eraseToAnyPublisher()
    case "catch":
      let handler = try template(node["inner"])
      return src.catch { _ in handler(0) }.eraseToAnyPublisher()
    case "tryCatch":
      let handler = try template(node["inner"])
      let thrown = (node["throw"] as? String).map { FlowError(value: $0) }
      return src.tryCatch { _ -> Flow in
        if let thrown { throw thrown }
        return handler(0)
      }.mapError(anyFlowError).eraseToAnyPublisher()
    case "connectable":
      // makeConnectable needs Failure == Never: the graph writes replaceError(with:) before it.
      let auto = node["autoconnect"] as? Bool ?? true
      if try string(node, "kind") == "makeConnectable" {
        let connectable = src.replaceError(with: try int(node, "value")).makeConnectable()
        if auto { return connectable.autoconnect().setFailureType(to: FlowError.self).eraseToAnyPublisher() }
        retained.append(connectable.connect())
        return connectable.setFailureType(to: FlowError.self).eraseToAnyPublisher()
      }
      let connectable = src.multicast(subject: PassthroughSubject<Int, FlowError>())
      if auto { return connectable.autoconnect().eraseToAnyPublisher() }
      retained.append(connectable.connect())
      return connectable.eraseToAnyPublisher()
    case "buffer":
      let prefetch: Publishers.PrefetchStrategy = try string(node, "prefetch") == "keepFull" ? .keepFull : .byRequest
      let full: Publishers.BufferingStrategy<FlowError> =
        try string(node, "whenFull") == "dropNewest" ? .dropNewest : .dropOldest
      return src.buffer(size: try int(node, "size"), prefetch: prefetch, whenFull: full).eraseToAnyPublisher()
    default:  // encodeDecode
      return src.encode(encoder: JSONEncoder()).decode(type: Int.self, decoder: JSONDecoder())
        .mapError(anyFlowError).eraseToAnyPublisher()
    }
  }
}

/// A thrown error back as the graph's failure.
private func anyFlowError(_ error: any Error) -> FlowError {
  error as? FlowError ?? FlowError(value: "\(error)")
}
