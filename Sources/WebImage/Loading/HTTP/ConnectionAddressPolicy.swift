/// Chooses the address an ``HTTPImageDownloader`` connects to for a host, or refuses the host:
/// the hook a server needs against server-side request forgery, since AsyncHTTPClient has none
/// at connect time.
///
/// With a policy, the downloader resolves nothing itself: it asks the policy for every host it
/// is about to reach (the first URL and each redirect, which it then follows itself) and
/// connects to exactly the address returned, keeping the host name for the `Host` field, TLS
/// server name indication and certificate verification. A name that resolves to a public
/// address when checked and to a private one a moment later (DNS rebinding) therefore cannot
/// move the connection.
public protocol ConnectionAddressPolicy: Sendable {
    /// The numeric IPv4 or IPv6 address (`93.184.215.14`, `2606:2800::1`) to connect to for
    /// `host` (a name or a numeric address, without brackets). Throws a ``NetworkFailure``,
    /// typically ``NetworkFailure/Reason/refusedAddress(host:why:)`` or
    /// ``NetworkFailure/Reason/hostNotFound(_:)``, to stop the download before it connects.
    func address(connectingTo host: String) async throws(NetworkFailure) -> String
}
