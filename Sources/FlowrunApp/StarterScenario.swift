import FlowrunReport
import Foundation

/// The commented starter scenario that `flowrun init` writes: the login button of the spec in
/// miniature, passing, and valid against `schemas/flowrun-scenario.schema.json`.
public enum StarterScenario {
  /// The schema's path inside a flowrun checkout.
  public static let schemaPath = FlowrunCheckout.schemaPath

  /// The starter text; its first line attaches `schema` (a path relative to the file, an
  /// absolute path or a URL) for editors that use yaml-language-server, or says how to attach
  /// one when there is none.
  public static func text(schema: String?) -> String {
    guard let schema else {
      return
        "# (no scenario schema found: attach one with `# yaml-language-server: $schema=PATH`, README: Editor support)\n"
        + body
    }
    return "# yaml-language-server: $schema=\(schema)\n" + body
  }

  /// The schema reference for a scenario written at `path`: the relative path to
  /// `schemas/flowrun-scenario.schema.json` in the nearest directory above it that has one (a
  /// flowrun checkout, or a project that vendors the schema), else the absolute path of the
  /// schema in `checkout` (by default the checkout this flowrun was built in), else nil.
  public static func schemaReference(forFileAt path: String, checkout: URL? = FlowrunCheckout.root()) -> String? {
    let directory = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent()
    if let root = FlowrunCheckout.directory(above: directory, holding: schemaPath) {
      return relativePath(from: directory, to: root.appendingPathComponent(schemaPath))
    }
    return checkout.map { $0.appendingPathComponent(schemaPath).standardizedFileURL.path }
  }

  /// The path of `target` relative to the directory `base` (both absolute).
  static func relativePath(from base: URL, to target: URL) -> String {
    let from = base.standardizedFileURL.pathComponents
    let to = target.standardizedFileURL.pathComponents
    var common = 0
    while common < from.count, common < to.count, from[common] == to[common] { common += 1 }
    let up = Array(repeating: "..", count: from.count - common)
    return (up + to[common...]).joined(separator: "/")
  }

  private static let body = #"""
    #
    # A flowrun scenario: a view model declared in YAML, replayed in virtual time, and compared
    # with marble expectations. Run it with `flowrun <this file>`, validate it with `flowrun check`.
    #
    # Marbles: each character is one frame (one `tick` of real time). `-` is a frame where
    # nothing happens, a letter is a value from `values`, `|` completes, `#` fails, `(ab)` puts
    # several events in one frame and `^` marks a subscription.
    flowrun: 1
    name: Login button enables once both fields have text
    description: |
      RAC(self.loginButton, enabled) = [RACSignal combineLatest:@[RACObserve(vm, account),
      RACObserve(vm, password)] reduce:^(NSString *a, NSString *p){ return @(a.length && p.length); }];
    tags: [starter]
    tick: 100ms                 # one frame is 100 ms of real time

    values:                     # the legend shared by every marble in this file
      a: "1"
      b: "123"
      t: true
      f: false

    signals:
      # What the user types: hot sources, like text fields. `a` at frame 1, `b` at frame 5.
      accountText:  { hot: "-a---b----" }
      passwordText: { hot: "---b------" }
      # A signal is a list of steps, read top to bottom: a source, then operators.
      loginEnabled:
        - combineLatest: [vm.account, vm.password]     # $0 and $1 in the next expression
        - map: '($0 ?? "").count > 0 && ($1 ?? "").count > 0'

    properties:
      # RAC(vm, account) = accountText: a property bound to a signal. Reading `vm.account` as a
      # signal is RACObserve: its current value first (null here), then every change.
      vm.account: accountText
      vm.password: passwordText
      loginButton.enabled: loginEnabled

    expect:
      # The button's value at frame 0 and every set after it: false, false again when the
      # account arrives (KVO does not deduplicate), true at 3 and again at 5.
      loginButton.enabled: "ff-t-t----"
      # The text field was subscribed once, at frame 0, and never unsubscribed.
      accountText.subscriptions: "^---------"

    """#
}
