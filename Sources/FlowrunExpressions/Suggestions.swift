import FlowrunDiagnostics

/// The closest candidate within edit distance 2 of `name`, and at most half its length away
/// (so that a short name such as `foo` does not suggest `Bool`).
func suggestion(for name: String, among candidates: [String]) -> String? {
  closestName(to: name, among: candidates, maxDistance: min(2, name.unicodeScalars.count / 2))
}

/// `message`, followed by `; did you mean 'x'?` when a candidate is close.
func withSuggestion(_ message: String, for name: String, among candidates: [String]) -> String {
  guard let close = suggestion(for: name, among: candidates) else { return message }
  return "\(message); did you mean '\(close)'?"
}
