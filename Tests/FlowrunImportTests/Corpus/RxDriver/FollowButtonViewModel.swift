// Style: RxSwift with a `private` subject fed by a public method (`followTapped()`), the state
// a `BehaviorRelay`, `MainScheduler.instance` hard-coded.
// Seen in: profile screens of RxSwift apps that hide their subjects behind methods.
import RxCocoa
import RxRelay
import RxSwift

final class FollowButtonViewModel {
  private let tapSubject = PublishSubject<Void>()
  let isFollowing = BehaviorRelay<Bool>(value: false)
  let buttonTitle: Driver<String>
  private let disposeBag = DisposeBag()

  init(toggleFollow: @escaping (Bool) -> Single<Bool>) {
    tapSubject
      .debounce(.milliseconds(200), scheduler: MainScheduler.instance)
      .withLatestFrom(isFollowing)
      .flatMapFirst { toggleFollow(!$0).asObservable() }
      .bind(to: isFollowing)
      .disposed(by: disposeBag)
    buttonTitle = isFollowing.map { $0 ? "Following" : "Follow" }.asDriver(onErrorJustReturn: "Follow")
  }

  func followTapped() {
    tapSubject.onNext(())
  }
}
