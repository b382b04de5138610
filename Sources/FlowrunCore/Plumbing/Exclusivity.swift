// Dynamic exclusivity checks on the run path
//
// Swift checks at run time that two accesses to a stored property of a class never overlap
// (a `swift_beginAccess` call per access, some 100 instructions), unless the optimiser proves
// that none can: it does when the property is private to the module and no access to it spans
// a call that might reach the property again. A release is such a call, since a deinit may run
// any code. So `values[i] = v`, `values.append(v)` or `values = []` on an array property (each
// releases an old element or buffer inside the access) makes every access to that property,
// reads included, pay the check.
//
// The engine's per-event state therefore changes like this: the array is moved out of the
// property into a local variable (`take()`: the access only moves the buffer), changed there,
// and swapped back (`swap(&local, &property)`: only moves). What is released then dies outside
// any access, and the buffer, never copied, stays uniquely referenced and changes in place.
//
// ```
// var values = latest.take()
// values[input] = value
// swap(&values, &latest)
// ```
//
// The state that shared nodes and recorders change on the run path lives in small classes of
// this folder, each held by a `let` and doing the moves inside: `SubscriberList` (the
// subscribers of a hot marble, a subject or a property), `EventLog` (a recorder's tape),
// `TapeReader` (a hot marble's events, read one ahead), `PendingQueue` (`delay`'s values,
// `observeOn`'s events), `TimerSlot` (a time operator's timer: scheduling through it is no
// access to the operator's properties) and `UpstreamLink`. Operators with a little state of
// their own (a buffer, a ring) do the moves inline, as above.
//
// The scheduler's queue is swift-collections' `Heap` (ActionQueue.swift; a few checks remain
// there, a price for not keeping a heap of our own).

extension Array {
  /// Moves the elements out and leaves the array empty, without copying or releasing anything
  /// (see above); dropping the result empties a property outside any access to it.
  @inline(__always)
  mutating func take() -> [Element] {
    var taken: [Element] = []
    swap(&taken, &self)
    return taken
  }
}
