// Style: RxSwift with a `BehaviorRelay` text, a send `PublishRelay`, `withLatestFrom` to take
// the text at the tap, `subscribe(onNext:)` to clear the field.
// Seen in: chat screens of RxSwift apps (message composer).
import RxCocoa
import RxRelay
import RxSwift

final class ChatComposerRxViewModel {
  let text = BehaviorRelay<String>(value: "")
  let sendTaps = PublishRelay<Void>()
  let sendEnabled: Driver<Bool>
  let sentMessages = BehaviorRelay<[String]>(value: [])
  private let disposeBag = DisposeBag()

  init(send: @escaping (String) -> Single<String>) {
    sendEnabled = text.map { !$0.isEmpty }.asDriver(onErrorJustReturn: false)
    sendTaps
      .withLatestFrom(text)
      .filter { !$0.isEmpty }
      .flatMap { send($0).asObservable() }
      .subscribe(onNext: { [weak self] message in
        guard let self else { return }
        self.sentMessages.accept(self.sentMessages.value + [message])
        self.text.accept("")
      })
      .disposed(by: disposeBag)
  }
}
