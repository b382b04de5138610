import Foundation
import Synchronization

/// The Swift runtime's enqueue hooks, pointed at the ``AsyncRuntime`` of the calling thread.
///
/// The runtime calls `swift_task_enqueueGlobal_hook` for every job bound for the global
/// concurrent executor (a new `Task`, a resumed continuation, a task hopping off an actor) and
/// `swift_task_enqueueMainExecutor_hook` for every job bound for the main actor. While a run is
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

  private static let installed = Mutex(Installed())

  /// The thread-local slot holding the current thread's run.
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  // Written only while `installed` is locked.
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
    installed.withLock { state in
      state.count += 1
      guard state.count == 1 else { return }
      state.savedGlobal = globalHook?.pointee
      state.savedMain = mainHook?.pointee
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
    installed.withLock { state in
      state.count -= 1
      guard state.count == 0 else { return }
      globalHook?.pointee = state.savedGlobal
      mainHook?.pointee = state.savedMain
    }
  }
}
