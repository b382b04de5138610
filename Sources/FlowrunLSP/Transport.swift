import FlowrunDiagnostics
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One JSON-RPC message as it arrived, or why reading stopped.
enum Incoming: Sendable {
  case message(JSONValue)
  /// A frame whose body is not JSON: answered with a parse error.
  case malformed(String)
  /// The input ended (or a header could not be read).
  case end
}

/// Reads `Content-Length`-framed JSON-RPC messages from a file descriptor (LSP's base protocol).
/// Only the reading thread uses it.
final class MessageReader: @unchecked Sendable {
  let descriptor: Int32
  /// The largest body accepted; a larger frame ends the session (a client never sends one).
  let maxBody = 256 << 20
  private var bytes: [UInt8] = []
  private var start = 0

  init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// The next message; blocks until one arrives.
  func next() -> Incoming {
    var length: Int?
    while true {
      guard let line = readLine() else { return .end }
      if line.isEmpty { break }
      let parts = line.split(separator: ":", maxSplits: 1)
      if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-length" {
        length = Int(parts[1].trimmingCharacters(in: .whitespaces))
      }
    }
    guard let length, length >= 0, length <= maxBody, let body = read(count: length) else { return .end }
    do {
      return .message(try JSONDecoder().decode(JSONValue.self, from: Data(body)))
    } catch {
      return .malformed("the message is not JSON: \(error.localizedDescription)")
    }
  }

  /// A header line without its `\r\n`; nil at the end of the input.
  private func readLine() -> String? {
    while true {
      if let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
        var end = newline
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let line = String(decoding: bytes[start..<end], as: UTF8.self)
        start = newline + 1
        return line
      }
      guard fill() else { return nil }
    }
  }

  private func read(count: Int) -> [UInt8]? {
    while bytes.count - start < count {
      guard fill() else { return nil }
    }
    let body = Array(bytes[start..<start + count])
    start += count
    return body
  }

  /// Reads more bytes from the descriptor; false at the end of the input.
  private func fill() -> Bool {
    if start > 0 {
      bytes.removeFirst(start)
      start = 0
    }
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
      if count > 0 {
        bytes.append(contentsOf: chunk[0..<count])
        return true
      }
      if count < 0, errno == EINTR { continue }
      return false
    }
  }
}

/// Writes `Content-Length`-framed JSON-RPC messages to a file descriptor.
struct MessageWriter: Sendable {
  let descriptor: Int32

  func send(_ message: JSONValue) {
    let body = message.serialized
    var frame = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
    frame.append(contentsOf: body)
    var written = 0
    while written < frame.count {
      let count = frame[written...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return }
      written += count
    }
  }
}

/// Messages handed from the reading thread to the server's loop, which waits for the next one
/// or for a deadline (the debounced diagnostics).
final class MessageQueue: @unchecked Sendable {
  private let condition = NSCondition()
  private var items: [Incoming] = []

  func push(_ item: Incoming) {
    condition.lock()
    items.append(item)
    condition.signal()
    condition.unlock()
  }

  /// The next message, or nil when `deadline` passes first.
  func pop(before deadline: Date?) -> Incoming? {
    condition.lock()
    defer { condition.unlock() }
    while items.isEmpty {
      if let deadline {
        guard condition.wait(until: deadline) else { return nil }
      } else {
        condition.wait()
      }
    }
    return items.removeFirst()
  }
}
