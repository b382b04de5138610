// Style: RAC2-era MVVM ported to Combine: a `RACCommand` become a subject of taps and a
// `flatMap` to the service, with `sample`/`withLatestFrom` written as a `combineLatest` then
// a map.
// Seen in: comment and reply composers of ReactiveCocoa apps ported to Combine.
import Combine

final class CommentComposerViewModel {
  @Published var body = ""
  let postTapped = PassthroughSubject<Void, Never>()
  @Published private(set) var isPostEnabled = false
  @Published private(set) var postedCount = 0

  private var cancellables = Set<AnyCancellable>()

  init(post: @escaping (String) -> AnyPublisher<Int, Never>) {
    $body
      .map { !$0.trimmingCharacters(in: .whitespaces).isEmpty && $0.count <= 280 }
      .assign(to: &$isPostEnabled)
    postTapped
      .combineLatest($body)
      .map { $1 }
      .flatMap { post($0) }
      .scan(0) { total, _ in total + 1 }
      .assign(to: &$postedCount)
  }
}
