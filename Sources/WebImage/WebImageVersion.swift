/// The version of the WebImage library, as it names itself to servers (`User-Agent`).
public enum WebImageVersion {
    /// The version string, `major.minor.patch`.
    public static let string = "0.1.0"
}
