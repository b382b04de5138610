// Style: `ObservableObject` + `@Published`: a `Timer.publish` ticking every second, started and
// stopped by methods that keep the `AnyCancellable`.
// Seen in: stopwatch and countdown SwiftUI tutorials.
import Combine
import Foundation

final class StopwatchViewModel: ObservableObject {
  @Published private(set) var elapsed = 0
  @Published private(set) var isRunning = false
  private var ticker: AnyCancellable?

  func start() {
    isRunning = true
    ticker = Timer.publish(every: 1, on: .main, in: .common)
      .autoconnect()
      .sink { [weak self] _ in self?.elapsed += 1 }
  }

  func stop() {
    isRunning = false
    ticker?.cancel()
  }
}
