#if SystemLibYAML && !canImport(Darwin)
  internal import CLibYAML
#else
  internal import CYaml
#endif

/// A libyaml position as libyaml reports it: 0-based character index, line and column.
struct LibYAMLMark: Sendable {
  var index: Int
  var line: Int
  var column: Int

  init(_ mark: yaml_mark_t) {
    index = mark.index
    line = mark.line
    column = mark.column
  }
}

/// One libyaml event: its strings copied into Swift values, except a scalar's value, which is
/// lent as libyaml's buffer for as long as the event is handled (`LibYAMLParser.next`).
struct LibYAMLEvent {
  enum Kind {
    case streamStart
    case streamEnd
    case documentStart
    case documentEnd
    case alias(anchor: String)
    case scalar(
      value: UnsafeBufferPointer<UInt8>, anchor: String?, tag: String?, style: YAMLNode.ScalarStyle)
    case sequenceStart(anchor: String?, tag: String?)
    case sequenceEnd
    case mappingStart(anchor: String?, tag: String?)
    case mappingEnd
    /// libyaml produced no event (only after an error or the end of the stream).
    case none
  }

  var kind: Kind
  var start: LibYAMLMark
  var end: LibYAMLMark

  /// Reads `event`, only the union member that belongs to its type; a scalar's value stays in
  /// libyaml's buffer.
  init(_ event: yaml_event_t) {
    start = LibYAMLMark(event.start_mark)
    end = LibYAMLMark(event.end_mark)
    switch event.type {
    case YAML_STREAM_START_EVENT:
      kind = .streamStart
    case YAML_STREAM_END_EVENT:
      kind = .streamEnd
    case YAML_DOCUMENT_START_EVENT:
      kind = .documentStart
    case YAML_DOCUMENT_END_EVENT:
      kind = .documentEnd
    case YAML_ALIAS_EVENT:
      kind = .alias(anchor: Self.string(event.data.alias.anchor) ?? "")
    case YAML_SCALAR_EVENT:
      let scalar = event.data.scalar
      let value = UnsafeBufferPointer(
        start: scalar.value.map { UnsafePointer($0) }, count: scalar.value == nil ? 0 : Int(clamping: scalar.length))
      let style: YAMLNode.ScalarStyle
      switch scalar.style {
      case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
      case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
      case YAML_LITERAL_SCALAR_STYLE: style = .literal
      case YAML_FOLDED_SCALAR_STYLE: style = .folded
      default: style = .plain
      }
      kind = .scalar(
        value: value, anchor: Self.string(scalar.anchor), tag: Self.tag(scalar.tag), style: style)
    case YAML_SEQUENCE_START_EVENT:
      let sequence = event.data.sequence_start
      kind = .sequenceStart(anchor: Self.string(sequence.anchor), tag: Self.tag(sequence.tag))
    case YAML_SEQUENCE_END_EVENT:
      kind = .sequenceEnd
    case YAML_MAPPING_START_EVENT:
      let mapping = event.data.mapping_start
      kind = .mappingStart(anchor: Self.string(mapping.anchor), tag: Self.tag(mapping.tag))
    case YAML_MAPPING_END_EVENT:
      kind = .mappingEnd
    default:
      kind = .none
    }
  }

  private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
    guard let pointer else { return nil }
    return String(cString: UnsafePointer(pointer))
  }

  /// The tag as written: the YAML namespace prefix is shortened back to `!!`.
  private static func tag(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
    guard let tag = string(pointer) else { return nil }
    let prefix = "tag:yaml.org,2002:"
    if tag.hasPrefix(prefix) { return "!!" + tag.dropFirst(prefix.count) }
    return tag
  }
}

/// A failure reported by libyaml.
struct LibYAMLError: Sendable, Error {
  /// libyaml's problem text, e.g. "did not find expected key".
  var problem: String
  /// Where the problem is (scanner and parser errors).
  var problemMark: LibYAMLMark?
  /// The byte offset of the problem (reader errors).
  var problemOffset: Int?
  /// What libyaml was doing, e.g. "while parsing a block mapping".
  var context: String?
  var contextMark: LibYAMLMark?
}

/// Owns one libyaml parser reading the caller's bytes in place.
///
/// The `yaml_parser_t` lives in memory allocated once (so no exclusivity bookkeeping runs per
/// event); it is freed exactly once, in `deinit`, and deleted only if it was initialized.
/// libyaml reads `input` lazily, so the parser must not be used after the buffer's lifetime
/// ends (callers create it inside `withUnsafeBufferPointer` and drop it there).
final class LibYAMLParser {
  private let parser: UnsafeMutablePointer<yaml_parser_t>
  private let isInitialized: Bool

  /// Prepares a parser over `input` (not copied), which must have a base address.
  init(input: UnsafeBufferPointer<UInt8>) {
    parser = .allocate(capacity: 1)
    parser.initialize(to: yaml_parser_t())
    isInitialized = yaml_parser_initialize(parser) != 0
    if isInitialized, let base = input.baseAddress {
      yaml_parser_set_input_string(parser, base, input.count)
    }
  }

  deinit {
    if isInitialized { yaml_parser_delete(parser) }
    parser.deinitialize(count: 1)
    parser.deallocate()
  }

  /// Handles the next event with `body` (the event's buffers are valid only during the call),
  /// or returns libyaml's error.
  func next<R>(_ body: (LibYAMLEvent) -> R) -> Result<R, LibYAMLError> {
    guard isInitialized else {
      return .failure(LibYAMLError(problem: "out of memory while starting the YAML parser"))
    }
    var event = yaml_event_t()
    guard yaml_parser_parse(parser, &event) != 0 else {
      return .failure(currentError())
    }
    defer { yaml_event_delete(&event) }
    return .success(body(LibYAMLEvent(event)))
  }

  private func currentError() -> LibYAMLError {
    let problem = parser.pointee.problem.map { String(cString: $0) } ?? "invalid YAML"
    let context = parser.pointee.context.map { String(cString: $0) }
    switch parser.pointee.error {
    case YAML_READER_ERROR:
      return LibYAMLError(problem: problem, problemOffset: Int(clamping: parser.pointee.problem_offset))
    case YAML_SCANNER_ERROR, YAML_PARSER_ERROR:
      return LibYAMLError(
        problem: problem,
        problemMark: LibYAMLMark(parser.pointee.problem_mark),
        context: context,
        contextMark: context == nil ? nil : LibYAMLMark(parser.pointee.context_mark))
    case YAML_MEMORY_ERROR:
      return LibYAMLError(problem: "out of memory")
    default:
      return LibYAMLError(problem: problem, context: context)
    }
  }
}
