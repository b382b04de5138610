import FlowrunCore

@testable import FlowrunMarbles

/// Items as `frame:token` words: `0:a 1:'u1' 3:|`.
func summary(_ items: [MarbleItem]) -> String {
  items.map { item in
    switch item.kind {
    case let .value(token, quoted): "\(item.frame):" + (quoted ? "'\(token)'" : token)
    case .error: "\(item.frame):#"
    case .completed: "\(item.frame):|"
    }
  }.joined(separator: " ")
}

/// A parser for a grammar name and tick text.
func parser(_ grammar: MarbleGrammar = .flowrun, tick: String = "1ms", limits: MarbleLimits = MarbleLimits())
  throws -> MarbleParser
{
  MarbleParser(grammar: grammar, tick: try Tick(parsing: tick), limits: limits)
}

/// A recorded next event.
func next(_ frame: Int, _ value: Value) -> Recorded { Recorded(frame: frame, event: .next(value)) }
