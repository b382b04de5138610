// The RxSwift helpers that flowrun-import's drafted RxSwift tests call
// (docs/testing-real-code.md, "Binding RxSwift code"): RxSwift's scheduler on the scenario's
// frames, Drivers made on it, the scenario's services as observables, and a Moya provider
// answered by them. Copy
// this file into a test target that depends on FlowrunTesting, RxSwift, RxCocoa, Moya and
// RxMoya; it uses only their public API.
import FlowrunTesting
import Foundation
import Moya
import RxCocoa
import RxSwift

#if canImport(Combine)
  import Combine
#else
  import OpenCombineShim
#endif

/// RxSwift's scheduler on the scenario's frames, through ``FlowScheduler``: `debounce`,
/// `throttle`, `delay`, `interval` and `observe(on:)` of the code run in virtual time.
struct FlowRxScheduler: SchedulerType {
  let flow: FlowScheduler

  var now: RxTime { Date(timeIntervalSince1970: Double(flow.now.nanoseconds) / 1e9) }

  func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> any Disposable) -> any Disposable {
    scheduleRelative(state, dueTime: .nanoseconds(0), action: action)
  }

  func scheduleRelative<StateType>(
    _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> any Disposable
  ) -> any Disposable {
    let disposable = SerialDisposable()
    guard let delay = Self.nanoseconds(dueTime) else { return disposable }
    flow.schedule(after: flow.now.advanced(by: .nanoseconds(Int(delay)))) {
      if !disposable.isDisposed { disposable.disposable = action(state) }
    }
    return disposable
  }

  func schedulePeriodic<StateType>(
    _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType
  ) -> any Disposable {
    guard let start = Self.nanoseconds(startAfter), let period = Self.nanoseconds(period) else {
      return Disposables.create()
    }
    var state = state
    let repeating = flow.schedule(
      after: flow.now.advanced(by: .nanoseconds(Int(start))), interval: .nanoseconds(Int(period))
    ) { state = action(state) }
    return Disposables.create { repeating.cancel() }
  }

  /// The length of `interval`; nil for `.never`.
  static func nanoseconds(_ interval: RxTimeInterval) -> Int64? {
    switch interval {
    case .seconds(let n): Int64(n) * 1_000_000_000
    case .milliseconds(let n): Int64(n) * 1_000_000
    case .microseconds(let n): Int64(n) * 1_000
    case .nanoseconds(let n): Int64(n)
    case .never: nil
    @unknown default: nil
    }
  }
}

/// `make()`, with its Drivers and Signals observing on `scheduler`: RxCocoa takes
/// `SharingScheduler.make()` (the main queue) when a Driver is made, and a test's thread is not
/// the main one. `SharingScheduler.mock` swaps a process-wide static, so tests that run in
/// parallel take turns here: each view model gets its own test's scheduler. (`mock` itself
/// returns no value.)
func withSharingScheduler<T>(_ scheduler: any SchedulerType, _ make: () throws -> T) rethrows -> T {
  sharingSchedulerLock.lock()
  defer { sharingSchedulerLock.unlock() }
  var made: T?
  try SharingScheduler.mock(scheduler: scheduler) { made = try make() }
  // `mock` runs its action once, before it returns.
  return made!
}

/// Held while `SharingScheduler.make` is a test's scheduler.
private let sharingSchedulerLock = NSLock()

extension MoyaProvider {
  /// A provider whose requests the scenario's services answer, in virtual time. `answer` gives
  /// a target's answer as JSON (`providerlogin(value).json()`), or nil when the scenario has no
  /// service for it (the request fails). A request waits for its answer (Moya's
  /// `requestClosure`), then Moya's immediate stub responds with it: status 200 and the JSON,
  /// or the service's error as a network error.
  static func answered(by answer: @escaping (Target) -> AnyPublisher<Data, any Error>?) -> MoyaProvider<Target> {
    let pending = PendingAnswers()
    return MoyaProvider(
      endpointClosure: { target in
        let response = PendingAnswers.Response()
        let endpoint = Endpoint(
          url: URL(target: target).absoluteString, sampleResponseClosure: { response.value }, method: target.method,
          task: target.task, httpHeaderFields: target.headers)
        pending.calls[ObjectIdentifier(endpoint)] = (answer(target), response)
        return endpoint
      },
      requestClosure: { endpoint, perform in
        let request = Result { try endpoint.urlRequest() }.mapError { MoyaError.underlying($0, nil) }
        guard let (call, response) = pending.calls.removeValue(forKey: ObjectIdentifier(endpoint)), let call else {
          perform(.failure(MoyaError.requestMapping(endpoint.url)))
          return
        }
        pending.subscriptions.append(
          call.sink(
            receiveCompletion: { completion in
              guard case .failure(let error) = completion else { return }
              response.value = .networkError(
                NSError(domain: "flowrun", code: 1, userInfo: [NSLocalizedDescriptionKey: "\(error)"]))
              perform(request)
            },
            receiveValue: { data in
              response.value = .networkResponse(200, data)
              perform(request)
            }))
      },
      stubClosure: { _ in .immediate })
  }
}

/// The answers a provider of ``MoyaProvider/answered(by:)`` waits for, by endpoint.
private final class PendingAnswers {
  /// What a stubbed endpoint responds with, set when its service answers.
  final class Response {
    var value = EndpointSampleResponse.networkResponse(204, Data())
  }

  var calls: [ObjectIdentifier: (AnyPublisher<Data, any Error>?, Response)] = [:]
  var subscriptions: [AnyCancellable] = []
}

extension Publisher {
  /// The publisher as an RxSwift observable (a service of the scenario for a stub's
  /// `Single`): its values are elements, its failure the error, its end the completion;
  /// disposing cancels it.
  func asObservable() -> Observable<Output> {
    Observable.create { observer in
      let subscription = self.sink(
        receiveCompletion: {
          if case .failure(let error) = $0 { observer.onError(error) } else { observer.onCompleted() }
        },
        receiveValue: { observer.onNext($0) })
      return Disposables.create { subscription.cancel() }
    }
  }
}

extension Publisher where Output: Encodable {
  /// The answers as JSON: the body of a Moya response, which the code maps to its model.
  func json() -> AnyPublisher<Data, any Error> {
    mapError { $0 as any Error }.tryMap { try JSONEncoder().encode($0) }.eraseToAnyPublisher()
  }
}
