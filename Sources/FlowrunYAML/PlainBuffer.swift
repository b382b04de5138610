#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A growable table of plain values in memory from `malloc`, grown with `realloc`: the node
/// store's record table.
///
/// An array grows by allocating twice its room and copying into it, so a 48 MB table of two
/// million node records needed 75 MB at its last growth, the peak of loading a large file.
/// `realloc` moves a large block by remapping its pages (glibc's `mremap`) and never holds two
/// copies. The values are `BitwiseCopyable`, so moving their bytes is all a move needs.
///
/// A reference type: the builder appends to it, then the store only reads it (hence
/// `@unchecked Sendable`: nothing changes it once the store is shared).
///
/// Not generic: a debug build runs generic code unspecialized, looking up the element type's
/// metadata on every access, and the records are read several times per node.
final class PlainBuffer: @unchecked Sendable {
  typealias Element = NodeRecord

  private var base: UnsafeMutablePointer<Element>?
  private(set) var count = 0
  private var capacity = 0

  init() {}

  deinit {
    free(base)
  }

  @inline(__always)
  subscript(index: Int) -> Element {
    precondition(index >= 0 && index < count, "index out of range")
    return base.unsafelyUnwrapped[index]
  }

  func append(_ element: Element) {
    if count == capacity { reallocate(max(16, 2 * capacity)) }
    (base.unsafelyUnwrapped + count).initialize(to: element)
    count += 1
  }

  /// Gives back the room past `count` (remapped, not copied, when large).
  func shrinkToFit() {
    if count < capacity { reallocate(count) }
  }

  private func reallocate(_ newCapacity: Int) {
    guard newCapacity > 0 else { return }
    let (bytes, overflow) = newCapacity.multipliedReportingOverflow(by: MemoryLayout<Element>.stride)
    guard !overflow, let memory = realloc(base, bytes) else {
      fatalError("out of memory for \(newCapacity) values of \(MemoryLayout<Element>.stride) bytes")
    }
    base = memory.bindMemory(to: Element.self, capacity: newCapacity)
    capacity = newCapacity
  }
}
