import FlowrunCore
import Testing

@Suite struct ObservedValueTests {
  /// Two properties, an `observed:` value over them, and `sets` of (frame, property, value).
  private func run(_ sets: [(Int, Int, String)], storesAfterSending: Bool = false) -> [String] {
    let runtime = Runtime()
    let journal = Journal()
    let names = [
      Property(
        initial: .string("Ada"), storesAfterSending: storesAfterSending, owner: NodeLabel("first"), runtime: runtime),
      Property(
        initial: .string("Lovelace"), storesAfterSending: storesAfterSending, owner: NodeLabel("last"), runtime: runtime
      ),
    ]
    let observed = ObservedValue(inputs: names, owner: NodeLabel("observed"), runtime: runtime)
    let subscription = observed.subscribe(JournalObserver("o", journal, runtime))
    for (frame, index, value) in sets {
      runtime.scheduler.schedule(at: frame, ClosureAction(owner: NodeLabel("set")) { names[index].set(.string(value)) })
    }
    _ = runtime.runToEnd()
    subscription.dispose()
    return journal.lines
  }

  @Test func theCurrentValueAtOnceThenOneValuePerFrameOfSets() {
    let lines = run([(2, 0, "Grace"), (2, 1, "Hopper"), (5, 1, "Lovelace")])
    #expect(
      lines == [
        #"0:o:["Ada", "Lovelace"]"#, #"2:o:["Grace", "Hopper"]"#, #"5:o:["Grace", "Lovelace"]"#,
      ])
  }

  @Test(arguments: [false, true])
  func aSetToAnEqualValueOpensNoTransaction(storesAfterSending: Bool) {
    let lines = run([(3, 0, "Ada"), (4, 0, "Grace"), (4, 0, "Ada")], storesAfterSending: storesAfterSending)
    // Frame 3 sets the same name: nothing. Frame 4 changes it and back: one value, equal to the
    // last one, as `Observations` emits it.
    #expect(lines == [#"0:o:["Ada", "Lovelace"]"#, #"4:o:["Ada", "Lovelace"]"#])
  }
}
