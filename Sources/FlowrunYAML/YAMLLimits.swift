/// Bounds that keep parsing a hostile file fast and small.
public struct YAMLLimits: Hashable, Sendable {
  /// The largest file accepted, in bytes (default 10 MiB).
  public var maxFileSize: Int
  /// The deepest nesting of collections accepted (default 256).
  public var maxDepth: Int
  /// The most nodes (scalars and collections, aliases excluded) in one file (default 1,000,000).
  public var maxNodes: Int
  /// The most nodes that alias expansions may copy in one file, counted as the total subtree
  /// size of every expanded alias (default 100,000). Stops "billion laughs" files.
  public var aliasExpansion: Int

  public init(
    maxFileSize: Int = 10 * 1024 * 1024,
    maxDepth: Int = 256,
    maxNodes: Int = 1_000_000,
    aliasExpansion: Int = 100_000
  ) {
    self.maxFileSize = maxFileSize
    self.maxDepth = maxDepth
    self.maxNodes = maxNodes
    self.aliasExpansion = aliasExpansion
  }
}
