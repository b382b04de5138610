import FlowrunDiagnostics
import FlowrunYAML

/// Go to definition, find references and the outline of a scenario file.
enum Navigation {
  /// Where the name under the cursor is declared.
  static func definition(_ document: OpenDocument, at position: Position) -> JSONValue {
    let index = document.index
    guard let use = index.nameUse(at: index.lines.byteOffset(of: position)),
      let declaration = index.declaration(named: use.name, document: use.document)
    else { return .null }
    return location(document.uri, index.range(of: declaration.key))
  }

  /// Every place the name under the cursor is written (its declaration when asked).
  static func references(_ document: OpenDocument, at position: Position, includeDeclaration: Bool) -> JSONValue {
    let index = document.index
    guard let use = index.nameUse(at: index.lines.byteOffset(of: position)) else { return .null }
    let places = index.uses.filter {
      $0.name == use.name && $0.document == use.document && (includeDeclaration || !$0.isDeclaration)
    }
    return .array(places.map { location(document.uri, index.lines.range($0.start, $0.end)) })
  }

  private static func location(_ uri: String, _ range: TextRange) -> JSONValue {
    ["uri": .string(uri), "range": range.json]
  }

  // MARK: - Outline

  /// LSP SymbolKind numbers.
  private enum Kind: Int {
    case module = 2, namespace = 3, `class` = 5, property = 7, interface = 11, function = 12, variable = 13,
      key = 20, event = 24
  }

  /// One symbol per scenario document (when there are several), holding its signals, subjects,
  /// properties, commands, services and expectations.
  static func symbols(_ document: OpenDocument) -> JSONValue {
    let index = document.index
    let groups = index.documents.map { info in (info, symbols(of: info, index: index)) }
    if groups.count == 1 { return .array(groups[0].1) }
    return .array(
      groups.map { info, children in
        symbol(info.name ?? "scenario \(info.number + 1)", .module, index.range(of: info.root), children: children)
      })
  }

  private static func symbols(of info: ScenarioIndex.Document, index: ScenarioIndex) -> [JSONValue] {
    var result: [JSONValue] = []
    for name in info.order {
      guard let declaration = info.declarations[name] else { continue }
      let kind: Kind =
        switch declaration.kind {
        case .signal: .event
        case .subject: .variable
        case .property: .property
        case .command: .function
        case .service: .interface
        }
      let whole = TextRange(
        start: index.lines.position(ofByte: declaration.key.start.offset),
        end: index.lines.position(ofByte: max(declaration.value.end.offset, declaration.key.end.offset)))
      result.append(
        symbol(
          name, kind, whole, selection: index.range(of: declaration.key), detail: declaration.kind.rawValue))
    }
    let expectations = index.expectations.filter { $0.document == info.number }
    if let first = expectations.first, let last = expectations.last {
      let children = expectations.map { expectation in
        symbol(
          expectation.target, .key,
          TextRange(
            start: index.lines.position(ofByte: expectation.key.start.offset),
            end: index.lines.position(ofByte: max(expectation.value.end.offset, expectation.key.end.offset))),
          selection: index.range(of: expectation.key), detail: "expectation")
      }
      let whole = TextRange(
        start: index.lines.position(ofByte: first.key.start.offset),
        end: index.lines.position(ofByte: max(last.value.end.offset, last.key.end.offset)))
      result.append(symbol("expect", .namespace, whole, children: children))
    }
    return result
  }

  private static func symbol(
    _ name: String, _ kind: Kind, _ range: TextRange, selection: TextRange? = nil, detail: String? = nil,
    children: [JSONValue] = []
  ) -> JSONValue {
    var result: [String: JSONValue] = [
      "name": .string(name), "kind": .int(kind.rawValue), "range": range.json,
      "selectionRange": (selection ?? TextRange(start: range.start, end: range.start)).json,
    ]
    if let detail { result["detail"] = .string(detail) }
    if !children.isEmpty { result["children"] = .array(children) }
    return .object(result)
  }
}
