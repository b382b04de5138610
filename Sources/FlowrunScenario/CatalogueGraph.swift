import FlowrunCore
import FlowrunExpressions

extension Graph {
  /// The source of a catalogue operator applied to `upstream`.
  func instantiate(_ op: CatalogueOperator, upstream: any Source, scope: TemplateScope) -> any Source {
    switch op {
    case .reduce(let step, let seed):
      return ReduceSource(upstream, seed: seed, accumulate: reduceAccumulate(step, scope))
    case .pairwise:
      return PairwiseSource(upstream)
    case .materialize:
      return MaterializeSource(upstream)
    case .dematerialize:
      return DematerializeSource(upstream)
    case .takeLast(let count):
      return TakeLastSource(upstream, count: count)
    case .skipUntil(let notifier):
      return SkipUntilSource(upstream, notifier: source(for: notifier, scope: scope))
    case .first(let step, let defaultValue):
      return FirstSource(
        upstream, predicate: step.map { predicate($0, scope, role: "first") }, default: defaultValue)
    case .last(let step, let defaultValue):
      return LastSource(
        upstream, predicate: step.map { predicate($0, scope, role: "last") }, default: defaultValue)
    case .elementAt(let index, let defaultValue):
      return ElementAtSource(upstream, index: index, default: defaultValue)
    case .ignoreElements:
      return IgnoreElementsSource(upstream)
    case .ignore(let ignored):
      return FilterSource(upstream) { value, _ in value != ignored }
    case .withLatestFrom(let others):
      return WithLatestFromSource(upstream, others: others.map { source(for: $0, scope: scope) })
    case .sample(let sampler, let rac):
      return SampleSource(upstream, sampler: source(for: sampler, scope: scope), repeatsValue: rac)
    case .then(let next):
      return MergeSource.concat([IgnoreElementsSource(upstream), source(for: next, scope: scope)])
    case .debounce(let duration, let label):
      return DebounceSource(upstream, duration: duration, owner: label, runtime: runtime)
    case .throttle(let duration, let leading, let trailing, let label):
      return ThrottleSource(
        upstream, duration: duration, leading: leading, trailing: trailing, owner: label, runtime: runtime)
    case .delay(let duration, let label):
      return DelaySource(upstream, duration: duration, owner: label, runtime: runtime)
    case .delaySubscription(let duration, let label):
      return DelaySubscriptionSource(upstream, duration: duration, owner: label, runtime: runtime)
    case .timeout(let duration, let fallback, let label):
      return TimeoutSource(
        upstream, duration: duration, fallback: fallback.map { source(for: $0, scope: scope) }, owner: label,
        runtime: runtime)
    case .timeoutRAC(let duration, let label):
      return TimeoutRACSource(upstream, duration: duration, owner: label, runtime: runtime)
    case .bufferTime(let span, let every, let max, let label):
      return BufferTimeSource(upstream, span: span, every: every, max: max, owner: label, runtime: runtime)
    case .buffer(let size, let every):
      return BufferCountSource(upstream, size: size, every: every)
    case .share(let policy, let eager, let label):
      let shared = ShareSource(upstream, policy: policy, owner: label, runtime: runtime)
      // RAC2 `replay`/`replayLast` connect during setup; one made later (inside a template)
      // connects when first subscribed, which is the moment its template is used.
      if eager { eagerConnections.append { [weak shared] in shared?.connect() } }
      return shared
    case .observeOn(let label):
      return ObserveOnSource(upstream, owner: label, runtime: runtime)
    }
  }

  /// The accumulator of `reduce`: `$0` the accumulator, `$1` the value (as `scan`).
  private func reduceAccumulate(_ step: StepExpression, _ scope: TemplateScope) -> ScanSource.Accumulate {
    let expression = step.expression
    let environment = environment(scope)
    return { [unowned self] accumulator, value, index throws(StepFailure) in
      let context = EvalContext(
        value: value, accumulator: accumulator, index: index, now: runtime.now, environment: environment)
      do throws(EvaluationError) {
        return try expression.evaluate(context)
      } catch {
        throw self.failure(error, step)
      }
    }
  }
}
