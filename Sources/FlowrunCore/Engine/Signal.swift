/// Receives the events of one subscription.
///
/// Operators are small final classes that implement `receive(_:)` and forward downstream.
/// An observer must accept events after it terminated or was disposed, and ignore them.
public protocol Observer: AnyObject {
  func receive(_ event: Event)
}

/// Ends a subscription. Disposal is immediate, idempotent and propagates upstream.
public protocol Disposable: AnyObject {
  func dispose()
}

/// A signal recipe: every call to `subscribe` starts a new subscription of the whole chain.
///
/// Hot sources, subjects, properties and command states share one timeline among their
/// subscribers; everything else is cold, exactly as in Rx and ReactiveCocoa.
public protocol Source: AnyObject {
  /// Subscribes `observer`, which may receive events before this returns (`just`, `of`,
  /// `startWith`); the returned disposable ends the subscription.
  func subscribe(_ observer: any Observer) -> any Disposable
}

/// A signal carried as a value (higher-order): an inner of `flatMap`, a command execution, or a
/// `!cold` legend value.
///
/// A live signal has a `source` to subscribe to. A recorded one has the events it sent,
/// counted in frames from the moment it was emitted. Two signal values are equal when both
/// have recorded events and those are equal, or when they are the same object.
public final class SignalValue: @unchecked Sendable {
  /// The recipe to subscribe to, when the signal is live.
  public let source: (any Source)?
  /// The events, relative to the frame the signal was emitted at, when known.
  public var events: [Recorded]? { recorded }
  // Private storage, changed moved out of the property (Exclusivity.swift).
  private var recorded: [Recorded]?

  public init(source: any Source) {
    self.source = source
    self.recorded = nil
  }

  public init(events: [Recorded]) {
    self.source = nil
    self.recorded = events
  }

  init(source: (any Source)?, events: [Recorded]) {
    self.source = source
    self.recorded = events
  }

  func append(_ event: Recorded) {
    var events: [Recorded]? = nil
    swap(&events, &recorded)  // changed moved out (Exclusivity.swift)
    events?.append(event)
    swap(&events, &recorded)
  }
}

// MARK: - Equatable

extension SignalValue: Equatable {
  public static func == (lhs: SignalValue, rhs: SignalValue) -> Bool {
    if lhs === rhs { return true }
    guard let a = lhs.events, let b = rhs.events else { return false }
    return a == b
  }
}

// MARK: - CustomStringConvertible

extension SignalValue: CustomStringConvertible {
  public var description: String {
    guard let events else { return "<signal>" }
    let parts = events.map { recorded -> String in
      switch recorded.event {
      case .next(let value): "\(recorded.frame): \(value)"
      case .error(let value): "\(recorded.frame): error \(value)"
      case .completed: "\(recorded.frame): completed"
      }
    }
    return "<signal " + parts.joined(separator: ", ") + ">"
  }
}
