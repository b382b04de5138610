@_exported import FlowrunReport
@_exported import FlowrunScenario
