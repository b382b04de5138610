import OpenCombineShim

/// A counter whose label reads "none" at zero and the count after it, and whose decrement button
/// is enabled above zero.
public final class CounterViewModel {
  @Published public private(set) var count = 0
  @Published public private(set) var label = "none"
  @Published public private(set) var canDecrement = false

  public init() {}

  public func increment() { set(count + 1) }

  public func decrement() {
    guard count > 0 else { return }
    set(count - 1)
  }

  private func set(_ value: Int) {
    count = value
    label = value == 0 ? "none" : "\(value)"
    canDecrement = value > 0
  }
}
