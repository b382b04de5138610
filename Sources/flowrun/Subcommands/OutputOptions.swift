import ArgumentParser
import FlowrunApp
import FlowrunReport
import Foundation

/// How `run` and `check` report: the formats, and whether passing scenarios are listed.
struct OutputOptions: ParsableArguments {
  @Option(
    name: .customLong("reporter"),
    help: ArgumentHelp(
      "Output format, repeatable: human, json, junit, tap or github, optionally to a file (junit:out.xml).",
      valueName: "format[:path]"))
  var reporters: [ReporterArgument] = []

  @Flag(name: .shortAndLong, help: "Print only failures and the summary.")
  var quiet = false

  /// Sets the reporters (adding `github` when `GITHUB_ACTIONS=true`) and, with `-q`, the
  /// quiet verbosity.
  func apply(to options: inout RunOptions) {
    if quiet { options.verbosity = .quiet }
    options.reporters = reporters.map(\.request)
    if ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true",
      !options.reporters.contains(where: { $0.kind == .github })
    {
      if options.reporters.isEmpty { options.reporters.append(.init(kind: .human)) }
      options.reporters.append(.init(kind: .github))
    }
  }
}

struct ReporterArgument: ExpressibleByArgument {
  var request: RunOptions.ReporterRequest

  init?(argument: String) {
    let parts = argument.split(separator: ":", maxSplits: 1).map(String.init)
    guard let first = parts.first, let kind = ReporterKind(rawValue: first) else { return nil }
    request = .init(kind: kind, path: parts.count > 1 ? parts[1] : nil)
  }

  static var allValueStrings: [String] { ReporterKind.allCases.map(\.rawValue) }
}
