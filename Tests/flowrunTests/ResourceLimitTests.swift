import Foundation
import Testing

/// The hostile corpus and `scenarios/` run under the resource limits of CI containers and
/// sandboxes (`scripts/check-under-limits.sh`): a 1 GiB address space, a small main-thread
/// stack, and no thread or process allowed to start. Every run must end with its exit code and
/// diagnostics, as without the limits: a worker thread or a child process that cannot start is
/// detected and the run goes on without it (WorkPool.swift, IsolatedRun.swift). Nothing is
/// timed; the script kills and reports as hung a run still going after its hang guard.
@Suite
struct ResourceLimitTests {
  @Test(arguments: ["address", "stack", "processes"])
  func corpusEndsUnderLimit(_ mode: String) async throws {
    let executable = try #require(CLI.executable, "the flowrun executable was not built")
    let script = CLI.packageRoot.appendingPathComponent("scripts/check-under-limits.sh")
    let run = try await ChildProcess.run(
      "/bin/bash", [script.path, executable.path, mode], in: CLI.packageRoot, hangGuard: 3600)
    #expect(!run.hung && run.status == 0, "\(run.output.suffix(6000))")
    #expect(run.output.contains("runs passed"), "\(run.output.suffix(2000))")
  }
}
