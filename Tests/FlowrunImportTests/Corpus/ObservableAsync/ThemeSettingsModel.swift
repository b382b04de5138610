// Style: `@Observable` with computed properties only (no async): settings toggles and a
// derived summary, read by SwiftUI views.
// Seen in: WWDC23 "Discover Observation in SwiftUI" style models.
import Observation

@Observable
final class ThemeSettingsModel {
  var usesDarkMode = false
  var fontSize = 14
  var accent = "blue"

  var summary: String { usesDarkMode ? "Dark, \(fontSize) pt" : "Light, \(fontSize) pt" }
  var isLargeText: Bool { fontSize >= 18 }
  var canReset: Bool { usesDarkMode || fontSize != 14 || accent != "blue" }

  func reset() {
    usesDarkMode = false
    fontSize = 14
    accent = "blue"
  }
}
