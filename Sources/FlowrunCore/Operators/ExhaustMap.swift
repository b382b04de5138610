/// `exhaustMap: template`: each outer value becomes an inner signal, unless an inner is still
/// running, in which case the value is dropped.
///
/// ```
/// outer:        -a-b---c---|
/// inner:        --v--|
/// exhaustMap:   ---a-----c-|   (b arrived while a's inner ran)
/// ```
extension Source {
  public func exhaustMap(_ project: @escaping Projection) -> any Source {
    OperatorSource(self) {
      FlattenOuter(flatten: Flatten(observer: $0, concurrent: 1), project: project, exhausting: true)
    }
  }
}
