// Stand-in for RxSwift 6 (ReactiveX/RxSwift), used because RxSwift is not in this machine's
// package mirror; semantics follow RxSwift's documented behaviour (../README.md).
//
// This file: disposables and the dispose bag.

/// A resource that can be released: a subscription, a scheduled action.
public protocol Disposable {
  func dispose()
}

/// A disposable that tells whether it has been disposed.
public protocol Cancelable: Disposable {
  var isDisposed: Bool { get }
}

/// Factories of disposables.
public struct Disposables {
  private init() {}
}

extension Disposables {
  /// A disposable that does nothing.
  public static func create() -> any Disposable { NopDisposable() }

  /// A disposable that runs `dispose` once, the first time it is disposed.
  public static func create(with dispose: @escaping () -> Void) -> any Cancelable { ClosureDisposable(dispose) }

  /// A disposable that disposes both.
  public static func create(_ disposable1: any Disposable, _ disposable2: any Disposable) -> any Cancelable {
    DisposableGroup([disposable1, disposable2])
  }

  /// A disposable that disposes the three.
  public static func create(
    _ disposable1: any Disposable, _ disposable2: any Disposable, _ disposable3: any Disposable
  ) -> any Cancelable {
    DisposableGroup([disposable1, disposable2, disposable3])
  }

  /// A disposable that disposes them all.
  public static func create(_ disposables: any Disposable...) -> any Cancelable { DisposableGroup(disposables) }

  /// A disposable that disposes them all.
  public static func create(_ disposables: [any Disposable]) -> any Cancelable { DisposableGroup(disposables) }
}

private struct NopDisposable: Disposable {
  func dispose() {}
}

private final class ClosureDisposable: Cancelable {
  private var action: (() -> Void)?

  init(_ action: @escaping () -> Void) { self.action = action }

  var isDisposed: Bool { action == nil }

  func dispose() {
    guard let action else { return }
    self.action = nil
    action()
  }
}

/// Disposes its disposables once, in order.
private final class DisposableGroup: Cancelable {
  private var disposables: [any Disposable]?

  init(_ disposables: [any Disposable]) { self.disposables = disposables }

  var isDisposed: Bool { disposables == nil }

  func dispose() {
    guard let disposables else { return }
    self.disposables = nil
    for disposable in disposables { disposable.dispose() }
  }
}

/// Holds one disposable at a time: setting a new one disposes the one before; once disposed,
/// disposes whatever is set.
public final class SerialDisposable: Cancelable {
  private var current: (any Disposable)?
  public private(set) var isDisposed = false

  public init() {}

  public var disposable: any Disposable {
    get { current ?? Disposables.create() }
    set {
      if isDisposed {
        newValue.dispose()
        return
      }
      let previous = current
      current = newValue
      previous?.dispose()
    }
  }

  public func dispose() {
    guard !isDisposed else { return }
    isDisposed = true
    let current = current
    self.current = nil
    current?.dispose()
  }
}

/// A disposable set at most once: disposing before it is set disposes it when it is set.
public final class SingleAssignmentDisposable: Cancelable {
  private var current: (any Disposable)?
  private var isSet = false
  public private(set) var isDisposed = false

  public init() {}

  public func setDisposable(_ disposable: any Disposable) {
    precondition(!isSet, "SingleAssignmentDisposable: the disposable was already set")
    isSet = true
    if isDisposed {
      disposable.dispose()
    } else {
      current = disposable
    }
  }

  public func dispose() {
    guard !isDisposed else { return }
    isDisposed = true
    let current = current
    self.current = nil
    current?.dispose()
  }
}

/// A group of disposables that are disposed together; one can be removed (and disposed) by the
/// key its insertion returned.
public final class CompositeDisposable: Cancelable {
  /// The key of an inserted disposable.
  public struct DisposeKey: Hashable {
    fileprivate let id: Int
  }

  private var entries: [(key: Int, disposable: any Disposable)]? = []
  private var nextKey = 0

  public init() {}

  public convenience init(_ disposable1: any Disposable, _ disposable2: any Disposable) {
    self.init(disposables: [disposable1, disposable2])
  }

  public convenience init(_ disposable1: any Disposable, _ disposable2: any Disposable, _ disposable3: any Disposable) {
    self.init(disposables: [disposable1, disposable2, disposable3])
  }

  public convenience init(
    _ disposable1: any Disposable, _ disposable2: any Disposable, _ disposable3: any Disposable,
    _ disposable4: any Disposable, _ disposables: any Disposable...
  ) {
    self.init(disposables: [disposable1, disposable2, disposable3, disposable4] + disposables)
  }

  public init(disposables: [any Disposable]) {
    for disposable in disposables { _ = insert(disposable) }
  }

  public var isDisposed: Bool { entries == nil }

  /// The number of disposables held.
  public var count: Int { entries?.count ?? 0 }

  /// Adds `disposable`; once the group is disposed, disposes it at once and returns nil.
  public func insert(_ disposable: any Disposable) -> DisposeKey? {
    guard entries != nil else {
      disposable.dispose()
      return nil
    }
    let key = nextKey
    nextKey += 1
    entries?.append((key, disposable))
    return DisposeKey(id: key)
  }

  /// Removes the disposable of `disposeKey` and disposes it.
  public func remove(for disposeKey: DisposeKey) {
    guard let index = entries?.firstIndex(where: { $0.key == disposeKey.id }) else { return }
    let removed = entries?.remove(at: index)
    removed?.disposable.dispose()
  }

  public func dispose() {
    guard let entries else { return }
    self.entries = nil
    for entry in entries { entry.disposable.dispose() }
  }
}

/// Disposes what it holds when it is deallocated: the usual owner of a view model's
/// subscriptions.
public final class DisposeBag {
  private var disposables: [any Disposable] = []

  public init() {}

  public convenience init(disposing disposables: any Disposable...) {
    self.init(disposing: disposables)
  }

  public convenience init(disposing disposables: [any Disposable]) {
    self.init()
    self.disposables = disposables
  }

  public func insert(_ disposable: any Disposable) { disposables.append(disposable) }

  public func insert(_ disposables: any Disposable...) { self.disposables += disposables }

  public func insert(_ disposables: [any Disposable]) { self.disposables += disposables }

  deinit {
    for disposable in disposables { disposable.dispose() }
  }
}

extension Disposable {
  /// Adds this disposable to `bag`, to be disposed with it.
  public func disposed(by bag: DisposeBag) { bag.insert(self) }
}

/// A disposable that runs its `dispose` through a scheduler.
public final class ScheduledDisposable: Cancelable {
  public let scheduler: any ImmediateSchedulerType
  private var disposable: (any Disposable)?

  public init(scheduler: any ImmediateSchedulerType, disposable: any Disposable) {
    self.scheduler = scheduler
    self.disposable = disposable
  }

  public var isDisposed: Bool { disposable == nil }

  public func dispose() {
    _ = scheduler.schedule(()) { [self] _ in
      let disposable = disposable
      self.disposable = nil
      disposable?.dispose()
      return Disposables.create()
    }
  }
}
