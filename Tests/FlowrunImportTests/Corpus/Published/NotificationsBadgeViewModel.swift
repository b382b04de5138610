// Style: `ObservableObject` + `@Published`, `internal` (no access modifier): a
// `NotificationCenter` publisher and an injected count publisher, with `handleEvents` logging,
// the scheduler an `AnySchedulerOf<DispatchQueue>`.
// Seen in: badge counters of apps using combine-schedulers and NotificationCenter publishers.
import Combine
import CombineSchedulers
import Foundation

final class NotificationsBadgeViewModel: ObservableObject {
  @Published private(set) var badge = 0
  @Published private(set) var lastEvent = ""
  private var cancellables = Set<AnyCancellable>()

  init(unreadCount: AnyPublisher<Int, Never>, scheduler: AnySchedulerOf<DispatchQueue>, log: @escaping (String) -> Void)
  {
    unreadCount
      .handleEvents(receiveOutput: { log("unread \($0)") })
      .receive(on: scheduler)
      .assign(to: &$badge)
    NotificationCenter.default.publisher(for: .init("badge.reset"))
      .map { _ in "reset" }
      .receive(on: scheduler)
      .assign(to: &$lastEvent)
  }
}
