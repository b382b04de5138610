public import FlowrunCore

/// Reads the current value of a property by the slot its name compiled to.
public protocol PropertyReader: AnyObject {
  /// The current value of the property at `slot` (its position in `ExpressionScope.properties`).
  func propertyValue(at slot: Int) -> Value
}

/// What an expression may name, decided when it is compiled.
public struct ExpressionScope: Sendable, Equatable {
  /// How the value given to the expression is bound to `$0`, `$1`, … and key names.
  public enum Parameters: Sendable, Equatable {
    /// No value is passed: `$0` is an error.
    case none
    /// `$0` is the value.
    case value
    /// `$i` is element i of the list value, for i < arity.
    case tuple(arity: Int)
    /// `$0` is the accumulator; `$1` is the value, or with a value arity n, `$1`…`$n` are its
    /// elements.
    case accumulator(valueArity: Int?)
    /// Each name reads that key of the map value; `$0` is the whole map.
    case keyed(names: [String])
    /// The value's shape is not known because the step before did not compile: every `$n` and
    /// name that could be a key is accepted, so that one mistake is reported once (the
    /// expression never runs, as the scenario does not load).
    case unknown
  }

  /// The template names (`outer`, `input`, `error`) that are bound.
  public struct TemplateNames: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `outer`: the value that made a template.
    public static let outer = TemplateNames(rawValue: 1)
    /// `input`: the execute or call input of a command's work or a service.
    public static let input = TemplateNames(rawValue: 2)
    /// `error`: the error value inside `catch`.
    public static let error = TemplateNames(rawValue: 4)
  }

  /// How `$0`, `$1`, … and key names are bound.
  public var parameters: Parameters
  /// Whether `index` is available.
  public var indexAvailable: Bool
  /// Which template names are bound.
  public var templateNames: TemplateNames
  /// The property names in scope; a reference compiles to the name's position in this list.
  public var properties: [String]
  /// The deepest nesting an expression may have.
  public var maxDepth: Int
  /// The longest expression text, in Unicode scalars.
  public var maxLength: Int
  /// The values `$0` may have, when they are all known at load time (a marble's legend values,
  /// a property's): a member that none of them has is a load error (`$0.length` on strings).
  public var knownValues: [Value]? = nil

  public init(
    parameters: Parameters = .value,
    indexAvailable: Bool = false,
    templateNames: TemplateNames = [],
    properties: [String] = [],
    maxDepth: Int = 256,
    maxLength: Int = 100_000
  ) {
    self.parameters = parameters
    self.indexAvailable = indexAvailable
    self.templateNames = templateNames
    self.properties = properties
    self.maxDepth = maxDepth
    self.maxLength = maxLength
  }
}

/// What stays the same across the evaluations of one compiled step: the template names and the
/// properties. Shared by reference, so a context is cheap to make for every value.
public final class EvalEnvironment {
  /// The value that made the template (`outer`).
  public let outer: Value
  /// The execute or call input (`input`).
  public let input: Value
  /// The error value inside `catch` (`error`).
  public let error: Value
  /// Where property references read their current values.
  public let properties: (any PropertyReader)?

  public init(outer: Value = .null, input: Value = .null, error: Value = .null, properties: (any PropertyReader)? = nil)
  {
    self.outer = outer
    self.input = input
    self.error = error
    self.properties = properties
  }
}

/// Everything an evaluation reads: the value, the accumulator, the index, the frame, the template
/// names and the properties.
public struct EvalContext {
  /// The value (`$0`, or the list of `$i`, or the keyed map).
  public var value: Value
  /// The accumulator of `scan`/`reduce` (`$0` there).
  public var accumulator: Value
  /// The zero-based index of the value within its subscription (`index`).
  public var index: Int
  /// The current frame (`now`).
  public var now: Int
  /// The template names and properties.
  public var environment: EvalEnvironment

  /// The value that made the template (`outer`).
  public var outer: Value {
    get { environment.outer }
    set { environment = EvalEnvironment(outer: newValue, input: input, error: error, properties: properties) }
  }
  /// The execute or call input (`input`).
  public var input: Value {
    get { environment.input }
    set { environment = EvalEnvironment(outer: outer, input: newValue, error: error, properties: properties) }
  }
  /// The error value inside `catch` (`error`).
  public var error: Value {
    get { environment.error }
    set { environment = EvalEnvironment(outer: outer, input: input, error: newValue, properties: properties) }
  }
  /// Where property references read their current values.
  public var properties: (any PropertyReader)? {
    get { environment.properties }
    set { environment = EvalEnvironment(outer: outer, input: input, error: error, properties: newValue) }
  }
  /// The element evaluations left to this evaluation (shared by nested `.map` / `.filter`).
  public var meter: EvaluationMeter?

  public init(
    value: Value = .null,
    accumulator: Value = .null,
    index: Int = 0,
    now: Int = 0,
    outer: Value = .null,
    input: Value = .null,
    error: Value = .null,
    properties: (any PropertyReader)? = nil
  ) {
    self.value = value
    self.accumulator = accumulator
    self.index = index
    self.now = now
    self.environment = EvalEnvironment(outer: outer, input: input, error: error, properties: properties)
  }

  /// A context for one evaluation in `environment`.
  @inlinable
  public init(value: Value, accumulator: Value = .null, index: Int, now: Int, environment: EvalEnvironment) {
    self.value = value
    self.accumulator = accumulator
    self.index = index
    self.now = now
    self.environment = environment
  }
}
