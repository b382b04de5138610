// Test input for flowrun-import (read as text, never compiled): RxSwift search as you type,
// with a real-time scheduler hard-coded (which the importer reports).
import RxCocoa
import RxSwift

protocol SearchService {
  func search(_ query: String) -> Single<[String]>
}

final class RxSearchViewModel {
  let query = PublishRelay<String>()
  let results: Driver<[String]>

  init(service: SearchService) {
    results =
      query
      .filter { !$0.isEmpty }
      .throttle(.milliseconds(500), latest: true, scheduler: MainScheduler.instance)
      .distinctUntilChanged()
      .flatMapLatest { query in service.search(query).asObservable().catchAndReturn([]) }
      .observe(on: MainScheduler.instance)
      .asDriver(onErrorJustReturn: [])
  }
}
