// Style: `ObservableObject` + `@Published`: a city field debounced, a service of a protocol of
// the same file, `receive(on: RunLoop.main)`, an enum state set in `sink`.
// Seen in: weather-app SwiftUI tutorials and "Combine + MVVM" articles.
import Combine
import Foundation

struct Forecast: Equatable {
  var city: String
  var temperature: Int
}

protocol WeatherFetching {
  func forecast(for city: String) -> AnyPublisher<Forecast, Error>
}

final class WeatherViewModel: ObservableObject {
  @Published var city = ""
  @Published private(set) var forecast: Forecast?
  @Published private(set) var failed = false

  private var cancellables = Set<AnyCancellable>()

  init(fetcher: WeatherFetching) {
    $city
      .dropFirst()
      .debounce(for: .seconds(0.5), scheduler: RunLoop.main)
      .filter { !$0.isEmpty }
      .map { city in
        fetcher.forecast(for: city)
          .map { Optional($0) }
          .replaceError(with: nil)
      }
      .switchToLatest()
      .receive(on: RunLoop.main)
      .sink { [weak self] value in
        self?.forecast = value
        self?.failed = value == nil
      }
      .store(in: &cancellables)
  }
}
