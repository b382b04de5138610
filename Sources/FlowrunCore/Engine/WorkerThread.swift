#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A thread started with `pthread_create`, whose failure is reported (Foundation's `Thread`
/// reports none: a thread that never started would be waited for forever).
public struct WorkerThread: @unchecked Sendable {
  private let handle: pthread_t

  private final class Body {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }

  /// Starts `body` on a new joinable thread with a stack of `stackSize` bytes, or returns the
  /// error `pthread_create` returned.
  public static func start(stackSize: Int, _ body: @escaping @Sendable () -> Void)
    -> Swift.Result<WorkerThread, Failure>
  {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    let sized = pthread_attr_setstacksize(&attributes, stackSize)
    guard sized == 0 else { return .failure(Failure(code: sized)) }
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    #if canImport(Glibc)
      var handle = pthread_t()
    #else
      var handle: pthread_t?
    #endif
    let created = pthread_create(
      &handle, &attributes,
      { context in
        guard let context else { return nil }
        Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
        return nil
      }, context)
    guard created == 0 else {
      Unmanaged<Body>.fromOpaque(context).release()
      return .failure(Failure(code: created))
    }
    #if canImport(Glibc)
      return .success(WorkerThread(handle: handle))
    #else
      return .success(WorkerThread(handle: handle!))
    #endif
  }

  /// The error number of a thread that could not start.
  public struct Failure: Error, Equatable {
    public var code: Int32
  }

  public func join() { pthread_join(handle, nil) }
  public func detach() { pthread_detach(handle) }
}
