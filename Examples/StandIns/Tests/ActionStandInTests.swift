// The Action stand-in against Action 5's behaviour, including the order of its events.

import Action
import RxSwift
import Testing

@Suite struct ActionStandInTests {
  /// Logs what `enabled`, `executing`, `elements` and `errors` send, in order.
  private func observe<Input>(_ action: Action<Input, String>, into log: Log) -> any Disposable {
    Disposables.create(
      action.enabled.subscribe(onNext: { log("enabled \($0)") }),
      action.executing.subscribe(onNext: { log("executing \($0)") }),
      action.elements.subscribe(onNext: { log("element \($0)") }),
      action.errors.subscribe(onNext: { log("error \($0)") }))
  }

  /// A work that answers at once ends (executing false) before `elements` sends its element; one
  /// on the current thread's trampoline (`Observable.of`) or one that answers later sends its
  /// element first, as with Action 5.
  @Test(arguments: [
    ("just", ["enabled false", "executing true", "enabled true", "executing false", "element a:x"]),
    ("of", ["enabled false", "executing true", "element a:x", "enabled true", "executing false"]),
    ("later", ["enabled false", "executing true", "element a:x", "enabled true", "executing false"]),
  ])
  func oneExecution(work: String, expected: [String]) {
    let answer = PublishSubject<String>()
    let action = Action<String, String> { input in
      switch work {
      case "just": Observable.just("a:\(input)")
      case "of": Observable.of("a:\(input)")
      default: answer.take(1).map { "\($0):\(input)" }
      }
    }
    let log = Log()
    let subscriptions = observe(action, into: log)
    #expect(log.lines == ["enabled true", "executing false"])
    log.clear()
    let result = Recorder<String>()
    _ = action.execute("x").subscribe(result.observer())
    answer.onNext("a")
    #expect(log.lines == expected)
    #expect(result.events == ["next(a:x)", "completed"])
    subscriptions.dispose()
  }

  @Test func executingWhileExecutingIsNotEnabled() {
    let answer = PublishSubject<String>()
    var works = 0
    let action = Action<String, String> { _ in
      works += 1
      return answer.take(1)
    }
    let log = Log()
    let subscriptions = observe(action, into: log)
    let first = Recorder<String>()
    let second = Recorder<String>()
    _ = action.execute("a").subscribe(first.observer())
    _ = action.execute("b").subscribe(second.observer())
    #expect(second.events == ["error(notEnabled)"])
    #expect(log.lines.last == "error notEnabled")
    answer.onNext("done")
    #expect(first.events == ["next(done)", "completed"])
    #expect(works == 1)
    subscriptions.dispose()
  }

  @Test func aFailingWorkSendsItsErrorAsUnderlyingError() {
    let action = Action<String, String> { _ in Observable.error(TestError()) }
    let log = Log()
    let subscriptions = observe(action, into: log)
    log.clear()
    let result = Recorder<String>()
    _ = action.execute("x").subscribe(result.observer())
    #expect(log.lines == ["enabled false", "executing true", "error underlyingError(TestError)", "enabled true", "executing false"])
    #expect(result.events == ["error(underlyingError(TestError))"])
    subscriptions.dispose()
  }

  @Test func enabledFollowsEnabledIfAndADisabledActionDoesNotWork() {
    let isValid = BehaviorSubject(value: false)
    var works = 0
    let action = Action<String, String>(enabledIf: isValid.asObservable()) { input in
      works += 1
      return Observable.just(input)
    }
    var enabled: [Bool] = []
    _ = action.enabled.subscribe(onNext: { enabled.append($0) })
    let refused = Recorder<String>()
    _ = action.execute("x").subscribe(refused.observer())
    isValid.onNext(true)
    let done = Recorder<String>()
    action.inputs.onNext("y")
    _ = action.execute("z").subscribe(done.observer())
    #expect(refused.events == ["error(notEnabled)"])
    #expect(done.events == ["next(z)", "completed"])
    #expect(works == 2)
    #expect(enabled == [false, true, false, true, false, true])
  }

  @Test func cocoaActionRunsItsWorkForEachExecution() {
    var runs = 0
    let action = CocoaAction {
      runs += 1
      return Single.just(()).asObservable()
    }
    var elements = 0
    _ = action.elements.subscribe(onNext: { elements += 1 })
    _ = action.execute(())
    _ = action.execute()
    #expect(runs == 2 && elements == 2)
  }

  @Test func aWorkFactoryMayReturnASingle() {
    let action = Action<Int, Int> { Single.just($0 * 2) }
    let result = Recorder<Int>()
    _ = action.execute(21).subscribe(result.observer())
    #expect(result.events == ["next(42)", "completed"])
  }
}
