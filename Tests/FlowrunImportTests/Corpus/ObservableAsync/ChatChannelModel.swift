// Style: `@Observable` + swift-async-algorithms: outgoing messages sent into an `AsyncChannel`,
// one consumer loop in `init` that sends each to the service and appends the answer.
// Seen in: chat and command-queue models built on AsyncChannel.
import AsyncAlgorithms
import Observation

@Observable
final class ChatChannelModel {
  let outgoing = AsyncChannel<String>()
  private(set) var delivered: [String] = []
  @ObservationIgnored private var loop: Task<Void, Never>?

  init(deliver: @escaping @Sendable (String) async throws -> String) {
    loop = Task { [weak self, outgoing] in
      for await message in outgoing {
        let receipt = try? await deliver(message)
        self?.delivered = (self?.delivered ?? []) + [receipt ?? "failed"]
      }
    }
  }
}
