public import FlowrunDiagnostics

/// One `---`-separated document of a YAML file.
public struct YAMLDocument: Hashable, Sendable {
  /// The document's content; nil for an empty document.
  public var root: YAMLNode?
  public var start: SourceLocation
  public var end: SourceLocation

  public init(root: YAMLNode?, start: SourceLocation, end: SourceLocation) {
    self.root = root
    self.start = start
    self.end = end
  }
}

/// A parsed YAML file: its text, its documents, and exact location lookups into it.
public struct YAMLFile: Sendable {
  /// The path as given to `parse`, used in diagnostics.
  public let path: String
  /// The file's text (without a byte order mark; invalid UTF-8 replaced by U+FFFD), decoded
  /// from the bytes on each use (a file does not keep a second copy of itself).
  public var text: String {
    String(decoding: source.bytes[source.bomLength...], as: UTF8.self)
  }
  /// The documents parsed before the first fatal error, in file order.
  public var documents: [YAMLDocument]
  let source: SourceText

  init(path: String, documents: [YAMLDocument], source: SourceText) {
    self.path = path
    self.documents = documents
    self.source = source
  }

  /// Parses `bytes` as UTF-8 YAML, returning what was parsed and every diagnostic.
  ///
  /// Never traps and never runs away: oversized files, invalid UTF-8, NUL and control bytes are
  /// rejected before libyaml sees them; nesting, node count and alias expansion are bounded by
  /// `limits`. After a fatal error the documents completed before it are returned.
  public static func parse(
    path: String, bytes: [UInt8], limits: YAMLLimits = YAMLLimits()
  ) -> (YAMLFile, [Diagnostic]) {
    // Node records keep 32-bit byte offsets.
    let maxFileSize = min(limits.maxFileSize, Int(UInt32.max))
    guard bytes.count <= maxFileSize else {
      let file = YAMLFile(path: path, documents: [], source: SourceText(bytes: []))
      return (file, [Diagnostic(path: path, location: nil, message: .fileTooLarge(limit: maxFileSize))])
    }
    let source = SourceText(bytes: bytes)
    if let problem = source.firstProblem {
      let file = YAMLFile(path: path, documents: [], source: source)
      let place = source.location(ofByte: problem.offset)
      return (file, [source.diagnostic(path: path, problem.message, at: place)])
    }
    var builder = TreeBuilder(path: path, source: source, limits: limits)
    // libyaml reads the caller's bytes in place (no copy of the file) while they are pinned;
    // an empty file reads an empty prefix of a one-byte array, which has a base address.
    let storage = bytes.isEmpty ? [0] : bytes
    storage.withUnsafeBufferPointer { buffer in
      let parser = LibYAMLParser(input: UnsafeBufferPointer(rebasing: buffer[0..<bytes.count]))
      parsing: while true {
        switch parser.next({ builder.handle($0) }) {
        case .success(let proceed):
          if !proceed { break parsing }
        case .failure(let error):
          builder.report(error)
          break parsing
        }
      }
    }
    let (documents, diagnostics) = builder.finish()
    return (YAMLFile(path: path, documents: documents, source: source.parsed), diagnostics)
  }

  /// Parses `text`; see `parse(path:bytes:limits:)`.
  public static func parse(
    path: String, text: String, limits: YAMLLimits = YAMLLimits()
  ) -> (YAMLFile, [Diagnostic]) {
    parse(path: path, bytes: Array(text.utf8), limits: limits)
  }

  /// The text of 1-based line `line` without its line break; nil when out of range.
  public func sourceLine(_ line: Int) -> String? {
    source.sourceLine(line)
  }

  /// The number of lines (a final line break starts one more, empty line).
  public var lineCount: Int { source.lineCount }

  /// The location of 0-based byte `offset` in the file.
  public func location(ofByteOffset offset: Int) -> SourceLocation {
    source.location(ofByte: offset)
  }

  /// An error (or other severity) about this file at `location`, with its source line filled
  /// in for the caret.
  public func diagnostic(
    _ message: Diagnostic.Message,
    at location: SourceLocation?,
    severity: Diagnostic.Severity = .error,
    notes: [Diagnostic.Note] = []
  ) -> Diagnostic {
    var result = source.diagnostic(path: path, message, at: location, notes: notes)
    result.severity = severity
    return result
  }
}

extension Diagnostic.Message {
  fileprivate static func fileTooLarge(limit: Int) -> Self { "file is larger than the limit of \(limit) bytes" }
}
