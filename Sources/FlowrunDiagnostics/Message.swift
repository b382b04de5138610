extension Diagnostic {
  /// The text of a diagnostic.
  ///
  /// Messages are declared next to the code that raises them, as static factories in the style
  /// of swift-format's `Finding.Message`:
  ///
  /// ```swift
  /// extension Diagnostic.Message {
  ///   fileprivate static func unknownAlias(_ name: String) -> Self { "unknown alias '\(name)'" }
  /// }
  /// ...
  /// diagnostics.append(diagnostic(.unknownAlias(name), at: start))
  /// ```
  ///
  /// so a file's messages read as one list, and a raise site says what it reports. The text
  /// follows the spec's rules: lowercase, names in single quotes.
  public struct Message: Hashable, Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    public var text: String

    public init(_ text: String) {
      self.text = text
    }

    public init(stringLiteral text: String) {
      self.text = text
    }

    public init(stringInterpolation: DefaultStringInterpolation) {
      text = String(stringInterpolation: stringInterpolation)
    }

    public var description: String { text }

    /// The message followed by `; did you mean 'x'?` when `x`, one of `candidates`, is within
    /// `maxDistance` edits of `name` (the closest such, see `closestName`).
    public func suggesting(
      _ name: String, among candidates: some Sequence<String>, maxDistance: Int = 2
    ) -> Message {
      guard let close = closestName(to: name, among: candidates, maxDistance: maxDistance) else { return self }
      return Message(text + "; did you mean '\(close)'?")
    }
  }

  /// A diagnostic whose message is one of the declared messages.
  public init(
    severity: Severity = .error,
    path: String,
    location: SourceLocation?,
    message: Message,
    sourceLine: String? = nil,
    notes: [Note] = []
  ) {
    self.init(
      severity: severity, path: path, location: location, message: message.text, sourceLine: sourceLine,
      notes: notes)
  }
}
