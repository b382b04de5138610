import CombineSchedulers
import OpenCombine

/// Virtual time in whole frames, the unit of flowrun's marbles.
struct Frame: Strideable, Hashable {
  var value: Int
  init(_ value: Int) { self.value = value }
  func distance(to other: Frame) -> FrameStride { FrameStride(other.value - value) }
  func advanced(by n: FrameStride) -> Frame { Frame(value + n.frames) }
}

/// A duration in frames; one frame counts as one second for the `SchedulerTimeIntervalConvertible`
/// constructors, which operators call only with values built from frames here.
struct FrameStride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, Hashable,
  ExpressibleByIntegerLiteral
{
  var frames: Int
  init(_ frames: Int) { self.frames = frames }
  init(integerLiteral value: Int) { frames = value }
  init?<T: BinaryInteger>(exactly source: T) {
    guard let frames = Int(exactly: source) else { return nil }
    self.frames = frames
  }
  var magnitude: UInt { frames.magnitude }
  static func < (a: FrameStride, b: FrameStride) -> Bool { a.frames < b.frames }
  static func + (a: FrameStride, b: FrameStride) -> FrameStride { FrameStride(a.frames + b.frames) }
  static func - (a: FrameStride, b: FrameStride) -> FrameStride { FrameStride(a.frames - b.frames) }
  static func * (a: FrameStride, b: FrameStride) -> FrameStride { FrameStride(a.frames * b.frames) }
  static func *= (a: inout FrameStride, b: FrameStride) { a.frames *= b.frames }
  static func += (a: inout FrameStride, b: FrameStride) { a.frames += b.frames }
  static func -= (a: inout FrameStride, b: FrameStride) { a.frames -= b.frames }
  static func seconds(_ s: Int) -> FrameStride { FrameStride(s) }
  static func seconds(_ s: Double) -> FrameStride { FrameStride(Int(s.rounded())) }
  static func milliseconds(_ ms: Int) -> FrameStride { FrameStride(ms / 1000) }
  static func microseconds(_ us: Int) -> FrameStride { FrameStride(us / 1_000_000) }
  static func nanoseconds(_ ns: Int) -> FrameStride { FrameStride(ns / 1_000_000_000) }
}

typealias FrameScheduler = TestScheduler<Frame, Never>
