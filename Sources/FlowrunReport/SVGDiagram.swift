public struct SVGDiagram: Sendable {
  public let models: [DiagramModel]
  public init(_ models: [DiagramModel]) { self.models = models }
  public func render() -> String { "" }
}
