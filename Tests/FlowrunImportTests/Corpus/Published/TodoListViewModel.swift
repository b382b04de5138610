// Style: `ObservableObject` + `@Published`: a filter enum compared with implicit members
// (`.all`, `.done`), the visible list a `combineLatest` of the items and the filter.
// Seen in: SwiftUI to-do list tutorials and TodoMVC ports.
import Combine

enum TodoFilter: Equatable {
  case all
  case open
  case done
}

final class TodoListViewModel: ObservableObject {
  @Published var items: [String] = []
  @Published var filter: TodoFilter = .all
  @Published var newTitle = ""
  @Published private(set) var showsClearButton = false
  @Published private(set) var canAdd = false

  init() {
    $filter
      .map { $0 == .done }
      .assign(to: &$showsClearButton)
    $newTitle
      .combineLatest($items)
      .map { title, items in !title.isEmpty && !items.contains(title) }
      .assign(to: &$canAdd)
  }

  func add() {
    items.append(newTitle)
    newTitle = ""
  }
}
