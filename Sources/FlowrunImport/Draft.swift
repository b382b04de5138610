/// A view model read from Swift source, as the scenario draft will say it.
struct Draft {
  /// One step of a signal: its YAML key and value, any extra keys, and where it came from.
  struct Step {
    var key: String
    /// The step's value as YAML (`300ms`, `vm.password`, `'$0 > 0'`); nil for a bare step.
    var value: String?
    /// Extra keys, in order (`seed: 0`, `latest: true`, `with: outer`).
    var extras: [(key: String, value: String)] = []
    /// The Swift file and line (`SearchViewModel.swift:27`) and the calls it stands for.
    var origin: String
    /// What is left to fill in, when the importer could not read the call.
    var placeholder: String?
    /// A template: the steps of a signal made per value (`flatMapLatest`), indented under the key.
    var template: [Step] = []
  }

  /// One chain: a named signal (or a command's work), with what was recognised in it.
  struct Chain {
    var name: String
    var steps: [Step]
    var recognised: [String] = []
    /// Calls the importer could not read, with their place (`map at Login.swift:40`).
    var unrecognised: [String] = []
    /// The chain is an output of the view model: it gets an expectation.
    var isOutput = false
    /// The chain is a command's work (`commands:`), not a signal.
    var isCommand = false
    /// A command's `guard`, which the draft leaves for its `enabled:`.
    var enabledPlaceholder: String?
    /// A command's `enabled:` signal (RxSwift Action's `enabledIf:`, a `guard` read).
    var enabled: String?
    /// The Swift type of a command's input (its method's parameter), nil without one.
    var inputType: String?
    /// The name of that parameter (`password`), which names its sample value.
    var inputName: String?
    /// The command is an RxSwift `Action` member (`execute(_:)`), not a method.
    var isAction = false
    /// The command rejects an execute while it runs: its `guard` checks its own executing flag
    /// (`!isLoading`), or it is an `Action`. The timeline executes it a second time in its
    /// frame, so a guard that lets it through (`hasNextPage || !isLoading`) shows in the run.
    var rejectsWhileExecuting = false
    var origin: String

    /// The chain as a placeholder that loads (a source that never sends), its calls listed as
    /// not read: the last resort when its drafted steps do not load.
    mutating func placeholder(because message: String) {
      unrecognised = recognised.map { "\($0) at \(origin)" } + unrecognised
      recognised = []
      let said = steps.map(\.key).joined(separator: ", ")
      steps = [
        Step(
          key: "never", value: "true", origin: origin,
          placeholder: "the steps drafted here (\(said)) did not load: \(message)")
      ]
      enabled = nil
    }
  }

  /// A named piece of state: a property, a subject, or a relay.
  struct State {
    enum Kind {
      case property(initial: String)
      case subject(String)
    }

    var name: String
    var kind: Kind
    var swiftType: String?
    /// The view model receives it from outside (a text field, a tap): the timeline drives it.
    var isInput: Bool
    /// An output to expect (a property a chain assigns).
    var isOutput: Bool
    var origin: String
    /// The signal the property is bound to (`from:`), when a loop of async code assigns it.
    var boundTo: String? = nil
    /// How the binding test drives it when the view model hides it: the method that sends to
    /// it (`viewModel.emailChanged(value)`), or the test's own subject given to `init`.
    var drivenBy: String? = nil
  }

  /// An `observed:` property: what Observation gives over the stored properties it reads.
  struct Observed {
    var name: String
    var reads: [String]
    var origin: String
  }

  /// An effect of a command: an action for each value (or each `executing` change).
  struct Effect {
    /// `login.values`, `login.executing`.
    var on: String
    /// `set: vm.user`, `set: { vm.user: ~ }`.
    var action: String
    var origin: String
    /// The property the action sets (`vm.user`), when it sets one.
    var target: String? = nil
    /// An expression of the value to set instead of the value itself (`on:` becomes the
    /// signal mapped: `[from: load.values, map: '$0.count >= 3']`).
    var map: String? = nil
  }

  struct Service {
    var name: String
    var response: String
    var shape: ServiceShape?
    var origin: String
    /// A Moya target's case the code requests (`provider.rx.request(.login(a, b))`: `login`, 2
    /// associated values): the binding test answers the provider's requests of that case.
    var moyaCase: (name: String, arity: Int)? = nil
  }

  var viewModel: String
  var file: String
  var library: String?
  var tick: String = "100ms"
  var states: [State] = []
  var chains: [Chain] = []
  var services: [Service] = []
  var observed: [Observed] = []
  var effects: [Effect] = []
  /// The view model is `@Observable`: its outputs are expected through `observed:` properties.
  var observable = false
  /// Methods and side effects the draft does not read, with their place (`submit (calls
  /// 'auth.signIn') at Login.swift:30`): listed in the draft and the summary, counted as calls.
  var unread: [String] = []
  /// Methods read outside the chains (an input sent through `emailChanged(_:)`), counted as
  /// calls read.
  var readOutside: [String] = []
  /// The durations the chains use, in milliseconds (the tick divides them all).
  var durations: [Int] = []
}
