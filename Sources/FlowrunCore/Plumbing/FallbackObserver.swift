/// Forwards the events of the signal an operator switched to (`catch`'s recovery, `timeout`'s
/// fallback) downstream until it terminates; `link` is that signal's subscription.
final class FallbackObserver: Observer {
  let downstream: any Observer
  let link: UpstreamLink

  init(downstream: any Observer, link: UpstreamLink) {
    self.downstream = downstream
    self.link = link
  }

  func receive(_ event: Event) {
    link.forward(event, to: downstream)
  }
}
