import Foundation
import Testing

/// `Package.swift` against the sources: every module a target imports is declared as its
/// dependency (and nothing else is), and the layers keep their order — the reactive engine does
/// not know YAML exists.
@Suite struct PackageManifestTests {
  /// Modules of the toolchain, which no manifest declares.
  static let toolchainModules: Set<String> = [
    "Foundation", "FoundationXML", "Testing", "Glibc", "Darwin", "Observation",
  ]

  /// The modules a dependency brings besides its own name: the Yams product carries libyaml as
  /// the C module `CYaml`, which `CarriedYAML` links into `FlowrunYAML` under a trait.
  static let providedModules: [String: Set<String>] = ["Yams": ["CYaml"], "CarriedYAML": ["CYaml"]]

  struct Target {
    var name: String
    var type: String
    var directory: URL
    var dependencies: Set<String>
    /// The target's `exclude:` paths (fixtures that are never compiled), as full paths.
    var excluded: [String] = []
  }

  /// The targets of the manifest, from `swift package dump-package` (run with a scratch path of
  /// its own, so it does not wait for the lock of the build that runs these tests).
  static func targets() throws -> [String: Target] {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-manifest-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let dump = try Shell.run(["swift", "package", "--scratch-path", scratch.path, "dump-package"])
    try #require(dump.status == 0, "swift package dump-package failed:\n\(dump.output)")
    let json = try #require(dump.output.firstIndex(of: "{").map { String(dump.output[$0...]) })
    let manifest = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    var targets: [String: Target] = [:]
    for case let target as [String: Any] in manifest["targets"] as? [Any] ?? [] {
      guard let name = target["name"] as? String, let type = target["type"] as? String else { continue }
      var dependencies: Set<String> = []
      for case let dependency as [String: [Any]] in target["dependencies"] as? [Any] ?? [] {
        // {"byName": [name, condition]}, {"target": [name, condition]} or {"product": [name, package, …]}
        if let name = dependency.values.first?.first as? String { dependencies.insert(name) }
      }
      let folder = type == "test" ? "Tests" : "Sources"
      let directory = CLI.packageRoot.appendingPathComponent(target["path"] as? String ?? "\(folder)/\(name)")
      let excluded = (target["exclude"] as? [String] ?? []).map { directory.appendingPathComponent($0).path }
      targets[name] = Target(
        name: name, type: type, directory: directory, dependencies: dependencies, excluded: excluded)
    }
    return targets
  }

  /// The modules the Swift files under `directory` import.
  static func imports(in directory: URL, excluding excluded: [String] = []) -> Set<String> {
    let pattern = /^\s*(?:@testable |@_exported )?(?:public |package |internal )?import (\w+)\s*$/
    var modules: Set<String> = []
    let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
    while let file = files?.nextObject() as? URL {
      guard file.pathExtension == "swift", !excluded.contains(where: { file.path.hasPrefix($0 + "/") }),
        let text = try? String(contentsOf: file, encoding: .utf8)
      else { continue }
      for line in text.split(separator: "\n") {
        if let match = line.wholeMatch(of: pattern) { modules.insert(String(match.1)) }
      }
    }
    return modules
  }

  /// `name` and every target it depends on, directly or not.
  static func closure(of name: String, in targets: [String: Target]) -> Set<String> {
    var seen: Set<String> = []
    var pending = [name]
    while let next = pending.popLast() {
      guard seen.insert(next).inserted else { continue }
      pending += targets[next]?.dependencies ?? []
    }
    return seen
  }

  @Test func everyImportIsADeclaredDependencyAndEveryDependencyIsImported() throws {
    let targets = try Self.targets()
    #expect(targets["FlowrunCore"] != nil, "the manifest was not read")
    for target in targets.values.sorted(by: { $0.name < $1.name }) where target.type != "system" {
      let imported = Self.imports(in: target.directory, excluding: target.excluded).subtracting(Self.toolchainModules)
      let provided = target.dependencies.reduce(into: target.dependencies) {
        $0.formUnion(Self.providedModules[$1] ?? [])
      }
      let undeclared = imported.subtracting(provided)
      #expect(undeclared.isEmpty, "\(target.name) imports \(undeclared.sorted()) without declaring them")
      // A test target may depend on an executable only to have it built.
      let executables = Set(targets.values.filter { $0.type == "executable" }.map(\.name))
      let unused = target.dependencies.filter {
        imported.isDisjoint(with: Set([$0]).union(Self.providedModules[$0] ?? []))
      }
      .subtracting(target.type == "test" ? executables : [])
      #expect(unused.isEmpty, "\(target.name) declares \(unused.sorted()) but imports none of them")
    }
  }

  @Test func theReactiveEngineDoesNotKnowYAMLOrReports() throws {
    let targets = try Self.targets()
    let core = Self.closure(of: "FlowrunCore", in: targets)
    #expect(core.contains("FlowrunDiagnostics"))
    #expect(core.isDisjoint(with: ["CLibYAML", "FlowrunYAML", "FlowrunScenario", "FlowrunReport", "FlowrunApp"]))
    let renderers = Self.closure(of: "FlowrunReport", in: targets)
    #expect(!renderers.contains("FlowrunApp"), "the renderers must not depend on the application")
  }

  @Test func onlyTheTestingLibraryKnowsCombine() throws {
    let targets = try Self.targets()
    let executable = Self.closure(of: "flowrun", in: targets)
    #expect(executable.isDisjoint(with: ["FlowrunTesting", "OpenCombineShim"]), "the executable must stay light")
    #expect(Self.closure(of: "Flowrun", in: targets).isDisjoint(with: ["FlowrunTesting", "OpenCombineShim"]))
    #expect(Self.closure(of: "FlowrunTesting", in: targets).contains("OpenCombineShim"))
    // Exploring the code injects its runs into the explorer, which knows no Combine.
    #expect(!Self.closure(of: "FlowrunExplore", in: targets).contains("FlowrunTesting"))
    for name in ["FlowrunCore", "FlowrunScenario", "FlowrunReport", "FlowrunApp", "FlowrunExplore"] {
      #expect(!Self.closure(of: name, in: targets).contains("OpenCombineShim"), "\(name) must not know Combine")
    }
  }

  @Test func onlyTheImporterKnowsSwiftSyntax() throws {
    let targets = try Self.targets()
    let syntax: Set<String> = ["SwiftSyntax", "SwiftParser"]
    #expect(
      Self.closure(of: "flowrun", in: targets).isDisjoint(with: syntax), "building flowrun must not build swift-syntax")
    #expect(Self.closure(of: "Flowrun", in: targets).isDisjoint(with: syntax))
    #expect(Self.closure(of: "flowrun-import", in: targets).isSuperset(of: syntax))
    let users = targets.values.filter { !$0.dependencies.isDisjoint(with: syntax) }.map(\.name).sorted()
    #expect(users == ["FlowrunImport"])
  }
}
