import FlowrunScenario
import Foundation
public import Testing

/// One scenario document of a file, as the argument of a parameterized `@Test`
/// (``ScenarioCheck/documents(_:root:filePath:)``): Swift Testing runs and reports each
/// document as its own test case, named by the scenario.
public struct ScenarioDocument: Sendable, CustomTestStringConvertible, CustomStringConvertible {
  /// The file, as given (relative to the package holding `root`, or absolute).
  public let path: String
  /// Where the package is found from (the calling test file).
  public let root: String
  /// The scenario's name; nil when the file could not be loaded (running it reports why).
  public let name: String?

  public var testDescription: String { name ?? path }
  public var description: String { testDescription }
}

extension ScenarioCheck {
  /// The scenario documents of the file at `path` (relative to the package holding `root`,
  /// else the package holding the calling test file), one argument of a parameterized test
  /// each:
  ///
  /// ```swift
  /// @Test(arguments: ScenarioCheck.documents("scenarios/login/logout.yaml"))
  /// func logout(_ document: ScenarioDocument) throws {
  ///   try ScenarioCheck.run(document) { flow in … }
  /// }
  /// ```
  ///
  /// A file that cannot be read or loaded gives one document, whose run reports why.
  public static func documents(_ path: String, root: String? = nil, filePath: String = #filePath)
    -> [ScenarioDocument]
  {
    let root = root ?? filePath
    let place = Place(path: path, root: root, fileID: "", filePath: filePath, line: 1, column: 1)
    guard let data = FileManager.default.contents(atPath: place.absolute(path)) else {
      return [ScenarioDocument(path: path, root: root, name: nil)]
    }
    let loaded = ScenarioLoader.load(path: path, bytes: [UInt8](data))
    var seen: Set<String> = []
    let names = loaded.scenarios.map(\.name).filter { seen.insert($0).inserted }
    guard !names.isEmpty else { return [ScenarioDocument(path: path, root: root, name: nil)] }
    return names.map { ScenarioDocument(path: path, root: root, name: $0) }
  }

  /// ``run(_:root:scenario:artifacts:exhaustivity:fileID:filePath:line:column:_:)`` on one
  /// document of a file.
  public static func run(
    _ document: ScenarioDocument, artifacts: String? = nil, exhaustivity: Exhaustivity = .on,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    _ bind: (Flow) throws -> Void
  ) throws {
    try run(
      document.path, root: document.root, scenario: document.name, artifacts: artifacts, exhaustivity: exhaustivity,
      fileID: fileID, filePath: filePath, line: line, column: column, bind)
  }

  /// ``failures(_:root:scenario:artifacts:exhaustivity:fileID:filePath:line:column:_:)`` on one
  /// document of a file.
  public static func failures(
    _ document: ScenarioDocument, artifacts: String? = nil, exhaustivity: Exhaustivity = .on,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    _ bind: (Flow) throws -> Void
  ) throws -> [Failure] {
    try failures(
      document.path, root: document.root, scenario: document.name, artifacts: artifacts, exhaustivity: exhaustivity,
      fileID: fileID, filePath: filePath, line: line, column: column, bind)
  }
}
