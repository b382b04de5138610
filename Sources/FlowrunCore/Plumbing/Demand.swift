/// Combine's demand, as far as a pull source needs it: an observer that can say whether it
/// wants a value now, and call back when it wants one again.
///
/// Only Combine's `prepend` asks (`startWith(_:pullsOnDemand:)`), as OpenCombine's
/// `Publishers.Sequence` sends an element only while its subscriber has demand
/// (`Publishers.Sequence.swift` `Inner.request(_:)`) and `Publishers.Concatenate` subscribes
/// its suffix only when that prefix finished (`Inner.prefixReceive(completion:)`). A `prefix`
/// that ended wants nothing more; a full `flatMap(maxPublishers:)` wants a value again when an
/// inner finishes. Value-by-value steps (`map`, `filter`, `takeWhile`, `skip`, `catch`, each
/// `retry` attempt) and the tracing wrapper pass the question on; any other observer always
/// wants values (unlimited demand).
///
/// `isOpen` is also what `merge` and `flatMap` ask before subscribing their next input: a
/// downstream that ended while an earlier input delivered during its subscription (a `merge`
/// of a `just` and a cold signal before `takeWhile`) gets no further input subscribed, as
/// RxJS's closed subscriber and Combine's cancelled `FlatMap` do.
public protocol DemandingObserver: AnyObject {
  /// Whether the observer would take a value now.
  var wantsValue: Bool { get }
  /// Whether the observer may still take values (false once it ended).
  var isOpen: Bool { get }
  /// Calls `resume` once when the observer wants a value again (never when it ended).
  func whenWanting(_ resume: @escaping () -> Void)
}

/// Asks `observer` (an observer that does not say: always wants values).
@inline(__always)
func wantsValue(_ observer: any Observer) -> Bool {
  (observer as? any DemandingObserver)?.wantsValue ?? true
}

@inline(__always)
func isOpen(_ observer: any Observer) -> Bool {
  (observer as? any DemandingObserver)?.isOpen ?? true
}

/// An operator that passes the question on to its downstream until it ended (`takeWhile`,
/// `catch`): it wants a value when its downstream does.
protocol PassesDemand: DemandingObserver {
  var downstream: any Observer { get }
  var link: UpstreamLink { get }
}

extension PassesDemand {
  var wantsValue: Bool { !link.isFinished && FlowrunCore.wantsValue(downstream) }
  var isOpen: Bool { !link.isFinished && FlowrunCore.isOpen(downstream) }
  func whenWanting(_ resume: @escaping () -> Void) {
    guard !link.isFinished else { return }
    (downstream as? any DemandingObserver)?.whenWanting(resume)
  }
}

/// One wait at a time for a consumer's next pull: a pull-based async operator (`_throttle`,
/// `zip`, `combineLatest`) asks its downstream to call it back when the consumer calls `next()`
/// again, and does not ask twice before that call.
final class NextPull {
  private var isAwaited = false

  /// Calls `resume` at `observer`'s next pull; nothing when a call is already awaited or
  /// `observer` does not pace its pulls (it always wants values).
  func onNextPull(of observer: any Observer, _ resume: @escaping () -> Void) {
    guard !isAwaited, let demanding = observer as? any DemandingObserver else { return }
    isAwaited = true
    demanding.whenWanting { [weak self] in
      self?.isAwaited = false
      resume()
    }
  }
}
