// Style: `@Observable` + async/await: progress delivered as an `AsyncStream<Double>` by the
// service, read in a `for await` loop inside a method's `Task`.
// Seen in: download managers written with URLSession's async bytes and progress streams.
import Observation

@Observable
final class DownloadProgressModel {
  private(set) var progress = 0.0
  private(set) var isFinished = false
  @ObservationIgnored private var task: Task<Void, Never>?
  @ObservationIgnored private let download: @Sendable (String) -> AsyncStream<Double>

  init(download: @escaping @Sendable (String) -> AsyncStream<Double>) {
    self.download = download
  }

  func start(url: String) {
    task?.cancel()
    task = Task {
      for await value in download(url) {
        progress = value
      }
      isFinished = true
    }
  }

  func cancel() {
    task?.cancel()
  }
}
