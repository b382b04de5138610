import AsyncAlgorithms

/// A note editor (Examples/scenarios/async-note-editor.yaml) with swift-async-algorithms'
/// `merge`: the title's and the body's edits are one sequence of edits; autosave takes the
/// latest edit after a 300 ms pause (`merge` then `debounce`); the sync sends the edits in
/// batches of two, or what has come every 500 ms (`merge` then `chunks(ofCount:or:)`).
///
/// `merge` holds its lock across a continuation (`MergeStorage.next()`), which is safe only
/// if the task holding it goes on at once; the run's `AsyncRuntime` makes sure of that
/// (docs/testing-real-code.md, "Async code").
@MainActor
public final class AsyncNoteEditorViewModel<C: Clock> where C.Duration == Duration {
  public typealias Edits = AsyncMerge2Sequence<AsyncStream<String>, AsyncStream<String>>

  /// The title field: each set is an edit.
  public var title = "" {
    didSet { for listener in listeners { listener.title.yield(title) } }
  }
  /// The body field: each set is an edit.
  public var body = "" {
    didSet { for listener in listeners { listener.body.yield(body) } }
  }

  private let clock: C
  private var listeners: [(title: AsyncStream<String>.Continuation, body: AsyncStream<String>.Continuation)] = []

  public init(clock: C) {
    self.clock = clock
  }

  /// Every edit of either field, from now on, in the order they were made.
  public func edits() -> Edits {
    let (titles, title) = AsyncStream.makeStream(of: String.self)
    let (bodies, body) = AsyncStream.makeStream(of: String.self)
    listeners.append((title, body))
    return merge(titles, bodies)
  }

  /// What autosave writes: the latest edit once the user has paused for 300 ms.
  public func saves() -> AsyncDebounceSequence<Edits, C> {
    edits().debounce(for: .milliseconds(300), clock: clock)
  }

  /// What the sync sends: the edits two at a time, or those that came in the last 500 ms.
  public func batches() -> AsyncChunksOfCountOrSignalSequence<Edits, [String], AsyncTimerSequence<C>> {
    edits().chunks(ofCount: 2, or: .repeating(every: .milliseconds(500), clock: clock))
  }

  deinit {
    for listener in listeners {
      listener.title.finish()
      listener.body.finish()
    }
  }
}
