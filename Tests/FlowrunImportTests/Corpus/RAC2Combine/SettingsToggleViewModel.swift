// Style: RAC2-era MVVM ported to Combine: `RACSubject` inputs as subjects, a `merge` of two
// sources into one state, `distinctUntilChanged` as `removeDuplicates`.
// Seen in: settings screens of ReactiveCocoa-era apps, and Combine migration guides that map
// RAC operators one to one.
import Combine

final class SettingsToggleViewModel {
  let toggleTapped = PassthroughSubject<Bool, Never>()
  let resetTapped = PassthroughSubject<Void, Never>()
  let notificationsOn = CurrentValueSubject<Bool, Never>(true)
  let statusText: AnyPublisher<String, Never>

  private var cancellables = Set<AnyCancellable>()

  init(save: @escaping (Bool) -> AnyPublisher<Bool, Never>) {
    toggleTapped
      .merge(with: resetTapped.map { _ in true })
      .removeDuplicates()
      .map { save($0) }
      .switchToLatest()
      .sink { [weak self] saved in self?.notificationsOn.send(saved) }
      .store(in: &cancellables)
    statusText =
      notificationsOn
      .map { $0 ? "Notifications on" : "Notifications off" }
      .eraseToAnyPublisher()
  }
}
