import Testing
@testable import FlowrunScenario

@Test func placeholderFlowrunScenario() { #expect(Bool(true)) }
