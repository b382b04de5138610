import FlowrunCore

/// A `Clock` on a scenario's frames: its instant is a frame number, its durations are Swift
/// `Duration`s converted through the scenario's `tick`, and sleeping suspends until the run's
/// scheduler reaches the deadline frame — so `Task.sleep(for:clock:)`, `debounce(for:clock:)`
/// and `AsyncTimerSequence` in the code run in virtual time, without real sleeping.
///
/// Give it to the code as `any Clock<Duration>` (or a generic `C: Clock` with
/// `C.Duration == Duration`). `minimumResolution` is one frame; tolerance is ignored. A
/// duration that ends between two frames ends at the later one (never early).
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public struct FrameClock: Clock, @unchecked Sendable {
  /// An instant of the run: a frame number, carrying the frame length to convert durations.
  public struct Instant: InstantProtocol, CustomStringConvertible, @unchecked Sendable {
    public typealias Duration = Swift.Duration
    /// The frame.
    public let frame: Int
    /// The frame length in nanoseconds.
    public let tick: Int64

    /// The instant of `frame`, whose length is `tick` nanoseconds (at least 1).
    public init(frame: Int, tick: Int64) {
      self.frame = frame
      self.tick = max(tick, 1)
    }

    /// The first frame not before this instant plus `duration`.
    public func advanced(by duration: Duration) -> Instant {
      let (seconds, attoseconds) = duration.components
      let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
      let total =
        nanoseconds.overflow
        ? (seconds < 0 ? Int64.min / 2 : Int64.max / 2)
        : nanoseconds.partialValue.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
      let (quotient, remainder) = total.quotientAndRemainder(dividingBy: tick)
      let frames = remainder > 0 ? quotient + 1 : quotient
      return Instant(frame: frame.addingClamped(Int(clamping: frames)), tick: tick)
    }

    /// The frames from this instant to `other`, as time.
    public func duration(to other: Instant) -> Duration {
      .nanoseconds(Int64(other.frame - frame) * tick)
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.frame < rhs.frame }
    public static func == (lhs: Instant, rhs: Instant) -> Bool { lhs.frame == rhs.frame }
    public func hash(into hasher: inout Hasher) { hasher.combine(frame) }
    public var description: String { "frame \(frame)" }
  }

  let runtime: AsyncRuntime

  init(runtime: AsyncRuntime) {
    self.runtime = runtime
  }

  /// The run's current frame.
  public var now: Instant { Instant(frame: runtime.frame, tick: runtime.tick) }

  /// One frame: nothing shorter can be told apart.
  public var minimumResolution: Duration { .nanoseconds(runtime.tick) }

  /// Suspends until the run reaches `deadline`'s frame; throws `CancellationError` when the
  /// task is cancelled first. A sleep still pending when the run ends never ends.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let runtime = self.runtime
    let token = runtime.makeToken()
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
        runtime.sleep(token, until: deadline.frame, continuation)
      }
    } onCancel: {
      runtime.cancel(token)
    }
  }
}
