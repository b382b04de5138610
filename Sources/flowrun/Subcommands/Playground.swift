import ArgumentParser
import FlowrunApp
import FlowrunPlayground
import FlowrunReport
import Foundation

extension FlowrunCommand {
  struct Playground: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Edit a scenario in a local web page that redraws its diagram as you type.",
      discussion: """
        Serves one page on 127.0.0.1 only: the scenario's YAML in an editor, and beside it the \
        diagram with its frame slider, the failed expectations' diffs and the diagnostics, \
        redrawn as you type. Edits stay in the page until you save (the Save button or Ctrl-S); \
        a save refuses when the file changed on disk since the page loaded it. Without a file, \
        or with a file that does not exist yet, the page starts from the starter scenario.
        """)

    @Argument(help: ArgumentHelp("The scenario file to edit (created on the first save).", valueName: "file"))
    var file: String?

    @Option(help: ArgumentHelp("The port to listen on, on 127.0.0.1 (0: any free port).", valueName: "port"))
    var port: UInt16 = 8123

    func run() throws {
      let document: PlaygroundDocument
      let server: PlaygroundServer
      do {
        document = try PlaygroundDocument(path: file)
        server = try PlaygroundServer(document: document, port: port)
      } catch let error as UsageError {
        FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
        throw ExitCode(64)
      }
      let outcome = Outcome()
      let editing = file.map { "editing \($0)" } ?? "a scratch scenario (nothing to save to)"
      Task {
        do {
          try await server.run { url in
            FileHandle.standardOutput.write(
              Data("flowrun playground: \(url.absoluteString)  (\(editing); Ctrl-C to stop)\n".utf8))
          }
          outcome.finish(nil)
        } catch {
          outcome.finish("\(error)")
        }
      }
      if let message = outcome.wait() {
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
        throw ExitCode(1)
      }
    }
  }
}

/// How the server task ended, handed to the main thread that waits for it.
private final class Outcome: @unchecked Sendable {
  private let condition = NSCondition()
  private var done = false
  private var message: String?

  func finish(_ message: String?) {
    condition.lock()
    self.message = message
    done = true
    condition.broadcast()
    condition.unlock()
  }

  func wait() -> String? {
    condition.lock()
    defer { condition.unlock() }
    while !done { condition.wait() }
    return message
  }
}
