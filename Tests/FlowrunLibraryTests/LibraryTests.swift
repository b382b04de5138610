import Flowrun
import Testing

@Test func libraryProductExposesTheLoader() {
  let file = ScenarioLoader.load(path: "x.yaml", bytes: Array("flowrun: 1\nname: x\n".utf8))
  #expect(file.scenarios.count == 1)
}
