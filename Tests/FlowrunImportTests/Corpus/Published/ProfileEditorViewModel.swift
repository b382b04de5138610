// Style: `ObservableObject` + `@Published`: an editable name debounced before it is validated,
// the duration an `init` parameter's default value, the scheduler injected as
// `AnySchedulerOf<DispatchQueue>` (combine-schedulers).
// Seen in: apps that adopted Point-Free's combine-schedulers for testable view models.
import Combine
import CombineSchedulers
import Foundation

final class ProfileEditorViewModel: ObservableObject {
  @Published var displayName = ""
  @Published var bio = ""
  @Published private(set) var nameIsAvailable = false
  @Published private(set) var remaining = 160

  init(
    checkName: @escaping (String) -> AnyPublisher<Bool, Never>,
    scheduler: AnySchedulerOf<DispatchQueue>,
    debounce: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(400)
  ) {
    $displayName
      .debounce(for: debounce, scheduler: scheduler)
      .removeDuplicates()
      .map { checkName($0) }
      .switchToLatest()
      .assign(to: &$nameIsAvailable)
    $bio
      .map { 160 - $0.count }
      .assign(to: &$remaining)
  }
}
