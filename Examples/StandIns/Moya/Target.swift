// Stand-in for Moya 15 (Moya/Moya): the subset of its public API that the examples' RxSwift
// view models and their tests use, because Moya (and Alamofire) is not in this machine's package
// mirror. Written from Moya's documented behaviour; Foundation only. See ../README.md: there is
// no Alamofire session, so a request that is not stubbed fails with `MoyaError.underlying`.
//
// This file: targets, tasks, parameter encodings (Alamofire's, in Moya's names) and endpoints.

import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An HTTP method (Alamofire's `HTTPMethod`, which Moya calls `Moya.Method`).
public struct Method: RawRepresentable, Equatable, Hashable, Sendable {
  public static let connect = Method(rawValue: "CONNECT")
  public static let delete = Method(rawValue: "DELETE")
  public static let get = Method(rawValue: "GET")
  public static let head = Method(rawValue: "HEAD")
  public static let options = Method(rawValue: "OPTIONS")
  public static let patch = Method(rawValue: "PATCH")
  public static let post = Method(rawValue: "POST")
  public static let put = Method(rawValue: "PUT")
  public static let query = Method(rawValue: "QUERY")
  public static let trace = Method(rawValue: "TRACE")

  public let rawValue: String

  public init(rawValue: String) { self.rawValue = rawValue }
}

extension Method {
  /// Whether a request of this method may carry multipart data.
  public var supportsMultipart: Bool { [.post, .put, .patch, .connect].contains(self) }
}

/// Which status codes a target's responses must have (checked on stubbed responses too).
public enum ValidationType: Equatable {
  case none
  case successCodes
  case successAndRedirectCodes
  case customCodes([Int])

  var statusCodes: [Int] {
    switch self {
    case .none: []
    case .successCodes: Array(200..<300)
    case .successAndRedirectCodes: Array(200..<400)
    case .customCodes(let codes): codes
    }
  }
}

/// What a provider needs to make a request.
public protocol TargetType {
  var baseURL: URL { get }
  var path: String { get }
  var method: Moya.Method { get }
  var sampleData: Data { get }
  var task: Task { get }
  var validationType: ValidationType { get }
  var headers: [String: String]? { get }
}

extension TargetType {
  public var validationType: ValidationType { .none }
  public var sampleData: Data { Data() }
}

extension URL {
  /// The target's base URL with its path appended (the base URL alone for an empty path).
  public init<T: TargetType>(target: T) {
    self = target.path.isEmpty ? target.baseURL : target.baseURL.appendingPathComponent(target.path)
  }
}

/// A request's body and parameters. (No uploads or downloads: there is no session to run them.)
public enum Task {
  case requestPlain
  case requestData(Data)
  case requestJSONEncodable(any Encodable)
  case requestCustomJSONEncodable(any Encodable, encoder: JSONEncoder)
  case requestParameters(parameters: [String: Any], encoding: any ParameterEncoding)
  case requestCompositeData(bodyData: Data, urlParameters: [String: Any])
  case requestCompositeParameters(
    bodyParameters: [String: Any], bodyEncoding: any ParameterEncoding, urlParameters: [String: Any])
}

// MARK: - Parameter encodings (Alamofire's)

/// Alamofire's parameters.
public typealias Parameters = [String: Any]

/// Something a URL request can be made from (Alamofire's `URLRequestConvertible`).
public protocol URLRequestConvertible {
  func asURLRequest() throws -> URLRequest
}

extension URLRequest: URLRequestConvertible {
  public func asURLRequest() throws -> URLRequest { self }
}

/// Puts parameters into a request (Alamofire's `ParameterEncoding`).
public protocol ParameterEncoding {
  func encode(_ urlRequest: any URLRequestConvertible, with parameters: Parameters?) throws -> URLRequest
}

/// Why parameters could not be encoded.
enum ParameterEncodingFailure: Error {
  case missingURL
  case invalidJSONObject
  case jsonEncodingFailed(any Error)
}

/// Parameters as a JSON body, with `Content-Type: application/json` unless one is set.
public struct JSONEncoding: ParameterEncoding {
  public static var `default`: JSONEncoding { JSONEncoding() }
  public static var prettyPrinted: JSONEncoding { JSONEncoding(options: .prettyPrinted) }

  public let options: JSONSerialization.WritingOptions

  public init(options: JSONSerialization.WritingOptions = []) { self.options = options }

  public func encode(_ urlRequest: any URLRequestConvertible, with parameters: Parameters?) throws -> URLRequest {
    var request = try urlRequest.asURLRequest()
    guard let parameters else { return request }
    guard JSONSerialization.isValidJSONObject(parameters) else { throw ParameterEncodingFailure.invalidJSONObject }
    do {
      request.httpBody = try JSONSerialization.data(withJSONObject: parameters, options: options)
    } catch {
      throw ParameterEncodingFailure.jsonEncodingFailed(error)
    }
    if request.value(forHTTPHeaderField: "Content-Type") == nil {
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
    return request
  }
}

/// Parameters as a URL query (GET, HEAD, DELETE by default) or a form body, keys sorted, nested
/// dictionaries as `key[sub]` and arrays as `key[]`.
public struct URLEncoding: ParameterEncoding {
  public enum Destination {
    case methodDependent, queryString, httpBody
  }

  public enum ArrayEncoding {
    case brackets, noBrackets, indexInBrackets
  }

  public enum BoolEncoding {
    case numeric, literal
  }

  public static var `default`: URLEncoding { URLEncoding() }
  public static var queryString: URLEncoding { URLEncoding(destination: .queryString) }
  public static var httpBody: URLEncoding { URLEncoding(destination: .httpBody) }

  public let destination: Destination
  public let arrayEncoding: ArrayEncoding
  public let boolEncoding: BoolEncoding

  public init(
    destination: Destination = .methodDependent, arrayEncoding: ArrayEncoding = .brackets,
    boolEncoding: BoolEncoding = .numeric
  ) {
    self.destination = destination
    self.arrayEncoding = arrayEncoding
    self.boolEncoding = boolEncoding
  }

  public func encode(_ urlRequest: any URLRequestConvertible, with parameters: Parameters?) throws -> URLRequest {
    var request = try urlRequest.asURLRequest()
    guard let parameters else { return request }
    let method = request.httpMethod.map { Method(rawValue: $0) } ?? .get
    let inURL =
      switch destination {
      case .methodDependent: [Method.get, .head, .delete].contains(method)
      case .queryString: true
      case .httpBody: false
      }
    if inURL {
      guard let url = request.url else { throw ParameterEncodingFailure.missingURL }
      if var components = URLComponents(url: url, resolvingAgainstBaseURL: false), !parameters.isEmpty {
        components.percentEncodedQuery = (components.percentEncodedQuery.map { $0 + "&" } ?? "") + query(parameters)
        request.url = components.url
      }
    } else {
      if request.value(forHTTPHeaderField: "Content-Type") == nil {
        request.setValue("application/x-www-form-urlencoded; charset=utf-8", forHTTPHeaderField: "Content-Type")
      }
      request.httpBody = Data(query(parameters).utf8)
    }
    return request
  }

  private func query(_ parameters: Parameters) -> String {
    parameters.keys.sorted()
      .flatMap { key in components(key, parameters[key]!) }
      .map { "\($0)=\($1)" }
      .joined(separator: "&")
  }

  private func components(_ key: String, _ value: Any) -> [(String, String)] {
    switch value {
    case let dictionary as [String: Any]:
      return dictionary.keys.sorted().flatMap { components("\(key)[\($0)]", dictionary[$0]!) }
    case let array as [Any]:
      return array.enumerated().flatMap { index, element in
        let arrayKey =
          switch arrayEncoding {
          case .brackets: "\(key)[]"
          case .noBrackets: key
          case .indexInBrackets: "\(key)[\(index)]"
          }
        return components(arrayKey, element)
      }
    case let bool as Bool:
      let text = boolEncoding == .numeric ? (bool ? "1" : "0") : (bool ? "true" : "false")
      return [(escape(key), escape(text))]
    default:
      return [(escape(key), escape("\(value)"))]
    }
  }

  private func escape(_ string: String) -> String {
    var allowed = CharacterSet.urlQueryAllowed
    allowed.remove(charactersIn: ":#[]@!$&'()*+,;=")
    return string.addingPercentEncoding(withAllowedCharacters: allowed) ?? string
  }
}

// MARK: - Endpoint

/// What a stubbed endpoint responds with.
public enum EndpointSampleResponse {
  /// A status code and body.
  case networkResponse(Int, Data)
  /// A full response and body.
  case response(HTTPURLResponse, Data)
  /// A failure to reach the server.
  case networkError(NSError)
}

/// A target resolved into a request's parts, with its stubbed response.
open class Endpoint {
  public typealias SampleResponseClosure = () -> EndpointSampleResponse

  public let url: String
  public let sampleResponseClosure: SampleResponseClosure
  public let method: Moya.Method
  public let task: Task
  public let httpHeaderFields: [String: String]?

  public init(
    url: String, sampleResponseClosure: @escaping SampleResponseClosure, method: Moya.Method, task: Task,
    httpHeaderFields: [String: String]?
  ) {
    self.url = url
    self.sampleResponseClosure = sampleResponseClosure
    self.method = method
    self.task = task
    self.httpHeaderFields = httpHeaderFields
  }

  /// This endpoint with `newHTTPHeaderFields` added to its headers.
  open func adding(newHTTPHeaderFields: [String: String]) -> Endpoint {
    let headers = (httpHeaderFields ?? [:]).merging(newHTTPHeaderFields) { $1 }
    return Endpoint(
      url: url, sampleResponseClosure: sampleResponseClosure, method: method, task: task,
      httpHeaderFields: newHTTPHeaderFields.isEmpty ? httpHeaderFields : headers)
  }

  /// This endpoint with another task.
  open func replacing(task: Task) -> Endpoint {
    Endpoint(
      url: url, sampleResponseClosure: sampleResponseClosure, method: method, task: task,
      httpHeaderFields: httpHeaderFields)
  }
}

extension Endpoint {
  /// The URL request of this endpoint: `MoyaError.requestMapping` for a bad URL,
  /// `.parameterEncoding` or `.encodableMapping` when the task's body cannot be encoded.
  public func urlRequest() throws -> URLRequest {
    guard let requestURL = URL(string: url) else { throw MoyaError.requestMapping(url) }
    var request = URLRequest(url: requestURL)
    request.httpMethod = method.rawValue
    request.allHTTPHeaderFields = httpHeaderFields
    switch task {
    case .requestPlain:
      return request
    case .requestData(let data):
      request.httpBody = data
      return request
    case .requestJSONEncodable(let encodable):
      return try request.encoded(encodable, encoder: JSONEncoder())
    case .requestCustomJSONEncodable(let encodable, let encoder):
      return try request.encoded(encodable, encoder: encoder)
    case .requestParameters(let parameters, let encoding):
      return try request.encoded(parameters, with: encoding)
    case .requestCompositeData(let bodyData, let urlParameters):
      request.httpBody = bodyData
      return try request.encoded(urlParameters, with: URLEncoding.queryString)
    case .requestCompositeParameters(let bodyParameters, let bodyEncoding, let urlParameters):
      let withBody = try request.encoded(bodyParameters, with: bodyEncoding)
      return try withBody.encoded(urlParameters, with: URLEncoding.queryString)
    }
  }
}

extension URLRequest {
  fileprivate func encoded(_ encodable: any Encodable, encoder: JSONEncoder) throws -> URLRequest {
    var request = self
    do {
      request.httpBody = try encoder.encode(encodable)
    } catch {
      throw MoyaError.encodableMapping(error)
    }
    if request.value(forHTTPHeaderField: "Content-Type") == nil {
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
    return request
  }

  fileprivate func encoded(_ parameters: [String: Any], with encoding: any ParameterEncoding) throws -> URLRequest {
    do {
      return try encoding.encode(self, with: parameters)
    } catch {
      throw MoyaError.parameterEncoding(error)
    }
  }
}

extension Endpoint: Equatable, Hashable {
  public func hash(into hasher: inout Hasher) {
    if let request = try? urlRequest() { hasher.combine(request) } else { hasher.combine(url) }
  }

  /// Endpoints are equal when their URL requests are (or, without requests, their URLs).
  public static func == (lhs: Endpoint, rhs: Endpoint) -> Bool {
    switch (try? lhs.urlRequest(), try? rhs.urlRequest()) {
    case (let left?, let right?): left == right
    case (nil, nil): lhs.url == rhs.url
    default: false
    }
  }
}
