import FlowrunDiagnostics
import FlowrunMarbles
import FlowrunScenario
import FlowrunYAML

/// What the language server knows about one scenario file: the loader's YAML tree of each
/// document, read once per version of the text, with every declared name, every use of a name,
/// every marble and every step key placed by byte range.
///
/// The tree is the loader's (`YAMLFile.parse`); the roles of its nodes follow the scenario
/// format as `ScenarioWalker` reads it. Validation stays with the loader (`flowrun check`).
struct ScenarioIndex: Sendable {
  enum DeclarationKind: String, Sendable {
    case signal, subject, property, command, service
  }

  struct Declaration: Sendable {
    var name: String
    var kind: DeclarationKind
    var key: YAMLNode
    var value: YAMLNode
    var document: Int
  }

  /// A name written in the file: a declaration's key, or a use of a declared name.
  struct NameUse: Sendable {
    /// The declared name it refers to.
    var name: String
    /// The member after the name (`executing` in `login.executing`), nil for the name itself.
    var member: String?
    /// The bytes of the name (without the member).
    var start: Int
    var end: Int
    var isDeclaration: Bool
    var document: Int
  }

  enum MarbleKind: Sendable {
    case hot, cold, expectation, subscription
  }

  /// A marble string and what reading it needs.
  struct MarbleSite: Sendable {
    var node: YAMLNode
    var kind: MarbleKind
    /// The `values` beside it (a step's or an expectation's own legend).
    var localLegend: YAMLNode?
    /// The `error` beside it.
    var localError: YAMLNode?
    var document: Int
  }

  /// A step's key (`debounce` in `- debounce: 30ms`, or a bare `distinctUntilChanged`).
  struct StepKey: Sendable {
    var name: String
    var role: ScenarioVocabulary.Role
    var node: YAMLNode
    /// The document's `library:`, whose meaning of the step the run uses.
    var library: Library?
  }

  /// An expectation: its target key and its value.
  struct Expectation: Sendable {
    var target: String
    var key: YAMLNode
    var value: YAMLNode
    var document: Int
  }

  /// One `---` document: its root and the file-wide settings that reading marbles needs.
  struct Document: Sendable {
    /// The document's place among the file's `---` documents.
    var number: Int
    var root: YAMLNode
    var name: String?
    var tick: Tick
    var grammar: MarbleGrammar
    /// The document's `library:` (nil when absent or not a library's name).
    var library: Library?
    var values: YAMLNode?
    var error: YAMLNode?
    var declarations: [String: Declaration] = [:]
    /// Declared names in file order.
    var order: [String] = []
    /// Signals whose first step is `hot` or `cold` (they have a subscription log).
    var loggedSignals: Set<String> = []
  }

  private(set) var file: YAMLFile
  private(set) var lines: LineIndex
  /// Whether the YAML parsed without error (else `documents` are those before the error).
  private(set) var parsed: Bool
  var documents: [Document] = []
  var uses: [NameUse] = []
  var marbles: [MarbleSite] = []
  var steps: [StepKey] = []
  var expectations: [Expectation] = []

  init(path: String, bytes: [UInt8]) {
    let (file, diagnostics) = YAMLFile.parse(path: path, bytes: bytes)
    self.file = file
    lines = LineIndex(bytes: bytes)
    parsed = !diagnostics.contains { $0.severity == .error }
    for (number, document) in file.documents.enumerated() {
      guard let root = document.root else { continue }
      var walker = ScenarioWalker(index: self, document: number)
      walker.walkRoot(root)
      self = walker.index
    }
  }

  /// The document whose root spans byte `offset`.
  func document(at offset: Int) -> Int? {
    documents.last { $0.root.start.offset <= offset }?.number ?? documents.first?.number
  }

  /// The name use or declaration at byte `offset` (the end of a name counts, as a cursor there
  /// is still on it).
  func nameUse(at offset: Int) -> NameUse? {
    uses.first { $0.start <= offset && offset <= $0.end }
  }

  func declaration(named name: String, document: Int) -> Declaration? {
    documents.first { $0.number == document }?.declarations[name]
  }

  func documentInfo(_ number: Int) -> Document? {
    documents.first { $0.number == number }
  }

  func marble(at offset: Int) -> MarbleSite? {
    marbles.first { $0.node.start.offset <= offset && offset < $0.node.end.offset }
  }

  func step(at offset: Int) -> StepKey? {
    steps.first { $0.node.start.offset <= offset && offset <= $0.node.end.offset }
  }

  /// The end of every scalar node, by its start: diagnostics span the scalar they point at.
  func scalarEnds() -> [Int: Int] {
    var ends: [Int: Int] = [:]
    var stack = documents.map(\.root)
    while let next = stack.popLast() {
      switch next.kind {
      case .scalar:
        ends[next.start.offset] = next.end.offset
      case .sequence(let items):
        stack.append(contentsOf: items)
      case .mapping(let pairs):
        for pair in pairs { stack.append(contentsOf: [pair.key, pair.value]) }
      }
    }
    return ends
  }

  /// The bytes of `node` as written.
  func sourceText(of node: YAMLNode) -> String {
    let start = max(0, min(node.start.offset, lines.bytes.count))
    let end = max(start, min(node.end.offset, lines.bytes.count))
    return String(decoding: lines.bytes[start..<end], as: UTF8.self)
  }

  /// The byte range of `node` as LSP positions.
  func range(of node: YAMLNode) -> TextRange {
    lines.range(node.start.offset, node.end.offset)
  }
}
