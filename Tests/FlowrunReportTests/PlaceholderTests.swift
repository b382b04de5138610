import Testing
@testable import FlowrunReport

@Test func placeholderFlowrunReport() { #expect(Bool(true)) }
