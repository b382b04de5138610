import Testing
@testable import FlowrunMarbles

@Test func placeholderFlowrunMarbles() { #expect(Bool(true)) }
