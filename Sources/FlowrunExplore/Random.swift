/// The deterministic random numbers of `flowrun explore`: the same seed gives the same numbers
/// on every machine and every Swift version (nothing here uses the standard library's random
/// APIs, whose algorithms are not specified).
///
/// xoshiro256** (Blackman and Vigna, 2018) draws the numbers; SplitMix64 (Steele, Lea and
/// Flood, 2014) turns a seed into its state.
struct RandomSource {
  private var s0: UInt64
  private var s1: UInt64
  private var s2: UInt64
  private var s3: UInt64

  /// The generator of run `run` for `seed`: every run has its own, so a run can be replayed
  /// without drawing the runs before it.
  init(seed: UInt64, run: Int) {
    var mixer = SplitMix64(state: seed)
    let base = mixer.next()
    var splitter = SplitMix64(state: base &+ UInt64(truncatingIfNeeded: run) &* 0xD1B5_4A32_D192_ED03)
    s0 = splitter.next()
    s1 = splitter.next()
    s2 = splitter.next()
    s3 = splitter.next()
  }

  /// The next 64 random bits.
  mutating func next() -> UInt64 {
    let result = rotate(s1 &* 5, 7) &* 9
    let t = s1 << 17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = rotate(s3, 45)
    return result
  }

  /// A number in `0..<bound` (`bound` ≥ 1), without modulo bias: Lemire's multiply-and-shift,
  /// redrawing the few values that would make the result uneven.
  mutating func below(_ bound: Int) -> Int {
    precondition(bound >= 1, "an empty range")
    let range = UInt64(bound)
    var product = next().multipliedFullWidth(by: range)
    if product.low < range {
      let threshold = (0 &- range) % range
      while product.low < threshold { product = next().multipliedFullWidth(by: range) }
    }
    return Int(product.high)
  }

  /// A number in `range`.
  mutating func number(in range: ClosedRange<Int>) -> Int {
    range.lowerBound + below(range.upperBound - range.lowerBound + 1)
  }

  private func rotate(_ x: UInt64, _ k: UInt64) -> UInt64 {
    (x << k) | (x >> (64 - k))
  }
}

/// SplitMix64: a 64-bit state advanced by a constant and mixed.
struct SplitMix64 {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
