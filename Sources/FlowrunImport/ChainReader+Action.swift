import FlowrunDiagnostics
import Foundation
import SwiftSyntax

/// RxSwift's Action library: `Action<Input, Element>(enabledIf:workFactory:)` and `CocoaAction`
/// are commands; their `elements`, `executing`, `errors` and `enabled` are the command's signals.
extension ChainReader {
  /// Whether a member is an `Action` (`Action<String, User>`, `CocoaAction`).
  func isAction(_ name: String) -> Bool {
    guard let type = decl.member(name)?.type else { return false }
    return type == "CocoaAction" || type.hasPrefix("Action<")
  }

  /// `loginAction.elements` → `loginAction.values` (and `executing`, `errors`, `enabled`).
  func actionSignal(_ access: MemberAccessExprSyntax) -> String? {
    guard let base = access.base else { return nil }
    let owner = base.trimmedDescription.replacingOccurrences(of: "self.", with: "")
    guard isAction(owner) else { return nil }
    switch access.declName.baseName.text {
    case "elements": return "\(owner).values"
    case "executing": return "\(owner).executing"
    case "errors", "underlyingError": return "\(owner).errors"
    case "enabled": return "\(owner).enabled"
    default: return nil
    }
  }

  /// `loginAction = Action(enabledIf: isValid) { password in api.login(password) }` in the
  /// initializer: the command `loginAction`, enabled by the signal, whose work is the closure's
  /// chain with `input` for its parameter. False for any other statement.
  mutating func readActionStatement(_ expr: ExprSyntax) -> Bool {
    guard let sequence = expr.as(SequenceExprSyntax.self), sequence.elements.count == 3,
      sequence.elements.dropFirst().first?.is(AssignmentExprSyntax.self) == true,
      let target = sequence.elements.first.flatMap({ memberName($0) }), isAction(target),
      let call = sequence.elements.last?.as(FunctionCallExprSyntax.self)
    else { return false }
    let type = call.calledExpression.trimmedDescription
    guard type == "Action" || type == "CocoaAction" || type.hasPrefix("Action<") else { return false }
    let saved = current
    current = Draft.Chain(name: target, steps: [], origin: file.cite(expr))
    current.isCommand = true
    current.recognised.append(type == "CocoaAction" ? "CocoaAction" : "Action")
    // `Action<String, User>`: its input type, the first generic argument (`Void`: none).
    let written = type.hasPrefix("Action<") ? type : decl.member(target)?.type ?? ""
    if written.hasPrefix("Action<"), let input = DeclarationReader.genericArguments(written).first,
      !["Void", "()"].contains(input)
    {
      current.inputType = input
    }
    current.isAction = true
    current.rejectsWhileExecuting = true
    if let enabled = call.arguments.first(where: { $0.label?.text == "enabledIf" })?.expression {
      current.enabled = signalName(of: enabled)
    }
    let closure =
      call.trailingClosure
      ?? call.arguments.first(where: { $0.label?.text == "workFactory" })?.expression.as(ClosureExprSyntax.self)
    templateInput = "input"
    let work = closure.flatMap { serviceTemplate($0) }
    templateInput = "outer"
    if let work {
      current.steps = work
    } else {
      current.unrecognised.append("workFactory at \(file.cite(call))")
      diagnostics.append(
        file.diagnostic(.warning, "the draft cannot read the work of '\(target)': left to fill in", at: call))
      current.steps = [
        Draft.Step(key: "never", value: "true", origin: file.cite(call), placeholder: "the work of \(target)")
      ]
    }
    draft.chains.append(current)
    current = saved
    return true
  }
}
