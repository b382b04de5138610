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

  /// The event read ahead, with the frame of the one after it, now read ahead in its place;
  /// nil after the last.
  func advance() -> (event: Event, following: Int?)? {
    var current: Recorded? = nil
    swap(&current, &upcoming)
    guard let event = current?.event else { return nil }
    var position = cursor
    var following = tape.next(&position)
    cursor = position
    let frame = following?.frame
    swap(&following, &upcoming)
    return (event, frame)
  }
}
