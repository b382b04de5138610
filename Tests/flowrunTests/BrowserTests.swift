import Foundation
import Testing

/// The HTML diagram in a real headless browser: runs the Selenium tests of `Tests/Browser`
/// (`python3 -m pytest Tests/Browser -q`) against the built flowrun. They need Chromium,
/// chromedriver, the fonts the teaching flows use, and the Python packages selenium and pytest;
/// when one is missing this test fails and says how to install it. It never skips.
@Suite struct BrowserTests {
  static let aptLine = "apt-get install -y chromium chromium-driver fonts-dejavu-core fonts-wqy-zenhei"
  static let pipLine =
    "python3 -m pip install selenium pytest  (Debian's own python3: add --break-system-packages, or use a venv)"

  @Test func htmlDiagramWorksInHeadlessChromium() throws {
    var missing: [String] = []
    if Chromium.path == nil { missing.append("chromium (Debian package chromium)") }
    if Shell.onPath("chromedriver") == nil { missing.append("chromedriver (Debian package chromium-driver)") }
    let python = try Shell.run(["python3", "-c", "import selenium, pytest"])
    if python.status != 0 {
      let reason = python.output.split(separator: "\n").last.map(String.init) ?? "python3 failed"
      missing.append("the Python packages selenium and pytest (\(reason))")
    }
    guard missing.isEmpty else {
      Issue.record(
        """
        The browser tests cannot run; missing: \(missing.joined(separator: "; ")).
        Install them with:
          \(BrowserTests.aptLine)
          \(BrowserTests.pipLine)
        """)
      return
    }
    let flowrun = try #require(CLI.executable, "the flowrun executable was not built")
    let result = try Shell.run(
      ["python3", "-m", "pytest", "Tests/Browser", "-q"],
      environment: ["FLOWRUN_BIN": flowrun.path, "PYTHONDONTWRITEBYTECODE": "1"])
    #expect(
      result.status == 0,
      """
      python3 -m pytest Tests/Browser -q exited \(result.status) (pages and screenshots in .build/browser):
      \(result.output)
      """)
  }
}
