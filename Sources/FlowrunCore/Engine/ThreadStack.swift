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

  /// The stack size each thread's recursion budgets are scaled to (`ThreadStack.budgeted`).
  private let budgetedSizeKey: pthread_key_t = {
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

  /// The stack size the recursion budgets of the current thread are made for: a scenario's
  /// depth and nesting limits, and the compiler's nesting of named signals, are set for a
  /// worker's full stack (`fullSize`); a thread that runs with less (a worker that could only
  /// start with a smaller stack, or the calling thread when none could start) marks its size
  /// with `setBudgetedSize`, and the limits shrink with it, so that a count, which is the same
  /// on every machine and build, still stops deep calls before the stack guard does.
  public static let fullSize = 1 << 29

  /// What `budgeted(_:standard:)` scales a standard limit by on the current thread: 1 unless
  /// `setBudgetedSize` marked a smaller stack.
  public static func budgetScale() -> Double {
    #if canImport(Glibc)
      guard let marked = pthread_getspecific(budgetedSizeKey) else { return 1 }
      return min(1, Double(UInt(bitPattern: marked)) / Double(fullSize))
    #else
      return 1
    #endif
  }

  /// `limit`, capped by `standard` (the limit made for a full stack) scaled to the current
  /// thread's budgeted stack (at least 1): a scenario's own lower limit stays as it is.
  public static func budgeted(_ limit: Int, standard: Int) -> Int {
    let scale = budgetScale()
    guard scale < 1 else { return limit }
    return min(limit, max(1, Int((Double(standard) * scale).rounded(.down))))
  }

  /// Marks the stack size the current thread's budgets are scaled to (nil: the full budgets).
  public static func setBudgetedSize(_ size: Int?) {
    #if canImport(Glibc)
      pthread_setspecific(budgetedSizeKey, size.map { UnsafeRawPointer(bitPattern: UInt($0)) } ?? nil)
    #endif
  }

  /// The size of the current thread's stack in bytes, or nil when unknown.
  public static func size() -> Int? {
    #if canImport(Glibc)
      var attributes = pthread_attr_t()
      guard getThreadAttributes(pthread_self(), &attributes) == 0 else { return nil }
      defer { pthread_attr_destroy(&attributes) }
      var base: UnsafeMutableRawPointer?
      var size = 0
      guard pthread_attr_getstack(&attributes, &base, &size) == 0 else { return nil }
      return size
    #else
      return nil
    #endif
  }
}
