/// A stubbed endpoint: each call logs its input on `<service>.calls` and answers with the
/// signal its responder makes for that input and call number.
public final class Service {
  /// Makes the response to the `call`-th call (from 0) with `input`.
  public typealias Respond = (Value, Int) throws(StepFailure) -> any Source

  public let owner: NodeLabel
  /// `<service>.calls`: the input of every call.
  public let calls: Subject
  private let respond: Respond
  private var count = 0
  // Unowned: the run's graph owns its runtime and every node that refers to it (Runtime,
  // "Ownership").
  private unowned let runtime: Runtime
  /// Whether calls in flight are kept (``callsInFlight``), for an exhaustive run.
  public var tracksCalls = false
  /// The calls whose response has neither ended nor been disposed: call number → the frame
  /// it was made at (only while ``tracksCalls``).
  public private(set) var callsInFlight: [Int: Int] = [:]

  public init(owner: NodeLabel, runtime: Runtime, respond: @escaping Respond) {
    self.owner = owner
    self.respond = respond
    self.runtime = runtime
    calls = Subject(kind: .publish, owner: NodeLabel("\(owner.name).calls", at: owner.location), runtime: runtime)
  }

  /// Logs a call and returns its response.
  public func call(_ input: Value) throws(StepFailure) -> any Source {
    let number = count
    count += 1
    calls.receive(.next(input))
    let response = try respond(input, number)
    return tracksCalls ? TrackedResponse(response, service: self, number: number) : response
  }

  fileprivate func began(_ number: Int) { callsInFlight[number] = runtime.now }
  fileprivate func ended(_ number: Int) { callsInFlight[number] = nil }
}

/// A response whose subscription is a call in flight until it ends or is disposed.
private final class TrackedResponse: Source {
  private let response: any Source
  private let service: Service
  private let number: Int

  init(_ response: any Source, service: Service, number: Int) {
    self.response = response
    self.service = service
    self.number = number
  }

  func subscribe(_ observer: any Observer) -> any Disposable {
    let call = TrackedCall(observer, service: service, number: number)
    service.began(number)
    call.upstream = response.subscribe(call)
    return call
  }
}

private final class TrackedCall: Observer, Disposable {
  private let downstream: any Observer
  private let service: Service
  private let number: Int
  var upstream: (any Disposable)?

  init(_ downstream: any Observer, service: Service, number: Int) {
    self.downstream = downstream
    self.service = service
    self.number = number
  }

  func receive(_ event: Event) {
    if event.isTerminal { service.ended(number) }
    downstream.receive(event)
  }

  func dispose() {
    service.ended(number)
    upstream?.dispose()
    upstream = nil
  }
}

/// `call: service` (+ `with:`): calls the service once per subscription and relays its answer.
public final class CallSource: Source {
  /// The call's input, computed at subscription.
  public typealias Input = () throws(StepFailure) -> Value

  private let service: Service
  private let input: Input

  public init(service: Service, input: @escaping Input) {
    self.service = service
    self.input = input
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    do throws(StepFailure) {
      let response = try service.call(try input())
      return response.subscribe(observer)
    } catch {
      observer.receive(.error(error.value))
      return NoDisposable.shared
    }
  }
}
