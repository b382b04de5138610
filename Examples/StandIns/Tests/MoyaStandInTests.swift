// The Moya and RxMoya stand-ins against Moya 15's request flow: endpoint, request closure, stub.

import Foundation
import Moya
import RxMoya
import RxSwift
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

private struct User: Codable, Equatable {
  var userName: String
  var region: String
}

private enum TestAPI: TargetType {
  case login(String)
  case profile
  case checked

  var baseURL: URL { URL(string: "https://example.com")! }
  var path: String {
    switch self {
    case .login: "/login"
    case .profile, .checked: "/profile"
    }
  }
  var method: Moya.Method {
    switch self {
    case .login: .post
    case .profile, .checked: .get
    }
  }
  var task: Moya.Task {
    switch self {
    case .login(let password): .requestParameters(parameters: ["password": password], encoding: JSONEncoding.default)
    case .profile, .checked: .requestParameters(parameters: ["full": true, "q": "a b"], encoding: URLEncoding.default)
    }
  }
  var headers: [String: String]? { nil }
  var validationType: ValidationType { self == .checked ? .successCodes : .none }
}

extension TestAPI: Equatable {}

/// A provider whose endpoints answer `status` and `body`, and whose request closure waits for
/// the test to perform it.
private final class DeferredProvider {
  var pending: [() -> Void] = []
  var status = 200
  var body = Data()

  lazy var provider = MoyaProvider<TestAPI>(
    endpointClosure: { [unowned self] target in
      let status = status
      let body = body
      return Endpoint(
        url: URL(target: target).absoluteString, sampleResponseClosure: { .networkResponse(status, body) },
        method: target.method, task: target.task, httpHeaderFields: target.headers)
    },
    requestClosure: { [unowned self] endpoint, done in
      pending.append { done(Result { try endpoint.urlRequest() }.mapError { MoyaError.underlying($0, nil) }) }
    },
    stubClosure: MoyaProvider.immediatelyStub)

  func performAll() {
    let pending = pending
    self.pending.removeAll()
    for perform in pending { perform() }
  }
}

@Suite struct MoyaStandInTests {
  @Test func anImmediateStubAnswersWhenTheRequestClosurePerforms() throws {
    let stub = DeferredProvider()
    stub.body = Data(#"{"userName":"ann","region":"eu"}"#.utf8)
    var outcome: [String] = []
    _ = stub.provider.rx.request(.login("pw"))
      .subscribe(onSuccess: { outcome.append("\($0.statusCode)") }, onFailure: { outcome.append("\($0)") })
    #expect(outcome.isEmpty)
    stub.performAll()
    #expect(outcome == ["200"])
  }

  @Test(arguments: [(200, true), (299, true), (300, false), (404, false), (500, false)])
  func filterSuccessfulStatusCodes(status: Int, passes: Bool) {
    let stub = DeferredProvider()
    stub.status = status
    var outcome = ""
    _ = stub.provider.rx.request(.profile).filterSuccessfulStatusCodes()
      .subscribe(
        onSuccess: { outcome = "success \($0.statusCode)" },
        onFailure: { error in
          if case MoyaError.statusCode(let response) = error { outcome = "statusCode \(response.statusCode)" }
        })
    stub.performAll()
    #expect(outcome == (passes ? "success \(status)" : "statusCode \(status)"))
  }

  @Test func aTargetsValidationTypeFailsAStubbedResponse() {
    let stub = DeferredProvider()
    stub.status = 500
    var failure: MoyaError?
    stub.provider.request(.checked) { result in
      if case .failure(let error) = result { failure = error }
    }
    stub.performAll()
    guard case .underlying(let underlying, let response)? = failure, case MoyaError.statusCode = underlying else {
      Issue.record("expected MoyaError.underlying(.statusCode), got \(String(describing: failure))")
      return
    }
    #expect(response?.statusCode == 500)
  }

  @Test func mapDecodesTheBody() {
    let stub = DeferredProvider()
    stub.body = Data(#"{"user":{"userName":"ann","region":"eu"}}"#.utf8)
    var users: [User] = []
    var mappingFailed = false
    _ = stub.provider.rx.request(.login("pw")).map(User.self, atKeyPath: "user")
      .subscribe(onSuccess: { users.append($0) })
    _ = stub.provider.rx.request(.login("pw")).map(User.self)
      .subscribe(onFailure: { error in
        if case MoyaError.objectMapping = error { mappingFailed = true }
      })
    stub.performAll()
    #expect(users == [User(userName: "ann", region: "eu")])
    #expect(mappingFailed)
  }

  @Test func disposingTheSingleCancelsTheRequest() {
    let stub = DeferredProvider()
    var outcome: [String] = []
    let subscription = stub.provider.rx.request(.login("pw"))
      .subscribe(onSuccess: { _ in outcome.append("success") }, onFailure: { _ in outcome.append("failure") })
    subscription.dispose()
    stub.performAll()
    #expect(outcome.isEmpty)

    var cancelled: Int?
    let token = stub.provider.request(.login("pw")) { result in
      if case .failure(.underlying(let error as NSError, nil)) = result { cancelled = error.code }
    }
    token.cancel()
    #expect(token.isCancelled)
    stub.performAll()
    #expect(cancelled == NSURLErrorCancelled)
  }

  @Test func aRequestThatIsNotStubbedFails() async {
    let provider = MoyaProvider<TestAPI>()
    let queue = DispatchQueue(label: "MoyaStandInTests")
    let failed = await withCheckedContinuation { continuation in
      provider.request(.profile, callbackQueue: queue) { result in
        if case .failure(.underlying) = result { continuation.resume(returning: true) } else {
          continuation.resume(returning: false)
        }
      }
    }
    #expect(failed)
  }

  @Test func endpointsEncodeTheirParameters() throws {
    let login = try MoyaProvider<TestAPI>.defaultEndpointMapping(for: .login("pw")).urlRequest()
    #expect(login.httpMethod == "POST")
    #expect(login.value(forHTTPHeaderField: "Content-Type") == "application/json")
    let body = try #require(login.httpBody)
    #expect(try JSONSerialization.jsonObject(with: body) as? [String: String] == ["password": "pw"])
    let profile = try MoyaProvider<TestAPI>.defaultEndpointMapping(for: .profile).urlRequest()
    #expect(profile.url?.absoluteString == "https://example.com/profile?full=1&q=a%20b")
    #expect(profile.httpBody == nil)
  }
}
