import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child process of the supervisor (IsolatedRun.swift), started with `posix_spawn` (whose
/// failure is reported, so the run can go on in process) with its standard error on a pipe that
/// the calling thread reads and forwards. The supervisor stops reading when the pipe closes or
/// when the child has ended (a process the child started may hold the pipe open), so it never
/// waits for a child that is gone.
enum SupervisedChild {
  enum Status: Equatable {
    case exited(Int32)
    case signalled(Int32)
  }

  struct Ending {
    var status: Status
    /// The runtime's or a sanitizer's one-line reason (`Fatal error: …`), if the child printed one.
    var reason: String?
  }

  /// The error number of a child that could not start.
  struct Failure: Error {
    var code: Int32
  }

  /// How much of the end of the child's standard error is kept to find a reason in.
  static let kept = 1 << 16

  static func run(
    executable: String, arguments: [String], environment: [String: String],
    _ standardError: @Sendable (Data) -> Void
  ) -> Result<Ending, Failure> {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return .failure(Failure(code: errno)) }
    let (reading, writing) = (ends[0], ends[1])
    _ = fcntl(reading, F_SETFD, FD_CLOEXEC)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, writing, 2)
    posix_spawn_file_actions_addclose(&actions, writing)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in envp { free(pointer) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
    close(writing)
    guard spawned == 0 else {
      close(reading)
      return .failure(Failure(code: spawned))
    }
    defer { close(reading) }
    var tail: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var status: Int32 = 0
    var reaped = false
    reading: while true {
      var ready = pollfd(fd: reading, events: Int16(POLLIN), revents: 0)
      // Reaped: only what is already in the pipe is read.
      let polled = poll(&ready, 1, reaped ? 0 : 200)
      if polled < 0 && errno == EINTR { continue }
      if polled > 0 {
        let count = buffer.withUnsafeMutableBytes { read(reading, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break reading }
        let chunk = buffer[..<count]
        standardError(Data(chunk))
        tail += chunk
        if tail.count > 2 * kept { tail.removeFirst(tail.count - kept) }
        continue
      }
      if reaped || polled < 0 { break reading }
      // Nothing to read for a while: has the child ended (and left the pipe to someone else)?
      if waitpid(pid, &status, WNOHANG) == pid { reaped = true }
    }
    while !reaped {
      let waited = waitpid(pid, &status, 0)
      if waited == pid || (waited < 0 && errno != EINTR) { reaped = true }
    }
    let signal = status & 0x7f
    let ending: Status = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    return .success(Ending(status: ending, reason: reason(in: tail.suffix(kept))))
  }

  /// The runtime's or a sanitizer's one-line reason (`Fatal error: …`), if `output` holds one.
  static func reason(in output: ArraySlice<UInt8>) -> String? {
    let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
    let markers = ["Fatal error:", "ERROR: AddressSanitizer", "Precondition failed", "Assertion failed"]
    guard let line = lines.last(where: { line in markers.contains { line.contains($0) } }) else { return nil }
    let text = line.trimmingCharacters(in: .whitespaces)
    return text.count > 300 ? String(text.prefix(300)) + "…" : text
  }
}
