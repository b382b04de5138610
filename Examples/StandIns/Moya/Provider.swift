// Stand-in for Moya 15 (Moya/Moya), used because Moya is not in this machine's package mirror;
// semantics follow Moya's documented behaviour (../README.md).
//
// This file: the provider, its stubbing, cancellation and plugins.

import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Called with the outcome of a request.
public typealias Completion = (_ result: Result<Moya.Response, MoyaError>) -> Void

/// Called as a request progresses.
public typealias ProgressBlock = (_ progress: ProgressResponse) -> Void

/// A request's progress, and its response once it has one.
public struct ProgressResponse {
  public let response: Response?
  public let progressObject: Progress?

  public init(progress: Progress? = nil, response: Response? = nil) {
    progressObject = progress
    self.response = response
  }

  /// The fraction done: 1 once there is a response.
  public var progress: Double {
    if completed { return 1 }
    guard let progressObject, progressObject.totalUnitCount > 0 else { return 0 }
    return progressObject.fractionCompleted
  }

  public var completed: Bool { response != nil }
}

/// A request that can be cancelled.
public protocol Cancellable {
  var isCancelled: Bool { get }
  func cancel()
}

/// A cancellable that runs an action when first cancelled.
public final class CancellableToken: Cancellable, CustomDebugStringConvertible {
  private let cancelAction: () -> Void
  public private(set) var isCancelled = false

  public init(action: @escaping () -> Void) { cancelAction = action }

  public func cancel() {
    guard !isCancelled else { return }
    isCancelled = true
    cancelAction()
  }

  public var debugDescription: String { "Empty Request" }
}

/// The token `request` returns: cancels the request's current stage.
final class CancellableWrapper: Cancellable {
  var innerCancellable: any Cancellable = CancellableToken {}

  var isCancelled: Bool { innerCancellable.isCancelled }

  func cancel() { innerCancellable.cancel() }
}

/// How a target's requests are stubbed.
public enum StubBehavior {
  /// Not stubbed: sent to the network (which this stand-in has not: it fails).
  case never
  /// The endpoint's sample response, at once.
  case immediate
  /// The endpoint's sample response, after a delay (on a dispatch queue, in real time).
  case delayed(seconds: TimeInterval)
}

/// A request as plugins see it.
public protocol RequestType {
  var request: URLRequest? { get }
  var sessionHeaders: [String: String] { get }
}

/// Sees and may change the requests and responses of a provider.
public protocol PluginType {
  func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest
  func willSend(_ request: any RequestType, target: any TargetType)
  func didReceive(_ result: Result<Moya.Response, MoyaError>, target: any TargetType)
  func process(_ result: Result<Moya.Response, MoyaError>, target: any TargetType) -> Result<Moya.Response, MoyaError>
}

extension PluginType {
  public func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest { request }
  public func willSend(_ request: any RequestType, target: any TargetType) {}
  public func didReceive(_ result: Result<Moya.Response, MoyaError>, target: any TargetType) {}
  public func process(_ result: Result<Moya.Response, MoyaError>, target: any TargetType)
    -> Result<Moya.Response, MoyaError>
  {
    result
  }
}

private struct PreparedRequest: RequestType {
  let request: URLRequest?
  var sessionHeaders: [String: String] { [:] }
}

/// What reactive extensions need of a provider.
public protocol MoyaProviderType: AnyObject {
  associatedtype Target: TargetType

  func request(
    _ target: Target, callbackQueue: DispatchQueue?, progress: Moya.ProgressBlock?,
    completion: @escaping Moya.Completion
  ) -> any Cancellable
}

/// Makes the requests of targets: resolves a target into an endpoint (`endpointClosure`), the
/// endpoint into a URL request (`requestClosure`, which may answer later), and answers with the
/// endpoint's sample response when `stubClosure` stubs the target.
open class MoyaProvider<Target: TargetType>: MoyaProviderType {
  public typealias EndpointClosure = (Target) -> Endpoint
  public typealias RequestResultClosure = (Result<URLRequest, MoyaError>) -> Void
  public typealias RequestClosure = (Endpoint, @escaping RequestResultClosure) -> Void
  public typealias StubClosure = (Target) -> Moya.StubBehavior

  public let endpointClosure: EndpointClosure
  public let requestClosure: RequestClosure
  public let stubClosure: StubClosure
  public let plugins: [any PluginType]
  public let trackInflights: Bool
  let callbackQueue: DispatchQueue?
  private var inflight: [Endpoint: [Moya.Completion]] = [:]

