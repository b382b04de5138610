// Style: RAC2-era MVVM ported to Combine: paging as "map to a request signal that catches and
// starts with a loading value, then switch to the latest" (RAC2's `flattenMap` + `catchTo` +
// `startWith`), inputs `refresh` and `nextPage` as subjects.
// Seen in: inbox and thread lists of ReactiveCocoa apps and their Combine ports.
import Combine

enum ThreadsState: Equatable {
  case loading
  case loaded([String])
  case failed
}

final class MessageThreadsViewModel {
  let refresh = PassthroughSubject<Void, Never>()
  @Published private(set) var state: ThreadsState = .loading

  private var cancellables = Set<AnyCancellable>()

  init(fetchThreads: @escaping (Int) -> AnyPublisher<[String], Error>) {
    refresh
      .map { _ in
        fetchThreads(1)
          .map { ThreadsState.loaded($0) }
          .catch { _ in Just(ThreadsState.failed) }
          .prepend(.loading)
      }
      .switchToLatest()
      .assign(to: &$state)
  }
}
