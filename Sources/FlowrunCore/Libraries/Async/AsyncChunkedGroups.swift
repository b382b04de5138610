/// A test of two adjacent values (`chunked(by:)`'s closure): true when they belong together.
public typealias PairTest = (Value, Value, Int) throws(StepFailure) -> Bool

/// How `chunkedGroups` decides where a chunk ends.
public enum ChunkGrouping {
  /// `chunked(by:)`: a value joins the chunk when the test of the chunk's last value and it is
  /// true (`AsyncChunkedByGroupSequence.swift`).
  case adjacent(PairTest)
  /// `chunked(on:)`: a value joins the chunk when its projection equals the projection of the
  /// chunk's first value; a chunk is sent as `[projection, [values]]`
  /// (`AsyncChunkedOnProjectionSequence.swift`).
  case projection(Transform)
}

/// swift-async-algorithms' `chunked(by:)` with a closure and `chunked(on:)`: consecutive values
/// that belong together make one list, sent when the first value that does not belong arrives
/// (it starts the next chunk) or when the base finishes (then the end, in the same frame). A
/// failure of the base drops the chunk under way; a failed evaluation fails the sequence.
///
/// ```
/// source:   ABCdeFG|
/// chunked:  ---x-y-(z|)   (by: the same case; x = [A, B, C], y = [d, e], z = [F, G])
/// ```
extension Source {
  public func chunkedGroups(_ grouping: ChunkGrouping) -> any Source {
    OperatorSource(self) { ChunkedGroupsObserver(downstream: $0, grouping: grouping) }
  }
}

private final class ChunkedGroupsObserver: UnaryOperator {
  let downstream: any Observer
  let grouping: ChunkGrouping
  let link = UpstreamLink()
  var chunk: [Value] = []
  /// The projection of the chunk's first value (`chunked(on:)`).
  var subject: Value = .null
  var index = 0

  init(downstream: any Observer, grouping: ChunkGrouping) {
    self.downstream = downstream
    self.grouping = grouping
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    switch event {
    case .next(let value):
      defer { index += 1 }
      do throws(StepFailure) {
        try add(value)
      } catch {
        link.end(with: .error(error.value), to: downstream)
      }
    case .completed:
      link.finish()
      if !chunk.isEmpty { send() }
      downstream.receive(event)
    case .error:
      link.finish()
      downstream.receive(event)
    }
  }

  private func add(_ value: Value) throws(StepFailure) {
    switch grouping {
    case .adjacent(let belongs):
      if let last = chunk.last, try !belongs(last, value, index) { send() }
    case .projection(let project):
      let projected = try project(value, index)
      if !chunk.isEmpty, projected != subject { send() }
      if chunk.isEmpty { subject = projected }
    }
    chunk.append(value)
  }

  private func send() {
    let values = Value.list(chunk.take())
    if case .projection = grouping {
      downstream.receive(.next(.list([subject, values])))
    } else {
      downstream.receive(.next(values))
    }
  }

  func dispose() {
    link.dispose()
  }
}