  /// The completions waiting on each endpoint's request in flight (with `trackInflights`).
  open var inflightRequests: [Endpoint: [Moya.Completion]] { inflight }

  public init(
    // (Closures rather than references to the class functions, which Swift 6.3 warns about in
    // a generic context.)
    endpointClosure: @escaping EndpointClosure = { MoyaProvider.defaultEndpointMapping(for: $0) },
    requestClosure: @escaping RequestClosure = { MoyaProvider<Target>.defaultRequestMapping(for: $0, closure: $1) },
    stubClosure: @escaping StubClosure = { MoyaProvider.neverStub($0) },
    callbackQueue: DispatchQueue? = nil,
    plugins: [any PluginType] = [],
    trackInflights: Bool = false
  ) {
    self.endpointClosure = endpointClosure
    self.requestClosure = requestClosure
    self.stubClosure = stubClosure
    self.callbackQueue = callbackQueue
    self.plugins = plugins
    self.trackInflights = trackInflights
  }

  /// The endpoint of `token`.
  open func endpoint(_ token: Target) -> Endpoint { endpointClosure(token) }

  /// Makes the request of `target`; `completion` runs once, with the response or the error (a
  /// cancelled request fails with `NSURLErrorCancelled`).
  @discardableResult
  open func request(
    _ target: Target, callbackQueue: DispatchQueue? = .none, progress: ProgressBlock? = .none,
    completion: @escaping Completion
  ) -> any Cancellable {
    requestNormal(target, callbackQueue: callbackQueue ?? self.callbackQueue, progress: progress, completion: completion)
  }

  /// Answers `request` with the endpoint's sample response, at once or after the stub's delay.
  @discardableResult
  open func stubRequest(
    _ target: Target, request: URLRequest, callbackQueue: DispatchQueue?, completion: @escaping Moya.Completion,
    endpoint: Endpoint, stubBehavior: Moya.StubBehavior
  ) -> CancellableToken {
    let callbackQueue = callbackQueue ?? self.callbackQueue
    let token = CancellableToken {}
    let prepared = notifyPluginsOfImpendingStub(for: request, target: target)
    let stub = DispatchedWork(
      createStubFunction(
        token, forTarget: target, withCompletion: completion, endpoint: endpoint, plugins: plugins, request: prepared))
    switch stubBehavior {
    case .immediate:
      if let callbackQueue { callbackQueue.async { stub.run() } } else { stub.run() }
    case .delayed(let seconds):
      (callbackQueue ?? .main).asyncAfter(deadline: .now() + seconds) { stub.run() }
    case .never:
      preconditionFailure("stubRequest called for a target that is not stubbed")
    }
    return token
  }
}

extension MoyaProvider {
  /// Never stubs.
  public final class func neverStub(_: Target) -> Moya.StubBehavior { .never }

  /// Stubs with an immediate response.
  public final class func immediatelyStub(_: Target) -> Moya.StubBehavior { .immediate }

  /// Stubs with a response after `seconds`.
  public final class func delayedStub(_ seconds: TimeInterval) -> (Target) -> Moya.StubBehavior {
    { _ in .delayed(seconds: seconds) }
  }

  /// The endpoint of a target: its URL, method, task and headers, sampling 200 and its
  /// `sampleData`.
  public final class func defaultEndpointMapping(for target: Target) -> Endpoint {
    Endpoint(
      url: URL(target: target).absoluteString, sampleResponseClosure: { .networkResponse(200, target.sampleData) },
      method: target.method, task: target.task, httpHeaderFields: target.headers)
  }

  /// Makes the endpoint's URL request at once.
  public final class func defaultRequestMapping(for endpoint: Endpoint, closure: RequestResultClosure) {
    do {
      closure(.success(try endpoint.urlRequest()))
    } catch let error as MoyaError {
      switch error {
      case .requestMapping, .parameterEncoding: closure(.failure(error))
      default: closure(.failure(.underlying(error, nil)))
      }
    } catch {
      closure(.failure(.underlying(error, nil)))
    }
  }

