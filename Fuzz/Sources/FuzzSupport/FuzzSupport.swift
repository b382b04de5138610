public import CFuzzDriver
import Foundation

/// Hands the process's arguments to libFuzzer's driver with `callback` as the target, and exits
/// with its status. (SwiftPM gives every executable its own `main`, so libFuzzer's is not used.)
public func runFuzzer(_ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
  var argc = CommandLine.argc
  var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
  exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
}

/// Runs `body` on a thread with the stack the command line gives its workers (512 MiB), as
/// flowrun runs scenarios, and waits for it.
public func onLargeStack(_ body: @escaping @Sendable () -> Void) {
  let done = DispatchSemaphore(value: 0)
  let thread = Thread {
    body()
    done.signal()
  }
  thread.stackSize = 1 << 29
  thread.start()
  done.wait()
}

/// The bytes libFuzzer hands over.
public func bytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
  Array(UnsafeBufferPointer(start: data, count: size))
}
