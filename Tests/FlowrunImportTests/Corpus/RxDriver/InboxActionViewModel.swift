// Style: RxSwift with a nested `Action` enum (the screen's intents, not RxSwift's Action
// library): intents sent into a subject, filtered with implicit members (`.refresh`).
// Seen in: "unidirectional" RxSwift view models (ReactorKit-like without the framework).
import RxRelay
import RxSwift

final class InboxActionViewModel {
  enum Action: Equatable {
    case refresh
    case markAllRead
  }

  let actions = PublishSubject<Action>()
  let unread = BehaviorRelay<Int>(value: 0)
  let isRefreshing = BehaviorRelay<Bool>(value: false)
  private let disposeBag = DisposeBag()

  init(fetchUnread: @escaping () -> Single<Int>) {
    actions
      .filter { $0 == .refresh }
      .do(onNext: { [weak self] _ in self?.isRefreshing.accept(true) })
      .flatMapLatest { _ in fetchUnread().asObservable() }
      .do(onNext: { [weak self] _ in self?.isRefreshing.accept(false) })
      .bind(to: unread)
      .disposed(by: disposeBag)
    actions
      .filter { $0 == .markAllRead }
      .map { _ in 0 }
      .bind(to: unread)
      .disposed(by: disposeBag)
  }
}
