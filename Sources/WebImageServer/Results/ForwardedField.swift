/// One field of a client's request sent on to a source's origin as it came (see
/// ``SourceConditions/forwarded``).
public struct ForwardedField: Sendable, Hashable {
    /// The field's name.
    public var name: String
    /// Its value.
    public var value: String

    /// The field `name: value`.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
