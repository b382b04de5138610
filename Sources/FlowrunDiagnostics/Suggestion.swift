/// The candidate closest to a misspelt name, for "did you mean" hints.
///
/// Returns the candidate within edit distance `maxDistance` (default 2) of `name` with the
/// smallest distance (the first in `candidates` order on a tie), or nil when none is that close.
public func closestName(
  to name: String, among candidates: some Sequence<String>, maxDistance: Int = 2
) -> String? {
  var best: (name: String, distance: Int)?
  let source = Array(name.unicodeScalars)
  for candidate in candidates where candidate != name {
    let distance = editDistance(source, Array(candidate.unicodeScalars), limit: maxDistance)
    if distance <= maxDistance, distance < (best?.distance ?? .max) {
      best = (candidate, distance)
    }
  }
  return best?.name
}

/// Levenshtein distance, giving up (returning `limit + 1`) once it must exceed `limit`.
private func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
  if abs(a.count - b.count) > limit { return limit + 1 }
  var previous = Array(0...b.count)
  var current = Array(repeating: 0, count: b.count + 1)
  for i in 1...max(a.count, 1) where !a.isEmpty {
    current[0] = i
    var rowMinimum = current[0]
    for j in 1...max(b.count, 1) where !b.isEmpty {
      let cost = a[i - 1] == b[j - 1] ? 0 : 1
      current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      rowMinimum = min(rowMinimum, current[j])
    }
    if rowMinimum > limit { return limit + 1 }
    swap(&previous, &current)
  }
  return a.isEmpty ? b.count : previous[b.count]
}
