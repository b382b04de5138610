import FlowrunScenario

/// `--update`: rewrites failing expectation marbles in place (ExpectationUpdater+Edits.swift).
enum ExpectationUpdater {
  /// Rewrites the files of `report`'s failing expectations; returns one line per rewrite.
  static func update(_ report: RunReport) -> [String] {
    []
  }
}
