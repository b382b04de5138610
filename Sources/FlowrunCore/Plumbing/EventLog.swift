/// An append-only tape of events (a recorder's): appended moved out of its property
/// (Exclusivity.swift), so that appending needs no dynamic exclusivity check and the tape,
/// never copied, grows in place.
final class EventLog {
  private var events = EventTape()

  /// The events so far.
  var tape: EventTape { events }

  var count: Int { events.count }

  @inline(__always)
  func append(_ recorded: Recorded) {
    var tape = EventTape()
    swap(&tape, &events)
    tape.append(recorded)
    swap(&tape, &events)
  }
}
