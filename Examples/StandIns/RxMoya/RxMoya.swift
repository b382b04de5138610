// Stand-in for RxMoya 15 (part of Moya/Moya): the subset of its public API that the examples'
// RxSwift view models and their tests use, because Moya is not in this machine's package mirror.
// Written from RxMoya's documented behaviour; see ../README.md. (No `requestWithProgress`.)

import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
import Moya
import RxSwift

extension MoyaProvider: ReactiveCompatible {}

extension Reactive where Base: MoyaProviderType {
  /// The response of `token`'s request as a single, the request made at subscription and
  /// cancelled when the subscription is disposed. The provider is not retained: once it is gone,
  /// the single makes no request and never ends.
  public func request(_ token: Base.Target, callbackQueue: DispatchQueue? = nil) -> Single<Response> {
    Single.create { [weak base] single in
      guard let base else { return Disposables.create() }
      let request = base.request(token, callbackQueue: callbackQueue, progress: nil) { result in
        single(result.mapError { $0 })
      }
      return Disposables.create(with: request.cancel)
    }
  }
}

extension PrimitiveSequence where Trait == SingleTrait, Element == Response {
  /// The response if its status code is in `statusCodes`; else fails with `MoyaError.statusCode`.
  public func filter<R: RangeExpression>(statusCodes: R) -> Single<Element> where R.Bound == Int {
    map { try $0.filter(statusCodes: statusCodes) }
  }

  public func filter(statusCode: Int) -> Single<Element> { map { try $0.filter(statusCode: statusCode) } }

  public func filterSuccessfulStatusCodes() -> Single<Element> { map { try $0.filterSuccessfulStatusCodes() } }

  public func filterSuccessfulStatusAndRedirectCodes() -> Single<Element> {
    map { try $0.filterSuccessfulStatusAndRedirectCodes() }
  }

  public func mapJSON(failsOnEmptyData: Bool = true) -> Single<Any> {
    map { try $0.mapJSON(failsOnEmptyData: failsOnEmptyData) }
  }

  public func mapString(atKeyPath keyPath: String? = nil) -> Single<String> {
    map { try $0.mapString(atKeyPath: keyPath) }
  }

  /// The body decoded as `type` (see `Response.map(_:atKeyPath:using:failsOnEmptyData:)`).
  public func map<D: Decodable>(
    _ type: D.Type, atKeyPath keyPath: String? = nil, using decoder: JSONDecoder = JSONDecoder(),
    failsOnEmptyData: Bool = true
  ) -> Single<D> {
    map { try $0.map(type, atKeyPath: keyPath, using: decoder, failsOnEmptyData: failsOnEmptyData) }
  }
}

extension ObservableType where Element == Response {
  public func filter<R: RangeExpression>(statusCodes: R) -> Observable<Element> where R.Bound == Int {
    map { try $0.filter(statusCodes: statusCodes) }
  }

  public func filter(statusCode: Int) -> Observable<Element> { map { try $0.filter(statusCode: statusCode) } }

  public func filterSuccessfulStatusCodes() -> Observable<Element> { map { try $0.filterSuccessfulStatusCodes() } }

  public func filterSuccessfulStatusAndRedirectCodes() -> Observable<Element> {
    map { try $0.filterSuccessfulStatusAndRedirectCodes() }
  }

  public func mapJSON(failsOnEmptyData: Bool = true) -> Observable<Any> {
    map { try $0.mapJSON(failsOnEmptyData: failsOnEmptyData) }
  }

  public func mapString(atKeyPath keyPath: String? = nil) -> Observable<String> {
    map { try $0.mapString(atKeyPath: keyPath) }
  }

  public func map<D: Decodable>(
    _ type: D.Type, atKeyPath keyPath: String? = nil, using decoder: JSONDecoder = JSONDecoder(),
    failsOnEmptyData: Bool = true
  ) -> Observable<D> {
    map { try $0.map(type, atKeyPath: keyPath, using: decoder, failsOnEmptyData: failsOnEmptyData) }
  }
}
