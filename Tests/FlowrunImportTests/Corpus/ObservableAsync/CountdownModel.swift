// Style: `@Observable` + async/await: a countdown that sleeps on a hard-coded
// `ContinuousClock()` in a loop of a method's `Task`.
// Seen in: timer and OTP-resend screens written with `Task.sleep(for:)`.
import Observation

@Observable
final class CountdownModel {
  private(set) var secondsLeft = 30
  private(set) var canResend = false
  @ObservationIgnored private var task: Task<Void, Never>?

  func start() {
    secondsLeft = 30
    canResend = false
    task = Task {
      let clock = ContinuousClock()
      while secondsLeft > 0 {
        try? await clock.sleep(for: .seconds(1))
        secondsLeft -= 1
      }
      canResend = true
    }
  }
}
