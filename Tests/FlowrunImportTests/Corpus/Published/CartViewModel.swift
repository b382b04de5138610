// Style: `ObservableObject` + `@Published`: derived totals assigned with `assign(to: &$x)`,
// a coupon code that must be applied through a service method.
// Seen in: shopping-cart SwiftUI samples and e-commerce MVVM talks.
import Combine
import Foundation

struct CartLine: Equatable {
  var price: Int
  var quantity: Int
}

final class CartViewModel: ObservableObject {
  @Published var lines: [CartLine] = []
  @Published var couponCode = ""
  @Published private(set) var itemCount = 0
  @Published private(set) var isCheckoutEnabled = false
  @Published private(set) var discount = 0

  private let pricing: PricingService
  private var cancellables = Set<AnyCancellable>()

  init(pricing: PricingService) {
    self.pricing = pricing
    $lines.map(\.count).assign(to: &$itemCount)
    $lines.map { !$0.isEmpty }.assign(to: &$isCheckoutEnabled)
  }

  func applyCoupon() {
    pricing.discount(for: couponCode)
      .replaceError(with: 0)
      .sink { [weak self] amount in self?.discount = amount }
      .store(in: &cancellables)
  }
}
