// RxSwift search as you type: a query is searched at most every 500 ms (the latest one at the
// end of the window), a repeated query is skipped, and a stale search is cancelled. The
// scheduler is injected, as flowrun-import advises for a hard-coded `MainScheduler.instance`.
import RxCocoa
import RxRelay
import RxSwift

public protocol SearchService {
  func search(_ query: String) -> Single<[String]>
}

public final class RxSearchViewModel {
  public let query = PublishRelay<String>()
  public let results: Driver<[String]>

  /// `plantedBug` writes `debounce` for `throttle`, to show that the drafted scenario catches it.
  public init(service: any SearchService, scheduler: any SchedulerType, plantedBug: Bool = false) {
    let typed = query.filter { !$0.isEmpty }
    let settled =
      plantedBug
      ? typed.debounce(.milliseconds(500), scheduler: scheduler)
      : typed.throttle(.milliseconds(500), latest: true, scheduler: scheduler)
    results =
      settled
      .distinctUntilChanged()
      .flatMapLatest { query in service.search(query).asObservable().catchAndReturn([]) }
      .observe(on: scheduler)
      .asDriver(onErrorJustReturn: [])
  }
}
