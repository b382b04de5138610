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

  public init(owner: NodeLabel, runtime: Runtime, respond: @escaping Respond) {
    self.owner = owner
    self.respond = respond
    calls = Subject(kind: .publish, owner: NodeLabel("\(owner.name).calls", at: owner.location), runtime: runtime)
  }

  /// Logs a call and returns its response.
  public func call(_ input: Value) throws(StepFailure) -> any Source {
    let number = count
    count += 1
    calls.receive(.next(input))
    return try respond(input, number)
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
