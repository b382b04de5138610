import OrderedCollections

/// swift-async-algorithms' `zip` (`Zip/ZipStateMachine.swift`, `next(for:)`,
/// `childTaskSuspended(baseIndex:continuation:)`, `elementProduced(_:)`, `upstreamFinished()`,
/// `upstreamThrew(_:)`): each `next()` of the consumer pulls one value from every base, and the
/// tuple is returned when every base gave one. A base that gave its value for this pull is not
/// pulled again until the next pull: what it sends meanwhile — more values, its end, its
/// failure — waits in the base (a marble keeps it, as the package's validation inputs do). A
/// base that returns nil while pulled ends the zip at once (the other bases are cancelled); one
/// that throws while pulled fails it at once. When one pull finds a failure waiting in one base
/// and the end in another, the end wins, whatever their order: a base's end is handled in its
/// own child task (`upstreamFinished()`), its failure ends that task and reaches the zip's task
/// one hop later, through the task group (`ZipStorage`, `group.next()` then `upstreamThrew(_:)`).
///
/// A consumer that pulls at once starts the next pull as soon as it has a tuple, so this is the
/// default's zip except for a failure of a base that already gave its value for the pull under
/// way, which is seen at the next pull. A slow consumer (`consumer: { busy: n }`) leaves every
/// base's values waiting until it pulls.
///
/// ```
/// a:                        -1-2-3-4-|
/// b:                        -a-b-c-d-|
/// zip                       -(1a)-(2b)-(3c)-(4d)-|   (each pair in its frame)
/// zip, consumer busy 3      -[1,a]--[2,b]--[3,c]--[4,d]--|
/// ```
final class AsyncZipSubscription: MultiInputSink, Disposable {
  private let source: ZipSource
  private let observer: any Observer
  private let links: InputLinks
  /// Each base's events that arrived while it was not pulled.
  private let waiting: [PendingQueue<Event>]
  /// The value each base gave for the pull under way.
  private var slots: [Value?]
  /// Whether each base is pulled (its child task awaits `next()`).
  private var pulled: [Bool]
  /// Whether the consumer waits in `next()` (the state machine's `zipping`).
  private var zipping = false
  private var isDone = false
  private var pumping = false
  private let nextPull = NextPull()

  init(source: ZipSource, observer: any Observer) {
    self.source = source
    self.observer = observer
    let count = source.inputs.count
    links = InputLinks(count: count)
    waiting = (0..<count).map { _ in PendingQueue<Event>() }
    slots = Array(repeating: nil, count: count)
    pulled = Array(repeating: false, count: count)
  }

  func start() {
    if FlowrunCore.wantsValue(observer) { beginPull() } else { awaitDemand() }
    for (index, input) in source.inputs.enumerated() {
      guard !isDone else { break }
      links.attach(input.subscribe(InputObserver(sink: self, index: index)), to: index)
    }
  }

  func receive(_ event: Event, from input: Int) {
    guard !isDone else { return }
    waiting[input].append(event)
    if pulled[input] { pump() }
  }

  /// The consumer's `next()`: every base without a value for this pull is pulled.
  private func beginPull() {
    zipping = true
    for index in slots.indices where slots[index] == nil { pulled[index] = true }
  }

  private func awaitDemand() {
    nextPull.onNextPull(of: observer) { [weak self] in
      guard let self, !self.isDone else { return }
      self.beginPull()
      self.pump()
    }
  }

  /// Hands the pulled bases their waiting events, in base order, and returns the tuple when
  /// every base gave a value.
  private func pump() {
    guard !pumping else { return }
    pumping = true
    defer { pumping = false }
    while !isDone, zipping {
      var took = false
      var failure: Event?
      for index in slots.indices where pulled[index] {
        guard let event = waiting[index].removeFirst() else { continue }
        took = true
        pulled[index] = false
        switch event {
        case .next(let value): slots[index] = value
        case .completed: return finish(with: event)
        case .error: if failure == nil { failure = event }
        }
      }
      // A failure is seen after the ends of this pull: it reaches the zip's task through the
      // task group, an end is handled in its base's own task.
      if let failure { return finish(with: failure) }
      if slots.allSatisfy({ $0 != nil }) {
        sendRow()
        continue
      }
      if !took { return }
    }
  }

  private func sendRow() {
    let row = slots.map { $0 ?? .null }
    slots = Array(repeating: nil, count: row.count)
    zipping = false
    if let keys = source.keys {
      observer.receive(.next(.map(OrderedDictionary(uniqueKeys: keys, values: row))))
    } else {
      observer.receive(.next(.list(row)))
    }
    guard !isDone else { return }
    if FlowrunCore.wantsValue(observer) { beginPull() } else { awaitDemand() }
  }

  private func finish(with event: Event) {
    isDone = true
    links.disposeAll()
    observer.receive(event)
  }

  func dispose() {
    isDone = true
    links.disposeAll()
  }
}
