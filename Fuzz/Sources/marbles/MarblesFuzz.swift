import FlowrunCore
import FlowrunMarbles
import FuzzSupport

/// The marble parser and printer: the first byte picks grammar and mode, the rest is the marble.
@main
enum Main {
  static func main() { runFuzzer(fuzz) }
}

func fuzz(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data = pointer else { return 0 }
  guard size > 0 else { return 0 }
  let selector = data[0]
  let text = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
  let grammar: MarbleGrammar = selector & 1 == 0 ? .flowrun : .rxjs
  let parser = MarbleParser(grammar: grammar, tick: .default, limits: MarbleLimits(frames: 100_000, characters: 10_000))
  do throws(MarbleError) {
    let marble: ParsedMarble
    switch (selector >> 1) % 4 {
    case 0: marble = try parser.parseHot(text)
    case 1: marble = try parser.parseCold(text)
    case 2: marble = try parser.parseExpectation(text)
    default:
      _ = try parser.parseSubscription(text)
      return 0
    }
    _ = marble
  } catch {
    _ = error.description
  }
  return 0
}