  /// The request of `target`: endpoint, URL request (when `requestClosure` performs), then the
  /// stub or the (absent) network.
  public func requestNormal(
    _ target: Target, callbackQueue: DispatchQueue?, progress: Moya.ProgressBlock?,
    completion: @escaping Moya.Completion
  ) -> any Cancellable {
    let endpoint = self.endpoint(target)
    let stubBehavior = stubClosure(target)
    let token = CancellableWrapper()
    let plugins = plugins
    let processed: Moya.Completion = { result in
      completion(plugins.reduce(result) { $1.process($0, target: target) })
    }

    if trackInflights {
      if inflight[endpoint] != nil {
        inflight[endpoint]?.append(processed)
        return token
      }
      inflight[endpoint] = [processed]
    }

    let perform: RequestResultClosure = { [self] requestResult in
      if token.isCancelled { return cancelCompletion(processed, target: target) }
      switch requestResult {
      case .failure(let error):
        processed(.failure(error))
      case .success(let request):
        let answer: Moya.Completion =
          trackInflights
          ? { [self] result in
            let waiting = inflight.removeValue(forKey: endpoint) ?? []
            for completion in waiting { completion(result) }
          } : processed
        token.innerCancellable =
          switch stubBehavior {
          case .never: sendWithoutNetwork(target, request: request, callbackQueue: callbackQueue, completion: answer)
          default:
            stubRequest(
              target, request: request, callbackQueue: callbackQueue, completion: answer, endpoint: endpoint,
              stubBehavior: stubBehavior)
          }
      }
    }
    requestClosure(endpoint, perform)
    return token
  }

  /// Completes with the cancellation error.
  func cancelCompletion(_ completion: Moya.Completion, target: Target) {
    let error = MoyaError.underlying(NSError(domain: NSURLErrorDomain, code: NSURLErrorCancelled, userInfo: nil), nil)
    plugins.forEach { $0.didReceive(.failure(error), target: target) }
    completion(.failure(error))
  }

  /// The function that answers a stubbed request with the endpoint's sample response, validated
  /// by the target's `validationType`.
  public final func createStubFunction(
    _ token: CancellableToken, forTarget target: Target, withCompletion completion: @escaping Moya.Completion,
    endpoint: Endpoint, plugins: [any PluginType], request: URLRequest
  ) -> (() -> Void) {
    {
      if token.isCancelled { return self.cancelCompletion(completion, target: target) }
      let result: Result<Moya.Response, MoyaError>
      switch endpoint.sampleResponseClosure() {
      case .networkResponse(let statusCode, let data):
        result = Self.validated(Response(statusCode: statusCode, data: data, request: request), target: target)
      case .response(let response, let data):
        result = Self.validated(
          Response(statusCode: response.statusCode, data: data, request: request, response: response), target: target)
      case .networkError(let error):
        result = .failure(.underlying(error, nil))
      }
      plugins.forEach { $0.didReceive(result, target: target) }
      completion(result)
    }
  }

  /// Lets the plugins prepare a stubbed request and tells them it is sent.
  public final func notifyPluginsOfImpendingStub(for request: URLRequest, target: Target) -> URLRequest {
    let prepared = plugins.reduce(request) { $1.prepare($0, target: target) }
    plugins.forEach { $0.willSend(PreparedRequest(request: prepared), target: target) }
    return prepared
  }

  private static func validated(_ response: Response, target: Target) -> Result<Moya.Response, MoyaError> {
    let codes = target.validationType.statusCodes
    guard !codes.isEmpty, !codes.contains(response.statusCode) else { return .success(response) }
    return .failure(.underlying(MoyaError.statusCode(response), response))
  }

  /// A request that is not stubbed: this stand-in has no network session, so it fails, on the
  /// callback queue (the main queue by default) as a network answer would arrive.
  private func sendWithoutNetwork(
    _ target: Target, request: URLRequest, callbackQueue: DispatchQueue?, completion: @escaping Moya.Completion
  ) -> CancellableToken {
    let prepared = plugins.reduce(request) { $1.prepare($0, target: target) }
    plugins.forEach { $0.willSend(PreparedRequest(request: prepared), target: target) }
    let token = CancellableToken {}
    let failure = DispatchedWork { [self] in
      if token.isCancelled { return cancelCompletion(completion, target: target) }
      let error = MoyaError.underlying(
        NSError(
          domain: NSURLErrorDomain, code: NSURLErrorNotConnectedToInternet,
          userInfo: [
            NSLocalizedDescriptionKey:
              "The Moya stand-in has no network session: stub the target (stubClosure) to answer \(prepared.url?.absoluteString ?? "the request")"
          ]), nil)
      plugins.forEach { $0.didReceive(.failure(error), target: target) }
      completion(.failure(error))
    }
    (callbackQueue ?? .main).async { failure.run() }
    return token
  }
}

/// Work sent to a dispatch queue: its closure captures the provider's (non-Sendable) state, and
/// the queue runs it once.
private final class DispatchedWork: @unchecked Sendable {
  private let work: () -> Void

  init(_ work: @escaping () -> Void) { self.work = work }

  func run() { work() }
}
