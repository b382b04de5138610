/// Reads a tape in order, one event ahead: a hot marble schedules each event when the one
/// before it runs, which needs the next event's frame.
///
/// The event read ahead is moved in and out with swaps, and the cursor changed through a local,
/// so that no access to the reader's properties spans a call or a release (Exclusivity.swift).
final class TapeReader {
  private let tape: EventTape
  /// The next event to read from `tape`.
  private var cursor: EventTape.Cursor
  /// The event read ahead.
  private var upcoming: Recorded?

  init(_ tape: EventTape) {
    self.tape = tape
    cursor = tape.start
  }

  /// The number of events on the tape.
  var count: Int { tape.count }

  /// Skips the events before `frame` and reads ahead the first one left; returns its frame.
  func start(at frame: Int) -> Int? {
    var position = cursor
    var first = tape.next(&position)
    while let event = first, event.frame < frame { first = tape.next(&position) }
    cursor = position
    let start = first?.frame
    swap(&first, &upcoming)
    return start
  }

  /// The event read ahead, nil after the last; the one after it is read ahead in its place and
  /// its frame set in `following` (nil at the end).
  ///
  /// (Inlined, the event moved out of the one read ahead, and the frame given back through a
  /// parameter: an optional tuple, or a copy of the event, would cost some instructions per
  /// event.)
  @inline(__always)
  func advance(following: inout Int?) -> Event? {
    guard let current = upcoming.take() else { return nil }
    var position = cursor
    var next = tape.next(&position)
    cursor = position
    following = next?.frame
    swap(&next, &upcoming)
    return current.event
  }
}
