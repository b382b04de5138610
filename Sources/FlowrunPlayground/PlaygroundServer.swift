import FlowrunDiagnostics
import FlowrunReport
import FlyingFox
import FlyingSocks
import Foundation

/// `flowrun playground`: a web server on the loopback interface only, serving one page that
/// edits a scenario and redraws it as the user types.
///
/// Routes: `GET /` the page; `POST /render` (the text as body) the diagrams, diffs and
/// diagnostics as JSON; `POST /save` (JSON `{text, base}`) writes the file. A request must name
/// this server in its `Host` header (no other site can reach it through a rebound name), and a
/// `POST` must carry `X-Flowrun-Playground: 1` (a cross-site form cannot set it).
public final class PlaygroundServer: Sendable {
  public let document: PlaygroundDocument
  /// The path reports and diagnostics name (the file as given, or `playground.yaml`).
  let displayPath: String
  private let server: HTTPServer
  private let port: UInt16

  /// Why the server could not start.
  public enum StartError: Error, CustomStringConvertible {
    case portInUse(UInt16)
    case cannotListen(String)

    public var description: String {
      switch self {
      case .portInUse(let port):
        "port \(port) on 127.0.0.1 is already in use by another program; choose another with --port N (--port 0 picks a free one)"
      case .cannotListen(let reason): "cannot listen on 127.0.0.1: \(reason)"
      }
    }
  }

  public init(document: PlaygroundDocument, port: UInt16) throws {
    self.document = document
    self.displayPath = document.path ?? "playground.yaml"
    self.port = port
    server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: port), timeout: 30, logger: .disabled)
  }

  /// Serves until the task is cancelled; `listening` is called with the page's address once the
  /// socket listens.
  public func run(listening: @escaping @Sendable (URL) -> Void) async throws {
    await addRoutes()
    let server = self.server
    let port = self.port
    async let served: Void = server.run()
    do {
      try await server.waitUntilListening(timeout: 10)
    } catch {
      // run() failed before listening: its error says why.
      do { try await served } catch { throw PlaygroundServer.startError(error, port: port) }
      throw StartError.cannotListen("\(error)")
    }
    if case .ip4(_, let actual)? = await server.listeningAddress {
      listening(URL(string: "http://127.0.0.1:\(actual)/")!)
    }
    do { try await served } catch { throw PlaygroundServer.startError(error, port: port) }
  }

  public func stop() async {
    await server.stop(timeout: 1)
  }

  static func startError(_ error: any Error, port: UInt16) -> any Error {
    if case SocketError.failed(let type, let code, let message) = error {
      if code == EADDRINUSE { return StartError.portInUse(port) }
      return StartError.cannotListen("\(type): \(message)")
    }
    return error
  }

  // MARK: - Routes

  private func addRoutes() async {
    await server.appendRoute("GET /") { [self] request in
      guard isLocal(request) else { return forbidden() }
      return await page()
    }
    await server.appendRoute("POST /render") { [self] request in
      guard isLocal(request), isFromPage(request) else { return forbidden() }
      let text = String(decoding: try await request.bodyData, as: UTF8.self)
      let render = await PlaygroundRender.rendered(text, path: displayPath)
      return json(render)
    }
    await server.appendRoute("POST /save") { [self] request in
      guard isLocal(request), isFromPage(request) else { return forbidden() }
      guard let body = try? JSONDecoder().decode(SaveRequest.self, from: try await request.bodyData) else {
        return json(SaveReply(saved: false, base: nil, message: "the request was not understood"), status: .badRequest)
      }
      switch await document.save(body.text, base: body.base) {
      case .saved(let base):
        return json(SaveReply(saved: true, base: base, message: "saved \(displayPath)"))
      case .changedOnDisk:
        let message =
          "not saved: \(displayPath) changed on disk since the page loaded it; copy your edits, reload the page, and apply them again"
        return json(SaveReply(saved: false, base: nil, message: message), status: .conflict)
      case .failed(let reason):
        return json(SaveReply(saved: false, base: nil, message: reason), status: .internalServerError)
      }
    }
    await server.appendRoute("*") { _ in
      HTTPResponse(
        statusCode: .notFound, headers: [.contentType: "text/plain; charset=utf-8"], body: Data("not found\n".utf8))
    }
  }

  private struct SaveRequest: Decodable {
    var text: String
    var base: String
  }

  private struct SaveReply: Encodable {
    var saved: Bool
    var base: String?
    var message: String
  }

  /// Whether the request names this server (`127.0.0.1:PORT` or `localhost:PORT`).
  private func isLocal(_ request: HTTPRequest) -> Bool {
    guard let host = request.headers[.host] else { return false }
    let name = host.split(separator: ":").first.map(String.init) ?? host
    return name == "127.0.0.1" || name == "localhost"
  }

  private func isFromPage(_ request: HTTPRequest) -> Bool {
    request.headers[HTTPHeader("X-Flowrun-Playground")] == "1"
  }

  private func forbidden() -> HTTPResponse {
    HTTPResponse(
      statusCode: .forbidden, headers: [.contentType: "text/plain; charset=utf-8"], body: Data("forbidden\n".utf8))
  }

  private func json(_ value: some Encodable, status: HTTPStatusCode = .ok) -> HTTPResponse {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
    return HTTPResponse(
      statusCode: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
      body: data)
  }

  private func page() async -> HTTPResponse {
    let text = await document.text
    let base = await document.base
    let render = await PlaygroundRender.rendered(text, path: displayPath)
    let html = PlaygroundPage(
      path: displayPath, text: text, base: base, canSave: document.path != nil, result: render
    ).render()
    return HTTPResponse(
      statusCode: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
      body: Data(html.utf8))
  }
}
