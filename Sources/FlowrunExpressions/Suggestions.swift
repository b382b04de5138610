/// The edit distance between two names, in Characters (insertions, deletions, substitutions).
func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a)
  let b = Array(b)
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var previous = Array(0...b.count)
  var row = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    row[0] = i
    for j in 1...b.count {
      let cost = a[i - 1] == b[j - 1] ? 0 : 1
      row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
    }
    swap(&previous, &row)
  }
  return previous[b.count]
}

/// The closest candidate within edit distance 2 of `name`, and at most half its length away.
func suggestion(for name: String, among candidates: [String]) -> String? {
  var best: (name: String, distance: Int)?
  for candidate in candidates where candidate != name {
    let distance = editDistance(name, candidate)
    guard distance <= 2, distance * 2 <= name.count else { continue }
    if best.map({ distance < $0.distance }) ?? true { best = (candidate, distance) }
  }
  return best?.name
}

/// `message`, followed by `; did you mean 'x'?` when a candidate is close.
func withSuggestion(_ message: String, for name: String, among candidates: [String]) -> String {
  guard let close = suggestion(for: name, among: candidates) else { return message }
  return "\(message); did you mean '\(close)'?"
}
