import FlowrunCore
import FlowrunTesting
import Foundation
import Testing

/// `FlowVoid`, the answer of a service whose Swift type is `Void` (which is not `Decodable`):
/// every scenario value converts to it, and it decodes from any JSON.
@Suite struct FlowVoidTests {
  @Test(arguments: [Value.null, .string("ok"), .int(1), .list([.bool(true)])])
  func everyValueConverts(_ value: Value) {
    #expect(FlowVoid(flowValue: value) == FlowVoid())
    #expect(FlowVoid().flowValue == .null)
  }

  @Test(arguments: ["null", "{}", "[1, 2]", "\"done\""])
  func anyJSONDecodes(_ json: String) throws {
    let decoded = try JSONDecoder().decode([FlowVoid].self, from: Data("[\(json)]".utf8))
    #expect(decoded == [FlowVoid()])
  }
}
