#if canImport(Glibc)
  import Glibc

  /// glibc's `pthread_getattr_np` (declared only under `_GNU_SOURCE`, so not imported).
  @_silgen_name("pthread_getattr_np")
  private func getThreadAttributes(_ thread: pthread_t, _ attributes: UnsafeMutablePointer<pthread_attr_t>) -> Int32

  /// Each thread's stack floor, kept per thread: a thread's stack never moves, and asking glibc
  /// for it costs more than a small run (it reads the CPU affinity).
  private let stackFloorKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()
#endif

/// The bounds of the current thread's stack, for the guards of deep recursion (a run's nested
/// deliveries, a compiler's nested references): a call whose frame is below `floor()` stops
/// with a diagnostic instead of overflowing, whatever the frame sizes of the build.
public enum ThreadStack {
  /// The lowest address calls on the current thread should reach, keeping a margin for what
  /// runs between two checks; 0 when unknown (then nothing is checked), 1 when locals do not
  /// live on the thread's stack (AddressSanitizer's fake stack: no floor applies).
  public static func floor() -> UInt {
    #if canImport(Glibc)
      if let known = pthread_getspecific(stackFloorKey) { return UInt(bitPattern: known) }
      var attributes = pthread_attr_t()
      guard getThreadAttributes(pthread_self(), &attributes) == 0 else { return 0 }
      defer { pthread_attr_destroy(&attributes) }
      var base: UnsafeMutableRawPointer?
      var size = 0
      guard pthread_attr_getstack(&attributes, &base, &size) == 0, let base else { return 0 }
      // Keep a margin for what runs between two checks (an operator's own calls, a report).
      let margin = min(size / 4, 4 << 20)
      var floor = UInt(bitPattern: base) + UInt(margin)
      // AddressSanitizer's stack-use-after-return detection moves locals to a "fake stack"
      // elsewhere in memory, where their addresses say nothing about the depth: then no floor
      // (1 is below every address), and the counted limits alone bound the depth.
      let here = address()
      if here < UInt(bitPattern: base) || here >= UInt(bitPattern: base) + UInt(size) {
        floor = 1
      }
      pthread_setspecific(stackFloorKey, UnsafeRawPointer(bitPattern: floor))
      return floor
    #else
      return 0
    #endif
  }

  /// The address of a local of the caller's frame: how far down the stack the call is.
  @inline(__always)
  public static func address() -> UInt {
    var marker: UInt8 = 0
    return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
  }
}
