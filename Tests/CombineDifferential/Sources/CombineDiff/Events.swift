import OpenCombine

/// The failure every graph carries: flowrun's error value (a string).
struct FlowError: Error, Equatable {
  let value: String
}

typealias Flow = AnyPublisher<Int, FlowError>

/// One event of a marble at an absolute or relative frame.
enum Event: Equatable {
  case next(Int)
  case completed
  case failed(String)
}

struct Timed: Equatable {
  let frame: Int
  let event: Event
}

/// Subscribes at setup with unlimited demand and records every event with its frame. Events
/// after the first terminal event break the Publisher contract: they are counted, not recorded
/// (OpenCombine 0.14.0's Zip can send a second terminal event, see docs/libraries.md).
final class Recorder: Subscriber {
  typealias Input = Int
  typealias Failure = FlowError
  let combineIdentifier = CombineIdentifier()
  private let scheduler: FrameScheduler
  private(set) var events: [Timed] = []
  private(set) var afterTerminal = 0
  private var terminated = false
  private var subscription: (any Subscription)?

  init(_ scheduler: FrameScheduler) { self.scheduler = scheduler }

  func receive(subscription: any Subscription) {
    self.subscription = subscription
    subscription.request(.unlimited)
  }

  func receive(_ input: Int) -> Subscribers.Demand {
    record(.next(input))
    return .none
  }

  func receive(completion: Subscribers.Completion<FlowError>) {
    switch completion {
    case .finished: record(.completed)
    case .failure(let error): record(.failed(error.value))
    }
  }

  private func record(_ event: Event) {
    guard !terminated else {
      afterTerminal += 1
      return
    }
    if case .next = event {} else { terminated = true }
    events.append(Timed(frame: scheduler.now.value, event: event))
  }
}

/// A subscription that delivers values only while its subscriber has demand (a push source, as
/// PassthroughSubject's conduit: a value sent without demand is dropped).
final class PushSubscription: Subscription {
  private var downstream: AnySubscriber<Int, FlowError>?
  private var demand = Subscribers.Demand.none
  var onCancel: (() -> Void)?
  /// Called once when the subscription ends: cancelled, or its terminal event sent.
  var onEnd: (() -> Void)?

  init(_ downstream: AnySubscriber<Int, FlowError>) { self.downstream = downstream }

  var isActive: Bool { downstream != nil }

  func request(_ demand: Subscribers.Demand) { self.demand += demand }

  func cancel() {
    downstream = nil
    onCancel?()
    onCancel = nil
    end()
  }

  private func end() {
    onEnd?()
    onEnd = nil
  }

  func send(_ event: Event) {
    guard let downstream else { return }
    switch event {
    case .next(let value):
      guard demand > .none else { return }
      demand -= 1
      demand += downstream.receive(value)
    case .completed:
      self.downstream = nil
      end()
      downstream.receive(completion: .finished)
    case .failed(let error):
      self.downstream = nil
      end()
      downstream.receive(completion: .failure(FlowError(value: error)))
    }
  }
}

/// flowrun's `hot` marble: events at absolute frames, scheduled before anything subscribes,
/// shared by every subscriber; a subscriber that comes after the terminal event gets nothing
/// (semantics.md, Hot and cold).
final class HotSource: Publisher {
  typealias Output = Int
  typealias Failure = FlowError
  private var subscriptions: [PushSubscription] = []

  init(_ scheduler: FrameScheduler, _ events: [Timed]) {
    for timed in events where timed.frame >= 0 {
      scheduler.schedule(after: Frame(timed.frame)) { self.send(timed.event) }
    }
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == FlowError {
    let subscription = PushSubscription(AnySubscriber(subscriber))
    subscriptions.append(subscription)
    subscriber.receive(subscription: subscription)
  }

  private func send(_ event: Event) {
    let current = subscriptions
    if case .next = event {} else { subscriptions = [] }
    for subscription in current { subscription.send(event) }
  }
}

/// flowrun's `cold` marble: each subscription schedules its events, counted from its own frame,
/// when it subscribes; cancelling stops them.
/// Its subscriptions are logged in `log` (flowrun's `<signal>.subscriptions`): the frame of each
/// subscription and of its end (cancelled, or terminated).
struct ColdSource: Publisher {
  typealias Output = Int
  typealias Failure = FlowError
  let scheduler: FrameScheduler
  let events: [Timed]
  var log: SubscriptionLog?

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == FlowError {
    let subscription = PushSubscription(AnySubscriber(subscriber))
    if let log {
      let index = log.subscribed(at: scheduler.now.value)
      subscription.onEnd = { [scheduler] in log.ended(index, at: scheduler.now.value) }
    }
    subscriber.receive(subscription: subscription)
    let start = scheduler.now.value
    for timed in events {
      scheduler.schedule(after: Frame(start + timed.frame)) { subscription.send(timed.event) }
    }
  }
}

/// The subscriptions of one cold marble: `[start, end]` per subscription, `end` nil while open.
final class SubscriptionLog {
  private(set) var entries: [[Int?]] = []

  func subscribed(at frame: Int) -> Int {
    entries.append([frame, nil])
    return entries.count - 1
  }

  func ended(_ index: Int, at frame: Int) {
    if entries[index][1] == nil { entries[index][1] = frame }
  }
}
