import Foundation
import Testing

/// `docs/reference/cli.md` names every command of `flowrun --help` and every flag of each
/// command's help.
@Suite struct ReferenceCLITests {
  static let page: String = {
    let data =
      FileManager.default.contents(
        atPath: CLI.packageRoot.appendingPathComponent("docs/reference/cli.md").path) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }()

  /// The subcommands listed by `flowrun --help`.
  static func subcommands() throws -> [String] {
    let help = try CLI.run(["--help"]).stdout
    let section = help.components(separatedBy: "SUBCOMMANDS:").last ?? ""
    return section.split(separator: "\n").compactMap { line in
      guard line.hasPrefix("  "), !line.hasPrefix("   "), let word = line.split(separator: " ").first else {
        return nil
      }
      return word == "See" ? nil : String(word)
    }
  }

  @Test func everyCommandAndFlagHasItsPlace() throws {
    let commands = try Self.subcommands()
    #expect(commands.contains("run") && commands.contains("lsp"))
    for command in commands {
      #expect(Self.page.contains("## `\(command)`"), "cli.md has no section for '\(command)'")
      let help = try CLI.run(["help", command]).stdout
      let options = help.components(separatedBy: "OPTIONS:").last ?? ""
      let flags = options.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," }).filter {
        $0.hasPrefix("--") && $0 != "--help" && $0 != "--version"
      }
      // `import` passes its arguments on to flowrun-import.
      #expect(!flags.isEmpty || ["lsp", "trace", "import"].contains(command))
      for flag in Set(flags) {
        #expect(Self.page.contains("`\(flag)"), "cli.md does not mention \(flag) of '\(command)'")
      }
    }
  }
}
