// Style: RxSwift with `BehaviorRelay` inputs and `Driver` outputs: the query throttled,
// `flatMapLatest` to the API, `asDriver(onErrorJustReturn: [])`.
// Seen in: RxSwift's GitHub search examples and RxSwift workshop material.
import RxCocoa
import RxRelay
import RxSwift

protocol RepoSearching {
  func search(_ query: String) -> Observable<[String]>
}

final class RepoSearchViewModel {
  let query = BehaviorRelay<String>(value: "")
  let repositories: Driver<[String]>
  let isEmpty: Driver<Bool>

  init(api: RepoSearching, scheduler: SchedulerType) {
    repositories =
      query
      .throttle(.milliseconds(300), scheduler: scheduler)
      .distinctUntilChanged()
      .filter { !$0.isEmpty }
      .flatMapLatest { api.search($0) }
      .asDriver(onErrorJustReturn: [])
    isEmpty = repositories.map { $0.isEmpty }
  }
}
