import Testing
@testable import FlowrunCore

@Test func placeholderFlowrunCore() { #expect(Bool(true)) }
