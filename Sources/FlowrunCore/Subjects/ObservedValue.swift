/// An `observed:` property: the value an `@Observable` model's computed property gives through
/// Observation's `Observations` (SE-0475), over the properties it reads.
///
/// A subscriber gets the current value at once (the list of the inputs' current values, or the
/// one input's value). A change of an input opens a transaction, unless it sets a value equal to
/// the input's last one (the `@Observable` setter does not notify then); the transaction emits
/// once, at the next suspension — here a scheduler action at the same frame, after what is
/// already due there, so the frame's same-instant work (two inputs set at one frame) makes one
/// value, read when it is emitted. A value equal to the last emitted one is still emitted, as
/// `Observations` does. An input's error is forwarded; completions are ignored (a property's
/// owner outlives its observers).
///
/// ```
/// first:     a--b            (b and x set at frame 3)
/// last:      w--x
/// observed:  L--L            L = [a, w], then [b, x]: never [b, w], which combineLatest sends
/// ```
public final class ObservedValue: Source {
  let inputs: [any Source]
  let owner: NodeLabel
  private unowned let runtime: Runtime

  public init(inputs: [any Source], owner: NodeLabel, runtime: Runtime) {
    self.inputs = inputs
    self.owner = owner
    self.runtime = runtime
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let subscription = ObservedSubscription(downstream: observer, count: inputs.count, source: self)
    subscription.connect(inputs)
    return subscription
  }

  fileprivate func scheduleEmission(_ subscription: ObservedSubscription) {
    runtime.scheduler.schedule(at: runtime.scheduler.now, subscription)
  }
}

private final class ObservedSubscription: Disposable, ScheduledAction {
  let downstream: any Observer
  private var latest: [Value?]
  private var links: [any Disposable] = []
  private var isOpen = false
  private(set) var isCancelled = false
  private var isConnecting = true
  private let source: ObservedValue
  var owner: NodeLabel { source.owner }

  init(downstream: any Observer, count: Int, source: ObservedValue) {
    self.downstream = downstream
    self.latest = Array(repeating: nil, count: count)
    self.source = source
  }

  func connect(_ inputs: [any Source]) {
    for (index, input) in inputs.enumerated() {
      let link = input.subscribe(ObservedInput(subscription: self, index: index))
      if isCancelled {
        link.dispose()
        return
      }
      links.append(link)
    }
    isConnecting = false
    if !isCancelled, latest.allSatisfy({ $0 != nil }) { downstream.receive(.next(current)) }
  }

  private var current: Value {
    let values = latest.map { $0 ?? .null }
    return values.count == 1 ? values[0] : .list(values)
  }

  fileprivate func input(_ event: Event, at index: Int) {
    guard !isCancelled else { return }
    switch event {
    case .next(let value):
      if let last = latest[index], last == value, !isConnecting { return }
      latest[index] = value
      guard !isConnecting, !isOpen, latest.allSatisfy({ $0 != nil }) else { return }
      isOpen = true
      source.scheduleEmission(self)
    case .error:
      dispose()
      downstream.receive(event)
    case .completed:
      break
    }
  }

  func perform(_ argument: Int) {
    guard !isCancelled, isOpen else { return }
    isOpen = false
    downstream.receive(.next(current))
  }

  func dispose() {
    guard !isCancelled else { return }
    isCancelled = true
    let links = self.links
    self.links = []
    for link in links { link.dispose() }
  }
}

private final class ObservedInput: Observer {
  let subscription: ObservedSubscription
  let index: Int

  init(subscription: ObservedSubscription, index: Int) {
    self.subscription = subscription
    self.index = index
  }

  func receive(_ event: Event) {
    subscription.input(event, at: index)
  }
}
