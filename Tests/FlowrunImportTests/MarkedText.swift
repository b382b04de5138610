/// Swift source with `1️⃣` marking a position (swift-format's `MarkedText` idea): the text
/// without the marker, and the marker's line and column (1-based, Unicode scalars).
struct MarkedText {
  var text: String
  var line = 0
  var column = 0

  init(_ marked: String) {
    text = ""
    var line = 1
    var column = 1
    for character in marked {
      if character == "1️⃣" {
        self.line = line
        self.column = column
        continue
      }
      text.append(character)
      if character == "\n" {
        line += 1
        column = 1
      } else {
        column += character.unicodeScalars.count
      }
    }
  }
}
