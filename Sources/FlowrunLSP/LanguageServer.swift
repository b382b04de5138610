import FlowrunCore
import FlowrunDiagnostics
import Foundation

/// `flowrun lsp`: a Language Server Protocol server for scenario files, over JSON-RPC on a pair
/// of file descriptors (the executable gives it standard input and output).
///
/// One thread reads messages; the server's loop handles them in order, and publishes a
/// document's diagnostics when it is opened and `debounce` after its last change.
public struct LanguageServer: Sendable {
  public struct Options: Sendable {
    /// How long after the last change diagnostics wait.
    public var debounce: Duration
    /// Where the reference pages are (`…/docs/reference/`, a `file:` URL or a web address,
    /// ending in `/`); hovers link there, or give the repository path when nil.
    public var referenceBase: String?

    public init(debounce: Duration = .milliseconds(200), referenceBase: String? = nil) {
      self.debounce = debounce
      self.referenceBase = referenceBase
    }
  }

  public let options: Options

  public init(options: Options = Options()) {
    self.options = options
  }

  /// Serves until the client sends `exit` or closes the input; returns the exit code LSP asks
  /// for: 0 after `shutdown`, 1 otherwise.
  public func run(input: Int32, output: Int32) -> Int32 {
    let queue = MessageQueue()
    let reader = MessageReader(descriptor: input)
    let started = WorkerThread.start(stackSize: 4 << 20) {
      while true {
        let incoming = reader.next()
        queue.push(incoming)
        if case .end = incoming { return }
      }
    }
    let session = Session(options: options, writer: MessageWriter(descriptor: output))
    guard case .success(let thread) = started else {
      // No reader thread could start: each message is read and handled in turn, and a
      // document's diagnostics are published right after its change (no debounce).
      while !session.finished {
        handle(reader.next(), in: session)
        session.publishDueDiagnostics(all: true)
      }
      return session.shutdownRequested ? 0 : 1
    }
    thread.detach()
    while !session.finished {
      guard let incoming = queue.pop(before: session.nextDeadline) else {
        session.publishDueDiagnostics()
        continue
      }
      handle(incoming, in: session)
      session.publishDueDiagnostics()
    }
    return session.shutdownRequested ? 0 : 1
  }

  private func handle(_ incoming: Incoming, in session: Session) {
    switch incoming {
    case .message(let message): session.handle(message)
    case .malformed(let reason): session.reply(id: .null, error: (-32700, reason))
    case .end: session.finished = true
    }
  }
}

/// The state of one client's session, touched only by the server's loop.
final class Session {
  let options: LanguageServer.Options
  let writer: MessageWriter
  var documents: [String: OpenDocument] = [:]
  /// When each document's diagnostics are due.
  var pending: [String: ContinuousClock.Instant] = [:]
  var finished = false
  var shutdownRequested = false

  init(options: LanguageServer.Options, writer: MessageWriter) {
    self.options = options
    self.writer = writer
  }

  var nextDeadline: Date? {
    guard let first = pending.values.min() else { return nil }
    let wait = ContinuousClock.now.duration(to: first)
    let seconds = Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18
    return Date(timeIntervalSinceNow: max(0, seconds))
  }

  func handle(_ message: JSONValue) {
    guard let method = message["method"]?.stringValue else { return }  // a response to us: none expected
    let params = message["params"] ?? .null
    guard let id = message["id"] else {
      notify(method, params)
      return
    }
    if shutdownRequested, method != "exit" {
      reply(id: id, error: (-32600, "the server is shutting down"))
      return
    }
    switch method {
    case "initialize": reply(id: id, result: Self.capabilities)
    case "shutdown":
      shutdownRequested = true
      reply(id: id, result: .null)
    case "textDocument/hover": reply(id: id, result: withDocument(params) { Hover.hover($0, at: $1, options: options) })
    case "textDocument/completion": reply(id: id, result: withDocument(params) { Completion.items($0, at: $1) })
    case "textDocument/definition": reply(id: id, result: withDocument(params) { Navigation.definition($0, at: $1) })
    case "textDocument/references":
      let includeDeclaration = params["context"]?["includeDeclaration"] == .bool(true)
      reply(
        id: id,
        result: withDocument(params) { Navigation.references($0, at: $1, includeDeclaration: includeDeclaration) })
    case "textDocument/documentSymbol":
      let uri = params["textDocument"]?["uri"]?.stringValue ?? ""
      reply(id: id, result: documents[uri].map { Navigation.symbols($0) } ?? .null)
    default: reply(id: id, error: (-32601, "method not found: \(method)"))
    }
  }

  private func notify(_ method: String, _ params: JSONValue) {
    let uri = params["textDocument"]?["uri"]?.stringValue ?? ""
    switch method {
    case "exit":
      finished = true
    case "textDocument/didOpen":
      guard let text = params["textDocument"]?["text"]?.stringValue else { return }
      documents[uri] = OpenDocument(uri: uri, version: params["textDocument"]?["version"]?.intValue ?? 0, text: text)
      pending[uri] = ContinuousClock.now
    case "textDocument/didChange":
      guard let document = documents[uri] else { return }
      document.apply(
        changes: params["contentChanges"]?.arrayValue ?? [],
        version: params["textDocument"]?["version"]?.intValue ?? document.version + 1)
      pending[uri] = ContinuousClock.now.advanced(by: options.debounce)
    case "textDocument/didClose":
      documents[uri] = nil
      pending[uri] = nil
      publish(uri: uri, version: nil, diagnostics: [])
    default:
      break
    }
  }

  /// Runs `body` on the document and position of a `TextDocumentPositionParams`.
  private func withDocument(_ params: JSONValue, _ body: (OpenDocument, Position) -> JSONValue) -> JSONValue {
    guard let uri = params["textDocument"]?["uri"]?.stringValue, let document = documents[uri],
      let position = Position(params["position"])
    else { return .null }
    return body(document, position)
  }

  /// Publishes the diagnostics that are due (`all`: every pending one).
  func publishDueDiagnostics(all: Bool = false) {
    let now = ContinuousClock.now
    for (uri, due) in pending where all || due <= now {
      pending[uri] = nil
      guard let document = documents[uri] else { continue }
      publish(uri: uri, version: document.version, diagnostics: DiagnosticsProvider.diagnostics(of: document))
    }
  }

  private func publish(uri: String, version: Int?, diagnostics: [JSONValue]) {
    var params: [String: JSONValue] = ["uri": .string(uri), "diagnostics": .array(diagnostics)]
    if let version { params["version"] = .int(version) }
    writer.send(["jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": .object(params)])
  }

  func reply(id: JSONValue, result: JSONValue) {
    writer.send(["jsonrpc": "2.0", "id": id, "result": result])
  }

  func reply(id: JSONValue, error: (code: Int, message: String)) {
    writer.send(["jsonrpc": "2.0", "id": id, "error": ["code": .int(error.code), "message": .string(error.message)]])
  }

  static let capabilities: JSONValue = [
    "capabilities": [
      "positionEncoding": "utf-16",
      "textDocumentSync": ["openClose": true, "change": 1],
      "hoverProvider": true,
      "completionProvider": ["triggerCharacters": [".", "\"", "'", "-"], "resolveProvider": false],
      "definitionProvider": true,
      "referencesProvider": true,
      "documentSymbolProvider": true,
    ],
    "serverInfo": ["name": "flowrun", "version": "0.1.0"],
  ]
}
