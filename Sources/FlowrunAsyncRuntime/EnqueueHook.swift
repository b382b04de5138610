import Foundation

/// The Swift runtime's enqueue hooks, pointed at the ``AsyncRuntime`` of the calling thread.
///
/// The runtime calls `swift_task_enqueueGlobal_hook` for every job bound for the global
/// concurrent executor (a new `Task`, a resumed continuation, a task hopping off an actor) and
/// `swift_task_enqueueMainExecutor_hook` for a job bound for the main actor (Swift 6.3 on
/// Linux does not call it: the main actor's jobs go straight to Dispatch). While a run is
/// active on a thread, a job enqueued from that thread goes to the run's queue; any other job
/// (another thread's, another test's) goes on to the original executor. The hooks are set while
/// at least one run is active and restored when the last one ends, so parallel tests each keep
/// their own jobs: the thread a job is enqueued from says whose it is.
enum EnqueueHook {
  typealias Original = @convention(thin) (UnownedJob) -> Void
  typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

  private struct Installed {
    var count = 0
    var savedGlobal: Hook?
    var savedMain: Hook?
  }

  // An `NSLock` (a pthread mutex), not `Synchronization.Mutex`, whose futex the thread
  // sanitizer cannot see on Linux (it reported the count's updates as a race).
  private static let lock = NSLock()
  nonisolated(unsafe) private static var installed = Installed()

  /// The thread-local slot holding the current thread's run.
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  // Written only while `lock` is held.
  nonisolated(unsafe) private static let globalHook = slot(named: "swift_task_enqueueGlobal_hook")
  nonisolated(unsafe) private static let mainHook = slot(named: "swift_task_enqueueMainExecutor_hook")

  private static func slot(named name: String) -> UnsafeMutablePointer<Hook?>? {
    guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, name) else { return nil }
    return symbol.assumingMemoryBound(to: Hook?.self)
  }

  /// Whether this platform's runtime exposes the hooks.
  static var isAvailable: Bool { globalHook != nil && mainHook != nil }

  /// The run of the calling thread, if any.
  static var current: AsyncRuntime? {
    guard let pointer = pthread_getspecific(key) else { return nil }
    return Unmanaged<AsyncRuntime>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// Sends the calling thread's jobs to `runtime` while `body` runs, then restores what was
  /// there before.
  static func with<R>(_ runtime: AsyncRuntime, _ body: () throws -> R) rethrows -> R {
    let previous = pthread_getspecific(key)
    pthread_setspecific(key, Unmanaged.passUnretained(runtime).toOpaque())
    install()
    defer {
      uninstall()
      pthread_setspecific(key, previous)
    }
    return try body()
  }

  private static func install() {
    lock.withLock {
      installed.count += 1
      guard installed.count == 1 else { return }
      installed.savedGlobal = globalHook?.pointee
      installed.savedMain = mainHook?.pointee
      globalHook?.pointee = { job, original in
        if let runtime = EnqueueHook.current, runtime.accepts(job) {
          runtime.enqueue(job, onMainActor: false)
        } else {
          original(job)
        }
      }
      mainHook?.pointee = { job, original in
        if let runtime = EnqueueHook.current, runtime.accepts(job) {
          runtime.enqueue(job, onMainActor: true)
        } else {
          original(job)
        }
      }
    }
  }

  private static func uninstall() {
    lock.withLock {
      installed.count -= 1
      guard installed.count == 0 else { return }
      globalHook?.pointee = installed.savedGlobal
      mainHook?.pointee = installed.savedMain
    }
  }
}
