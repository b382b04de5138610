import FlowrunReport
public import FlowrunScenario
import Foundation

/// The commented starter scenario that `flowrun init` writes: the login button of the spec in
/// miniature, passing, and valid against `schemas/flowrun-scenario.schema.json`.
public enum StarterScenario {
  /// The schema's path inside a flowrun checkout.
  public static let schemaPath = FlowrunCheckout.schemaPath

  /// The starter text; its first line attaches `schema` (a path relative to the file, an
  /// absolute path or a URL) for editors that use yaml-language-server, or says how to attach
  /// one when there is none.
  ///
  /// With `library`, the starter is written in that library's words (libraries.md): it says
  /// `library:`, its description is the view model in that library's code, and its chain uses
  /// the library's operator names.
  public static func text(schema: String?, library: Library? = nil) -> String {
    let body = body(library)
    guard let schema else {
      return
        "# (no scenario schema found: attach one with `# yaml-language-server: $schema=PATH`, README: Editor support)\n"
        + body
    }
    return "# yaml-language-server: $schema=\(schema)\n" + body
  }

  /// The starter's text for `library` (nil: the default catalogue, without `library:`).
  static func body(_ library: Library?) -> String {
    guard let library else { return body }
    let words = LibraryStarter.of(library)
    var text = body
    text = text.replacing(
      "flowrun: 1\n",
      with:
        "flowrun: 1\nlibrary: \(library.rawValue)          # operator names and meanings as \(library.title) has them\n"
    )
    text = text.replacing(defaultDescription, with: words.description)
    text = text.replacing(defaultChain, with: words.chain)
    text = text.replacing(defaultExpectation, with: words.expectation)
    if let properties = words.properties { text = text.replacing(defaultProperties, with: properties) }
    return text
  }

  private static let defaultDescription = #"""
      RAC(self.loginButton, enabled) = [RACSignal combineLatest:@[RACObserve(vm, account),
      RACObserve(vm, password)] reduce:^(NSString *a, NSString *p){ return @(a.length && p.length); }];
    """#

  private static let defaultChain = #"""
        - combineLatest: [vm.account, vm.password]     # $0 and $1 in the next expression
        - map: '($0 ?? "").count > 0 && ($1 ?? "").count > 0'
    """#

  private static let defaultProperties = #"""
      # RAC(vm, account) = accountText: a property bound to a signal. Reading `vm.account` as a
      # signal is RACObserve: its current value first (null here), then every change.
    """#

  private static let defaultExpectation = #"""
      # The button's value at frame 0 and every set after it: false, false again when the
      # account arrives (KVO does not deduplicate), true at 3 and again at 5.
      loginButton.enabled: "ff-t-t----"
    """#

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

/// What the starter says in each library's words.
struct LibraryStarter {
  var description: String
  var chain: String
  var expectation: String
  /// The comment of `properties:`, when the library's words differ from RAC2's.
  var properties: String? = nil

  static func of(_ library: Library) -> LibraryStarter {
    switch library {
    case .rac2:
      LibraryStarter(
        description: #"""
            RAC(self.loginButton, enabled) = [RACSignal combineLatest:@[RACObserve(vm, account),
            RACObserve(vm, password)] reduce:^(NSString *a, NSString *p){ return @(a.length && p.length); }];
          """#,
        chain: #"""
              - combineLatest: [vm.account, vm.password]
              - reduceEach: '($0 ?? "").count > 0 && ($1 ?? "").count > 0'   # RAC2's reduce: block
          """#,
        expectation: #"""
            # The button's value at frame 0 and every set after it: false, false again when the
            # account arrives (KVO does not deduplicate), true at 3 and again at 5.
            loginButton.enabled: "ff-t-t----"
          """#)
    case .rxswift:
      LibraryStarter(
        description: #"""
            Observable.combineLatest(vm.account, vm.password) { !$0.isEmpty && !$1.isEmpty }
              .distinctUntilChanged()
              .bind(to: loginButton.rx.isEnabled)
          """#,
        chain: #"""
              - combineLatest: [vm.account, vm.password]     # $0 and $1 in the next expression
              - map: '($0 ?? "").count > 0 && ($1 ?? "").count > 0'
              - distinctUntilChanged                         # RxSwift's distinctUntilChanged()
          """#,
        expectation: #"""
            # The button's value at frame 0 and every change after it: false, then true at 3
            # (distinctUntilChanged drops the repeats).
            loginButton.enabled: "f--t------"
          """#,
        properties: #"""
            # A BehaviorRelay bound to a signal (accountText.bind(to: vm.account)); reading
            # `vm.account` as a signal is the relay: its current value first (null here), then every change.
          """#)
    case .combine:
      LibraryStarter(
        description: #"""
            Publishers.CombineLatest(vm.$account, vm.$password)
              .map { !$0.isEmpty && !$1.isEmpty }
              .removeDuplicates()
              .assign(to: \.isEnabled, on: loginButton)
          """#,
        chain: #"""
              - combineLatest: [vm.account, vm.password]     # $0 and $1 in the next expression
              - map: '($0 ?? "").count > 0 && ($1 ?? "").count > 0'
              - removeDuplicates                             # Combine's removeDuplicates()
          """#,
        expectation: #"""
            # The button's value at frame 0 and every change after it: false, then true at 3
            # (removeDuplicates drops the repeats).
            loginButton.enabled: "f--t------"
          """#,
        properties: #"""
            # @Published var account, assigned from a signal; reading `vm.account` as a signal is
            # vm.$account: its current value first (null here), then every change (before it is stored).
          """#)
    case .async:
      LibraryStarter(
        description: #"""
            for await enabled in combineLatest(vm.accountValues, vm.passwordValues)
              .map({ !$0.isEmpty && !$1.isEmpty }).removeDuplicates() { loginButton.isEnabled = enabled }
          """#,
        chain: #"""
              - combineLatest: [vm.account, vm.password]     # swift-async-algorithms' combineLatest
              - map: '($0 ?? "").count > 0 && ($1 ?? "").count > 0'
              - removeDuplicates                             # swift-async-algorithms' removeDuplicates()
          """#,
        expectation: #"""
            # The button's value at frame 0 and every change after it: false, then true at 3
            # (removeDuplicates drops the repeats).
            loginButton.enabled: "f--t------"
          """#,
        properties: #"""
            # A property fed by a signal; reading `vm.account` as an AsyncSequence gives its
            # current value first (null here), then every change.
          """#)
    case .rxjs:
      LibraryStarter(
        description: #"""
            combineLatest([account$, password$]).pipe(
              map(([a, p]) => (a ?? "").length > 0 && (p ?? "").length > 0),
              distinctUntilChanged())
          """#,
        chain: #"""
              - combineLatest: [vm.account, vm.password]     # $0 and $1 in the next expression
              - map: '($0 ?? "").count > 0 && ($1 ?? "").count > 0'
              - distinctUntilChanged                         # RxJS's distinctUntilChanged()
          """#,
        expectation: #"""
            # The button's value at frame 0 and every change after it: false, then true at 3
            # (distinctUntilChanged drops the repeats).
            loginButton.enabled: "f--t------"
          """#,
        properties: #"""
            # A BehaviorSubject fed by a signal; reading `vm.account` as a signal subscribes to
            # it: its current value first (null here), then every change.
          """#)
    }
  }
}
