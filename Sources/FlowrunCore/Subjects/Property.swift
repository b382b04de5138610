public import FlowrunDiagnostics

/// A named piece of state with a current value: `RAC(target, key)` and `RACObserve(target, key)`.
///
/// Setting it (binding, effect, timeline) sends the new value to its observers even when equal
/// to the old one, as KVO does. Observing sends the current value first.
///
/// A Combine `@Published` property (`storesAfterSending`) sends a new value to its observers
/// before it holds it (`willSet`): an expression reading the property during that delivery sees
/// the old value.
public final class Property: Source {
  public let owner: NodeLabel
  /// The current value.
  public var value: Value { current }
  // Private storage, so the optimiser sees every access (Exclusivity.swift).
  private var current: Value
  // Unowned and unchecked: the run's graph owns its runtime and every node that refers to it,
  // and nothing is delivered or disposed once the run returned (Runtime, "Ownership"). Read
  // on every event without a retain (`_withUnsafeGuaranteedRef`): an `unowned` read retains
  // and releases it.
  private let unmanagedRuntime: Unmanaged<Runtime>
  private var runtime: Runtime { unmanagedRuntime.takeUnretainedValue() }
  private let observations = SubscriberList<Observation>()
  private let storesAfterSending: Bool

  public init(initial: Value, storesAfterSending: Bool = false, owner: NodeLabel, runtime: Runtime) {
    self.current = initial
    self.storesAfterSending = storesAfterSending
    self.owner = owner
    self.unmanagedRuntime = .passUnretained(runtime)
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let observation = Observation(property: self, observer: observer)
    observations.append(observation)
    observer.receive(.next(current))
    return observation
  }

  /// Sets the value and tells every observer.
  public func set(_ newValue: Value) {
    unmanagedRuntime._withUnsafeGuaranteedRef { runtime in
      guard runtime.enter(owner) else { return }
      defer { runtime.exit() }
      if !storesAfterSending { current = newValue }
      let event = Event.next(newValue)
      runtime.trace(owner, event, note: "set")
      for observation in observations.snapshot where observation.isActive {
        observation.observer.receive(event)
      }
      if storesAfterSending { current = newValue }
    }
  }

  /// Binds the property to `source`: every value sets it; an error fails the run (RAC2 asserts
  /// there); completion ends the binding.
  public func bind(to source: any Source, at location: SourceLocation?) -> any Disposable {
    let binding = Binding(property: self, location: location)
    binding.link.attach(source.subscribe(binding))
    return binding
  }

  private func remove(_ observation: Observation) {
    observations.remove(observation)
  }

  private final class Observation: Disposable {
    // Unowned: properties belong to the graph and live for the whole run; deliveries and
    // disposals end with it.
    unowned let property: Property
    let observer: any Observer
    var isActive = true

    init(property: Property, observer: any Observer) {
      self.property = property
      self.observer = observer
    }

    func dispose() {
      guard isActive else { return }
      isActive = false
      property.remove(self)
    }
  }

  private final class Binding: Observer, Disposable {
    // Unowned and unchecked: properties belong to the graph and live for the whole run;
    // deliveries and disposals end with it. Read on every event without a retain.
    let unmanagedProperty: Unmanaged<Property>
    var property: Property { unmanagedProperty.takeUnretainedValue() }
    let location: SourceLocation?
    let link = UpstreamLink()

    init(property: Property, location: SourceLocation?) {
      self.unmanagedProperty = .passUnretained(property)
      self.location = location
    }

    func receive(_ event: Event) {
      guard !link.isFinished else { return }
      switch event {
      case .next(let value):
        unmanagedProperty._withUnsafeGuaranteedRef { $0.set(value) }
      case .error(let error):
        link.finish()
        property.runtime.fail(.bindingReceivedError(property.owner.name, error), at: location)
      case .completed:
        link.finish()
      }
    }

    func dispose() {
      link.dispose()
    }
  }
}

extension Diagnostic.Message {
  fileprivate static func bindingReceivedError(_ name: String, _ error: Value) -> Self {
    "binding '\(name)' received error \(error)"
  }
}
