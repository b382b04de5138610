import FlowrunDiagnostics
import SwiftParser
import SwiftSyntax

/// One Swift file, parsed once, with the one converter that places its findings.
///
/// swift-syntax counts columns in UTF-8 bytes; flowrun's diagnostics count Unicode scalars, so
/// `place(_:)` converts once, here.
struct SwiftFile {
  let path: String
  /// The file name without folders, as the draft's comments cite it (`LoginViewModel.swift:38`).
  let name: String
  let tree: SourceFileSyntax
  private let converter: SourceLocationConverter
  private let lines: [Substring]

  init(path: String, source: String) {
    self.path = path
    name = path.split(separator: "/").last.map(String.init) ?? path
    tree = Parser.parse(source: source)
    converter = SourceLocationConverter(fileName: path, tree: tree)
    lines = source.split(separator: "\n", omittingEmptySubsequences: false)
  }

  /// The flowrun location of `node`'s first token (after its leading trivia).
  func place(_ node: some SyntaxProtocol) -> FlowrunDiagnostics.SourceLocation {
    let location = node.startLocation(converter: converter)
    let line = location.line
    var column = location.column
    if line >= 1, line <= lines.count {
      let bytes = Array(lines[line - 1].utf8.prefix(max(location.column - 1, 0)))
      column = String(decoding: bytes, as: UTF8.self).unicodeScalars.count + 1
    }
    return FlowrunDiagnostics.SourceLocation(line: line, column: column, offset: location.offset)
  }

  /// The line of `node`, for the draft's comments.
  func line(of node: some SyntaxProtocol) -> Int { place(node).line }

  /// `LoginViewModel.swift:38`.
  func cite(_ node: some SyntaxProtocol) -> String { "\(name):\(line(of: node))" }

  /// A finding at `node`: `path:line:column: severity: message` with the caret snippet.
  func diagnostic(
    _ severity: Diagnostic.Severity, _ message: String, at node: some SyntaxProtocol
  ) -> Diagnostic {
    let location = place(node)
    let source = location.line >= 1 && location.line <= lines.count ? String(lines[location.line - 1]) : nil
    return Diagnostic(severity: severity, path: path, location: location, message: message, sourceLine: source)
  }

  /// The parser's errors: one diagnostic per piece of source it could not read or had to
  /// invent, in file order.
  func parseErrors() -> [Diagnostic] {
    guard tree.hasError else { return [] }
    let finder = ParseErrorFinder(viewMode: .sourceAccurate)
    finder.walk(tree)
    return finder.found.map { found in
      switch found {
      case .unexpected(let node):
        diagnostic(.error, "the Swift parser cannot read '\(node.trimmedDescription.prefix(40))'", at: node)
      case .missing(let token):
        diagnostic(.error, "the Swift parser expected '\(token.text)' here", at: token)
      }
    }
  }
}

/// Finds what the parser could not read (`UnexpectedNodesSyntax`) and what it invented (missing
/// tokens).
private final class ParseErrorFinder: SyntaxVisitor {
  enum Found {
    case unexpected(UnexpectedNodesSyntax)
    case missing(TokenSyntax)
  }

  var found: [Found] = []

  override func visit(_ node: UnexpectedNodesSyntax) -> SyntaxVisitorContinueKind {
    found.append(.unexpected(node))
    return .skipChildren
  }

  override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
    if token.presence == .missing { found.append(.missing(token)) }
    return .visitChildren
  }
}
