/// One step of a traced signal chain: the node it belongs to and what it does.
///
/// A scenario's signals are chains of steps (`combineLatest`, then `map`, …). When a run is
/// traced, every step's source is wrapped in a ``TracingSource`` that reports each event the
/// step sends, so that a trace can say which step produced what.
public struct TraceStep: Sendable, Hashable {
  /// What kind of step this is, for deciding what a trace shows.
  public enum Role: Sendable, Hashable {
    /// A step that makes events: `just`, `combineLatest`…
    case source
    /// A source that schedules events of its own (a marble, a timer); the runtime traces them
    /// under the source's node too.
    case scheduling
    /// A call of a service.
    case call
    /// A reference to another named node (`from: vm.account`); its events are that node's.
    case reference(String)
    /// An operator applied to the steps before it.
    case `operator`
  }

  /// The named signal (or other owner: a command's work, an effect) the step belongs to; nil
  /// for an anonymous inline chain.
  public var owner: String?
  /// The step's name as written (`map`, `flatMapLatest`, `from vm.account`, a `name:` label).
  public var name: String
  public var role: Role
  /// The step's position in its chain, from 0 (the source).
  public var index: Int
  /// Whether this step's events are the events of its owner (the last step of a named signal,
  /// or of an inline chain).
  public var isOutput: Bool
  /// Whether the step is the root of a template (the inner signal of `flatMap`, a command's
  /// work, a service's response).
  public var isTemplate: Bool
  /// Which instantiation of a chain the step belongs to: the steps of one named signal share
  /// one number, and each instance of a template (each inner of a `flatMap`, each execution's
  /// work) gets its own, so that a diagram can draw one lane per instance.
  public var instance: Int
  /// How the step drops values, when dropping values is part of what it does (its definition
  /// says so); nil for a step that passes every value on or holds values for later.
  public var drops: Drops?

  public init(
    owner: String?, name: String, role: Role, index: Int, isOutput: Bool, isTemplate: Bool = false, instance: Int = 0,
    drops: Drops? = nil
  ) {
    self.owner = owner
    self.name = name
    self.role = role
    self.index = index
    self.isOutput = isOutput
    self.isTemplate = isTemplate
    self.instance = instance
    self.drops = drops
  }

  /// How a step drops values and why, in the step's own words (`trace --steps`).
  public struct Drops: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
      /// A value it receives that causes no delivery of the next step was dropped (`filter`).
      case unsent
      /// It holds one value at a time: a value replaced by a newer one before it was sent was
      /// dropped (`debounce`).
      case replaced
      /// A value it receives that starts no inner subscription was dropped (a `flatMap` that is
      /// full and drops instead of waiting).
      case unsubscribed
    }

    public var kind: Kind
    /// Why a value was dropped (`same as before`).
    public var reason: String
    /// For `replaced`: why a value still held when the step completed was dropped; nil when the
    /// step sends it then.
    public var atEnd: String?

    public init(_ kind: Kind, _ reason: String, atEnd: String? = nil) {
      self.kind = kind
      self.reason = reason
      self.atEnd = atEnd
    }
  }
}

/// A tracer that also hears every step of every chain (``TracingSource``), its subscriptions
/// and disposals, not only the shared nodes that ``Runtime/trace(_:_:note:)`` reports.
public protocol StepTracer: Tracer {
  /// Called once, before the run, with the runtime whose scheduler gives the frame and the
  /// number of the scheduler action in progress.
  func attach(_ runtime: Runtime)
  /// `step`'s `subscription`-th subscription (from 1) sends `event`; everything reported until
  /// the matching ``didDeliver()`` was caused by it.
  func willDeliver(step: TraceStep, subscription: Int, event: Event)
  /// The delivery announced by the last unmatched ``willDeliver(step:subscription:event:)``
  /// returned.
  func didDeliver()
  /// `step` got its `subscription`-th subscriber.
  func subscribed(step: TraceStep, subscription: Int)
  /// The `subscription`-th subscription of `step` was disposed before it terminated.
  func disposed(step: TraceStep, subscription: Int)
}

/// A step's source wrapped for tracing: reports each subscription, each event (before
/// forwarding it) and each disposal, and changes nothing else.
///
/// Only instantiated when a run is traced, so tracing costs nothing when it is off.
public final class TracingSource: Source {
  public let upstream: any Source
  public let step: TraceStep
  private let tracer: any StepTracer
  private var subscriptions = 0

  public init(_ upstream: any Source, step: TraceStep, tracer: any StepTracer) {
    self.upstream = upstream
    self.step = step
    self.tracer = tracer
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    subscriptions += 1
    let number = subscriptions
    tracer.subscribed(step: step, subscription: number)
    let tracing = TracingObserver(downstream: observer, step: step, subscription: number, tracer: tracer)
    tracing.attach(upstream.subscribe(tracing))
    return tracing
  }
}

/// One traced subscription: reports and forwards events, reports an early disposal.
private final class TracingObserver: Observer, Disposable {
  private let downstream: any Observer
  private let step: TraceStep
  private let subscription: Int
  private let tracer: any StepTracer
  private var upstream: (any Disposable)?
  private var isDone = false

  init(downstream: any Observer, step: TraceStep, subscription: Int, tracer: any StepTracer) {
    self.downstream = downstream
    self.step = step
    self.subscription = subscription
    self.tracer = tracer
  }

  func attach(_ disposable: any Disposable) {
    if isDone {
      // Terminated inside `subscribe`: nothing left to dispose but upstream's own resources.
      disposable.dispose()
    } else {
      upstream = disposable
    }
  }

  func receive(_ event: Event) {
    guard !isDone else { return downstream.receive(event) }
    if event.isTerminal {
      isDone = true
      upstream = nil
    }
    tracer.willDeliver(step: step, subscription: subscription, event: event)
    downstream.receive(event)
    tracer.didDeliver()
  }

  func dispose() {
    guard !isDone else { return }
    isDone = true
    tracer.disposed(step: step, subscription: subscription)
    let upstream = self.upstream
    self.upstream = nil
    upstream?.dispose()
  }
}

extension TracingObserver: DemandingObserver {
  var wantsValue: Bool { FlowrunCore.wantsValue(downstream) }
  var isOpen: Bool { !isDone && FlowrunCore.isOpen(downstream) }
  func whenWanting(_ resume: @escaping () -> Void) {
    (downstream as? any DemandingObserver)?.whenWanting(resume)
  }
}
