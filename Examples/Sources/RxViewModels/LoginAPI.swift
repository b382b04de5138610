import Foundation
import Moya

/// The login endpoint of RxLoginViewModel, as a Moya target.
public enum LoginAPI: TargetType {
  case login(String)

  public var baseURL: URL { URL(string: "https://api.example.com")! }
  public var path: String { "/session" }
  public var method: Moya.Method { .post }
  public var task: Moya.Task {
    switch self {
    case .login(let password): .requestParameters(parameters: ["password": password], encoding: JSONEncoding.default)
    }
  }
  public var headers: [String: String]? { ["Content-Type": "application/json"] }
  public var sampleData: Data { Data(#"{"userName":"sample","region":"eu"}"#.utf8) }
}
