import Testing
@testable import FlowrunYAML

@Test func placeholderFlowrunYAML() { #expect(Bool(true)) }
