// Stand-in for Moya 15 (Moya/Moya), used because Moya is not in this machine's package mirror;
// semantics follow Moya's documented behaviour (../README.md).
//
// This file: responses, their filters and mappings, and Moya's errors.

import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A request's response.
public final class Response: CustomDebugStringConvertible, Equatable {
  public let statusCode: Int
  public let data: Data
  public let request: URLRequest?
  public let response: HTTPURLResponse?

  public init(statusCode: Int, data: Data, request: URLRequest? = nil, response: HTTPURLResponse? = nil) {
    self.statusCode = statusCode
    self.data = data
    self.request = request
    self.response = response
  }

  public var description: String { "Status Code: \(statusCode), Data Length: \(data.count)" }

  public var debugDescription: String { description }

  public static func == (lhs: Response, rhs: Response) -> Bool {
    lhs.statusCode == rhs.statusCode && lhs.data == rhs.data && lhs.response == rhs.response
  }
}

extension Response {
  /// This response if its status code is in `statusCodes`; else `MoyaError.statusCode`.
  public func filter<R: RangeExpression>(statusCodes: R) throws -> Response where R.Bound == Int {
    guard statusCodes.contains(statusCode) else { throw MoyaError.statusCode(self) }
    return self
  }

  public func filter(statusCode: Int) throws -> Response { try filter(statusCodes: statusCode...statusCode) }

  /// This response if its status code is 200–299.
  public func filterSuccessfulStatusCodes() throws -> Response { try filter(statusCodes: 200...299) }

  /// This response if its status code is 200–399.
  public func filterSuccessfulStatusAndRedirectCodes() throws -> Response { try filter(statusCodes: 200...399) }

  /// The body as a JSON object (`NSNull` for an empty body when `failsOnEmptyData` is false);
  /// else `MoyaError.jsonMapping`.
  public func mapJSON(failsOnEmptyData: Bool = true) throws -> Any {
    do {
      return try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
    } catch {
      if data.isEmpty, !failsOnEmptyData { return NSNull() }
      throw MoyaError.jsonMapping(self)
    }
  }

  /// The body as UTF-8 text, or the string at `keyPath` of its JSON; else
  /// `MoyaError.stringMapping`.
  public func mapString(atKeyPath keyPath: String? = nil) throws -> String {
    if let keyPath {
      guard let string = Self.value(atKeyPath: keyPath, in: try mapJSON()) as? String else {
        throw MoyaError.stringMapping(self)
      }
      return string
    }
    guard let string = String(data: data, encoding: .utf8) else { throw MoyaError.stringMapping(self) }
    return string
  }

  /// The body (or the JSON value at `keyPath`, a dot-separated path of keys) decoded as `type`;
  /// `MoyaError.objectMapping` when decoding fails, `.jsonMapping` when the body is not JSON or
  /// has nothing at `keyPath`. With `failsOnEmptyData` false, an empty body decodes as `{}` or
  /// `[{}]` if `type` can be decoded from either.
  public func map<D: Decodable>(
    _ type: D.Type, atKeyPath keyPath: String? = nil, using decoder: JSONDecoder = JSONDecoder(),
    failsOnEmptyData: Bool = true
  ) throws -> D {
    var json = data
    if let keyPath {
      let found = Self.value(atKeyPath: keyPath, in: try mapJSON(failsOnEmptyData: failsOnEmptyData))
      switch found {
      case nil where failsOnEmptyData:
        throw MoyaError.jsonMapping(self)
      case nil:
        break
      case let value? where JSONSerialization.isValidJSONObject(value):
        do { json = try JSONSerialization.data(withJSONObject: value) } catch { throw MoyaError.jsonMapping(self) }
      case let value?:
        // A number or a string at the key path: decoded through a wrapping object.
        guard let wrapped = try? JSONSerialization.data(withJSONObject: ["value": value]) else {
          throw MoyaError.jsonMapping(self)
        }
        do { return try decoder.decode(ValueWrapper<D>.self, from: wrapped).value } catch {
          throw MoyaError.objectMapping(error, self)
        }
      }
    }
    if json.isEmpty, !failsOnEmptyData {
      for empty in ["{}", "[{}]"] {
        if let value = try? decoder.decode(D.self, from: Data(empty.utf8)) { return value }
      }
    }
    do {
      return try decoder.decode(D.self, from: json)
    } catch {
      throw MoyaError.objectMapping(error, self)
    }
  }

  /// The value at a dot-separated path of keys of a JSON object.
  private static func value(atKeyPath keyPath: String, in json: Any) -> Any? {
    keyPath.split(separator: ".").reduce(Optional(json)) { value, key in
      (value as? [String: Any])?[String(key)]
    }
  }
}

private struct ValueWrapper<T: Decodable>: Decodable {
  let value: T
}

/// Moya's errors. (`Error` must be `Sendable`; the cases carry a `Response`, a class, as Moya's
/// do, so the conformance is unchecked.)
public enum MoyaError: Swift.Error, @unchecked Sendable {
  case imageMapping(Response)
  case jsonMapping(Response)
  case stringMapping(Response)
  case objectMapping(any Swift.Error, Response)
  case encodableMapping(any Swift.Error)
  case statusCode(Response)
  case underlying(any Swift.Error, Response?)
  case requestMapping(String)
  case parameterEncoding(any Swift.Error)
}

extension MoyaError {
  /// The response the error came with, if any.
  public var response: Moya.Response? {
    switch self {
    case .imageMapping(let response), .jsonMapping(let response), .stringMapping(let response),
      .objectMapping(_, let response), .statusCode(let response):
      response
    case .underlying(_, let response): response
    case .encodableMapping, .requestMapping, .parameterEncoding: nil
    }
  }

  var underlyingError: (any Swift.Error)? {
    switch self {
    case .objectMapping(let error, _), .encodableMapping(let error), .underlying(let error, _),
      .parameterEncoding(let error):
      error
    case .imageMapping, .jsonMapping, .stringMapping, .statusCode, .requestMapping: nil
    }
  }
}

extension MoyaError: LocalizedError {
  public var errorDescription: String? {
    switch self {
    case .imageMapping: "Failed to map data to an Image."
    case .jsonMapping: "Failed to map data to JSON."
    case .stringMapping: "Failed to map data to a String."
    case .objectMapping: "Failed to map data to a Decodable object."
    case .encodableMapping: "Failed to encode Encodable object into data."
    case .statusCode: "Status code didn't fall within the given range."
    case .underlying(let error, _): error.localizedDescription
    case .requestMapping: "Failed to map Endpoint to a URLRequest."
    case .parameterEncoding(let error): "Failed to encode parameters for URLRequest. \(error.localizedDescription)"
    }
  }
}

extension MoyaError: CustomNSError {
  public var errorUserInfo: [String: Any] {
    var userInfo: [String: Any] = [:]
    userInfo[NSLocalizedDescriptionKey] = errorDescription
    userInfo[NSUnderlyingErrorKey] = underlyingError
    return userInfo
  }
}
