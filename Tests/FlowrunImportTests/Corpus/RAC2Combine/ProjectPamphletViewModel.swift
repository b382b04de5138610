// Style: RAC2-era MVVM ported to Combine: a `viewDidLoad` input that starts the screen, outputs
// derived from the loaded model with `map`, a `CurrentValueSubject` for the model.
// Seen in: Kickstarter ios-oss "project pamphlet" style view models (ReactiveSwift), and
// Combine ports in MVVM-C sample apps.
import Combine

struct Project: Equatable {
  var name: String
  var backers: Int
  var isStarred: Bool
}

final class ProjectPamphletViewModel {
  let viewDidLoad = PassthroughSubject<Void, Never>()
  let starTapped = PassthroughSubject<Void, Never>()
  let project = CurrentValueSubject<Project?, Never>(nil)

  let title: AnyPublisher<String, Never>
  let backersText: AnyPublisher<String, Never>
  let starIsOn: AnyPublisher<Bool, Never>

  private var cancellables = Set<AnyCancellable>()

  init(fetchProject: @escaping () -> AnyPublisher<Project, Never>) {
    viewDidLoad
      .map { fetchProject() }
      .switchToLatest()
      .sink { [weak self] project in self?.project.send(project) }
      .store(in: &cancellables)
    let loaded = project.compactMap { $0 }
    title = loaded.map(\.name).eraseToAnyPublisher()
    backersText = loaded.map { "\($0.backers) backers" }.eraseToAnyPublisher()
    starIsOn = loaded.map(\.isStarred).merge(with: starTapped.map { _ in true }).eraseToAnyPublisher()
  }
}
