/// One event of a signal. A signal's events follow the grammar `next* (error | completed)?`.
public enum Event: Sendable, Equatable {
  case next(Value)
  case error(Value)
  case completed

  public var isTerminal: Bool {
    if case .next = self { return false }
    return true
  }
}

/// An event with the frame it happened at.
public struct Recorded: Sendable, Equatable {
  public var frame: Int
  public var event: Event

  public init(frame: Int, event: Event) {
    self.frame = frame
    self.event = event
  }
}
