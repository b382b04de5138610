/// A position in a source file.
///
/// `line` and `column` are 1-based; columns count Unicode scalars, as the spec's diagnostics do.
/// `offset` is the 0-based byte offset of the position in the UTF-8 file.
public struct SourceLocation: Hashable, Sendable, Comparable {
  public var line: Int
  public var column: Int
  public var offset: Int

  public init(line: Int, column: Int, offset: Int) {
    self.line = line
    self.column = column
    self.offset = offset
  }

  public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
    (lhs.line, lhs.column) < (rhs.line, rhs.column)
  }
}

// MARK: - CustomStringConvertible

extension SourceLocation: CustomStringConvertible {
  public var description: String { "\(line):\(column)" }
}
