import OrderedCollections
import Testing

@testable import FlowrunCore

/// `EventTape` gives back exactly the events it was given, packed or boxed, in order.
@Suite struct EventTapeTests {
  /// Events that exercise every payload kind and every way a frame delta is written.
  static let cases: [(name: String, events: [Recorded])] = [
    ("empty", []),
    ("completed only", [Recorded(frame: 0, event: .completed)]),
    (
      "every payload kind",
      [
        Recorded(frame: 1, event: .next(.null)),
        Recorded(frame: 1, event: .next(.bool(true))),
        Recorded(frame: 2, event: .next(.bool(false))),
        Recorded(frame: 3, event: .next(.int(0))),
        Recorded(frame: 4, event: .next(.int(-1))),
        Recorded(frame: 5, event: .next(.int(.max))),
        Recorded(frame: 6, event: .next(.int(.min))),
        Recorded(frame: 7, event: .next(.double(-2.5))),
        Recorded(frame: 8, event: .next(.double(.nan))),
        Recorded(frame: 9, event: .next(.string(""))),
        Recorded(frame: 10, event: .next(.string("fifteen bytes!!"))),
        Recorded(frame: 11, event: .next(.string("sixteen bytes!!!"))),
        Recorded(frame: 12, event: .next(.string("雨夜"))),
        Recorded(frame: 13, event: .next(.list([.int(1), .string("a")]))),
        Recorded(frame: 14, event: .next(.map(["k": .bool(true)]))),
        Recorded(frame: 15, event: .error(.string("boom"))),
      ]
    ),
    (
      "error values of every kind",
      [
        Recorded(frame: 0, event: .error(.null)),
        Recorded(frame: 0, event: .error(.int(42))),
        Recorded(frame: 0, event: .error(.double(1.5))),
        Recorded(frame: 0, event: .error(.list([]))),
      ]
    ),
    (
      "frame deltas inline, past the header and backwards",
      [
        Recorded(frame: -3, event: .next(.int(1))),
        Recorded(frame: 3, event: .next(.int(2))),
        Recorded(frame: 9, event: .next(.int(3))),
        Recorded(frame: 10, event: .next(.int(4))),
        Recorded(frame: 1_000_000_000_000, event: .next(.int(5))),
        Recorded(frame: 7, event: .next(.int(6))),
        Recorded(frame: 7, event: .completed),
      ]
    ),
  ]

  @Test(arguments: cases.indices)
  func givesBackWhatItWasGiven(_ index: Int) {
    let (name, events) = Self.cases[index]
    let tape = EventTape(events)
    #expect(tape.count == events.count, "\(name)")
    #expect(tape.isEmpty == events.isEmpty, "\(name)")
    #expect(tape.events == events, "\(name)")
    #expect(tape == EventTape(events), "\(name)")
  }

  @Test func shiftingMovesEveryFrameAppendedOrToCome() {
    var tape = EventTape([Recorded(frame: 5, event: .next(.int(1))), Recorded(frame: 6, event: .next(.int(2)))])
    tape.shiftFrames(by: -5)
    tape.append(Recorded(frame: 3, event: .completed))
    #expect(tape.events.map(\.frame) == [0, 1, 3])
  }

  @Test func comparesValuesAsValuesDo() {
    let int = EventTape([Recorded(frame: 1, event: .next(.int(1)))])
    let double = EventTape([Recorded(frame: 1, event: .next(.double(1.0)))])
    #expect(int == double)
    #expect(int.firstDifference(from: double) == nil)
  }

  @Test(
    arguments: [
      ([1, 2, 3], [1, 2, 3], nil),
      ([1, 2, 3], [1, 9, 3], 1),
      ([1, 2], [1, 2, 3], 2),
      ([1, 2, 3], [1, 2], 2),
      ([], [1], 0),
    ] as [([Int], [Int], Int?)])
  func firstDifferenceIsTheFirstUnequalIndex(_ a: [Int], _ b: [Int], _ expected: Int?) {
    let tape = { (values: [Int]) in EventTape(values.map { Recorded(frame: $0, event: .next(.int($0))) }) }
    #expect(tape(a).firstDifference(from: tape(b)) == expected)
    #expect((tape(a) == tape(b)) == (expected == nil))
  }

  @Test func boxedValuesDifferEvenWhenTheBytesMatch() {
    let a = EventTape([Recorded(frame: 1, event: .next(.list([.int(1)])))])
    let b = EventTape([Recorded(frame: 1, event: .next(.list([.int(2)])))])
    #expect(a.byteCount == b.byteCount)
    #expect(a.firstDifference(from: b) == 0)
    #expect(a != b)
  }

  @Test func shiftedTapesCompareByTheirFrames() {
    var shifted = EventTape([Recorded(frame: 3, event: .next(.int(1)))])
    shifted.shiftFrames(by: -2)
    #expect(shifted == EventTape([Recorded(frame: 1, event: .next(.int(1)))]))
    #expect(shifted.firstDifference(from: EventTape([Recorded(frame: 3, event: .next(.int(1)))])) == 0)
  }

  @Test func anEventAtTheSameValueButAnotherFrameDiffers() {
    let a = EventTape([Recorded(frame: 1, event: .next(.int(7)))])
    let b = EventTape([Recorded(frame: 2, event: .next(.int(7)))])
    #expect(a.firstDifference(from: b) == 0)
  }

  @Test func aMillionEventsTakeAFewBytesEach() {
    var tape = EventTape()
    for frame in 1...1_000_000 { tape.append(Recorded(frame: frame, event: .next(.int(frame)))) }
    var cursor = tape.start
    var frame = 0
    while let event = tape.next(&cursor) {
      frame += 1
      #expect(event == Recorded(frame: frame, event: .next(.int(frame))))
      if frame > 3 { break }
    }
    #expect(tape.count == 1_000_000)
    #expect(tape.byteCount <= 4 * 1_000_000)
  }

  /// `forEachValueOfNewKind` gives the `.next` values where their payload kind first appears
  /// (null, false, true, integer, double, short string) and every boxed one, in order, never an
  /// error's or a completion, and stops when asked.
  @Test func valuesOfNewKindsSkipRepeatedInlineKinds() {
    let long = Value.string("a string of more than fifteen bytes")
    let tape = EventTape([
      Recorded(frame: 1, event: .next(.int(1))),
      Recorded(frame: 300, event: .next(.int(2))),
      Recorded(frame: 301, event: .error(.string("x"))),
      Recorded(frame: 302, event: .next(.string("a"))),
      Recorded(frame: 302, event: .next(.string("b"))),
      Recorded(frame: 303, event: .next(.bool(true))),
      Recorded(frame: 304, event: .next(.bool(false))),
      Recorded(frame: 305, event: .next(.bool(true))),
      Recorded(frame: 306, event: .next(.list([.int(1)]))),
      Recorded(frame: 306, event: .next(long)),
      Recorded(frame: 307, event: .next(.double(1.5))),
      Recorded(frame: 308, event: .next(.double(2.5))),
      Recorded(frame: 309, event: .next(.null)),
      Recorded(frame: 310, event: .next(long)),
      Recorded(frame: 311, event: .completed),
    ])
    var all: [Value] = []
    tape.forEachValueOfNewKind { value in
      all.append(value)
      return true
    }
    #expect(
      all == [.int(1), .string("a"), .bool(true), .bool(false), .list([.int(1)]), long, .double(1.5), .null, long])
    var first: [Value] = []
    tape.forEachValueOfNewKind { value in
      first.append(value)
      return first.count < 2
    }
    #expect(first == [.int(1), .string("a")])
  }
}
