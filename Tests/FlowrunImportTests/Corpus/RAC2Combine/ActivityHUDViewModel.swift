// Style: RAC2-era MVVM ported to Combine: a HUD shown for a minimum time, as an empty signal
// delayed then appended (RAC2's `[[RACSignal empty] delay:]` + `concat:` + `startWith:`).
// Seen in: loading overlays of ReactiveCocoa apps, and "minimum display time" Combine answers.
import Combine
import Foundation

final class ActivityHUDViewModel {
  let activityStarted = PassthroughSubject<Void, Never>()
  @Published private(set) var isHUDVisible = false

  private var cancellables = Set<AnyCancellable>()

  init(
    scheduler: AnySchedulerOf<DispatchQueue>,
    minimumDisplay: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(500)
  ) {
    activityStarted
      .map { _ in
        Empty<Bool, Never>()
          .delay(for: minimumDisplay, scheduler: scheduler)
          .append(false)
          .prepend(true)
      }
      .switchToLatest()
      .removeDuplicates()
      .assign(to: &$isHUDVisible)
  }
}
