import Testing
@testable import FlowrunExpressions

@Test func placeholderFlowrunExpressions() { #expect(Bool(true)) }
