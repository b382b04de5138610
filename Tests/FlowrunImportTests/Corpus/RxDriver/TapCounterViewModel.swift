// Style: RxSwift with `PublishRelay` taps: a counter `scan`ned from increment and decrement
// taps `merge`d, shown through a `Driver`.
// Seen in: RxSwift introductions (counter examples) and RxSwift playgrounds.
import RxCocoa
import RxRelay
import RxSwift

final class TapCounterViewModel {
  let incrementTaps = PublishRelay<Void>()
  let decrementTaps = PublishRelay<Void>()
  let count: Driver<Int>
  let countText: Driver<String>

  init() {
    count = Observable.merge(incrementTaps.map { 1 }, decrementTaps.map { -1 })
      .scan(0) { $0 + $1 }
      .startWith(0)
      .asDriver(onErrorJustReturn: 0)
    countText = count.map { "Count: \($0)" }
  }
}
