// Stand-in for Action 5 (RxSwiftCommunity/Action): the subset of its public API that the
// examples' RxSwift view models and their tests use, because Action is not in this machine's
// package mirror. Written from Action's documented behaviour and the order of its events; see
// ../README.md. No UIKit/AppKit bindings (`rx.action`), no CompletableAction.

import Foundation
import RxCocoa
import RxRelay
import RxSwift

/// An action triggered by a button: no input, no elements.
public typealias CocoaAction = Action<Void, Void>

/// Why an execution did not give elements.
public enum ActionError: Error {
  /// The action was executed while it was not enabled.
  case notEnabled
  /// The work failed with this error.
  case underlyingError(any Error)
}

/// Runs a work, an observable made from an input, when executed while enabled.
///
/// - `executionObservables` sends each work (shared, replaying its latest element, for good).
/// - `executing` is false at first, true from the start of a work until it ends.
/// - `enabled` is `enabledIf && !executing`.
/// - `elements` sends the elements of every work; `errors` sends `.notEnabled` for an execution
///   while disabled and `.underlyingError` for a work that fails.
///
/// Subscribers of `executing` hear of a work before those of `elements` do: a work that answers
/// at once has `executing` back to false before `elements` sends its element; one that answers
/// later sends its element first.
public final class Action<Input, Element> {
  public typealias WorkFactory = (Input) -> Observable<Element>

  public let _enabledIf: Observable<Bool>
  public let workFactory: WorkFactory

  /// Executes the action with each element (errors and completion are ignored).
  public let inputs: AnyObserver<Input>
  /// The errors of the executions.
  public let errors: Observable<ActionError>
  /// The elements of the works.
  public let elements: Observable<Element>
  /// Whether a work is running; replays its latest value.
  public let executing: Observable<Bool>
  /// The works, as they start.
  public let executionObservables: Observable<Observable<Element>>
  /// Whether the action may be executed; replays its latest value.
  public let enabled: Observable<Bool>

  private let disposeBag = DisposeBag()

  public convenience init<O: ObservableConvertibleType>(
    enabledIf: Observable<Bool> = Observable.just(true),
    workFactory: @escaping (Input) -> O
  ) where O.Element == Element {
    self.init(enabledIf: enabledIf) { input -> Observable<Element> in workFactory(input).asObservable() }
  }

  public init(enabledIf: Observable<Bool> = Observable.just(true), workFactory: @escaping WorkFactory) {
    _enabledIf = enabledIf
    self.workFactory = workFactory

    let works = PublishSubject<Observable<Element>>()
    let errorRelay = PublishRelay<ActionError>()
    let isEnabled = BehaviorSubject<Bool>(value: false)
    let isExecuting = ReplaySubject<Bool>.create(bufferSize: 1)

    executionObservables = works.asObservable()
    errors = errorRelay.asObservable()
    enabled = isEnabled.asObservable()
    executing = isExecuting.asObservable()
    elements = works.flatMap { work in work.catch { _ in Observable<Element>.empty() } }

    inputs = AnyObserver { event in
      guard case .next(let input) = event else { return }
      guard (try? isEnabled.value()) == true else { return errorRelay.accept(.notEnabled) }
      let work = workFactory(input)
        .do(onError: { errorRelay.accept(.underlyingError($0)) })
        .share(replay: 1, scope: .forever)
      // Action sends the work through `Observable.of`, that is on the current thread's
      // trampoline: a work that itself uses the trampoline answers after every subscriber of
      // `executionObservables` has had it.
      _ = CurrentThreadScheduler.instance.schedule(()) { _ in
        works.onNext(work)
        return Disposables.create()
      }
    }

    // `executing` is the first subscriber of the works: it subscribes each one, so that a work
    // that answers at once has ended before the other subscribers get it.
    isExecuting.onNext(false)
    works
      .flatMap { work in
        Observable<Bool>.create { observer in
          observer.onNext(true)
          return work.subscribe(
            onError: { _ in
              observer.onNext(false)
              observer.onCompleted()
            },
            onCompleted: {
              observer.onNext(false)
              observer.onCompleted()
            })
        }
      }
      .subscribe(onNext: { isExecuting.onNext($0) })
      .disposed(by: disposeBag)

    Observable.combineLatest(isExecuting, enabledIf) { executing, enabledIf in enabledIf && !executing }
      .bind(to: isEnabled)
      .disposed(by: disposeBag)
  }

  /// Executes the action with `value`. The observable returned replays the elements of the
  /// work this execution started and its completion, or fails with `.underlyingError` if the
  /// work fails, or with `.notEnabled` if the action was not enabled.
  @discardableResult
  public func execute(_ value: Input) -> Observable<Element> {
    let result = ReplaySubject<Element>.createUnbounded()
    let startedWork = executionObservables.map { work in
      work.catch { throw ActionError.underlyingError($0) }
    }
    let refusal = errors.map { Observable<Element>.error($0) }
    Observable.merge(startedWork, refusal)
      .take(1)
      .flatMap { $0 }
      .subscribe(result)
      .disposed(by: disposeBag)
    inputs.onNext(value)
    return result.asObservable()
  }
}

extension Action {
  /// The errors of the works that failed (without `.notEnabled`).
  public var underlyingError: Observable<any Error> {
    errors.compactMap { error -> (any Error)? in
      if case .underlyingError(let underlying) = error { return underlying }
      return nil
    }
  }
}

extension Action where Input == Void {
  /// Executes an action without input.
  @discardableResult
  public func execute() -> Observable<Element> { execute(()) }
}
