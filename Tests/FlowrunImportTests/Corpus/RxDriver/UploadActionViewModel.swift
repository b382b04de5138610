// Style: RxSwift with RxSwiftCommunity's `Action`: an `Action<String, Bool>` enabled by a
// validity observable, its `executing` and `errors` bound to the view, `do(onNext:)` logging.
// Seen in: the Action library's README and apps using it for buttons.
import Action
import RxCocoa
import RxRelay
import RxSwift

public protocol Uploading {
  func upload(_ caption: String) -> Single<Bool>
}

public final class UploadActionViewModel {
  public let caption = BehaviorRelay<String>(value: "")
  public let uploadAction: Action<String, Bool>
  public let isBusy: Driver<Bool>
  public let uploaded = BehaviorRelay<Bool>(value: false)
  private let disposeBag = DisposeBag()

  public init(uploader: Uploading, log: @escaping (String) -> Void) {
    let valid = caption.map { $0.count > 3 }
    uploadAction = Action(enabledIf: valid) { caption in
      uploader.upload(caption).asObservable()
    }
    isBusy = uploadAction.executing.asDriver(onErrorJustReturn: false)
    uploadAction.elements
      .do(onNext: { log("uploaded \($0)") })
      .bind(to: uploaded)
      .disposed(by: disposeBag)
  }
}
