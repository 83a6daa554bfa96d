/// Which URL forms a server answers (`webimage serve --url-format`).
public enum ServedURLFormat: String, Sendable, Hashable, CaseIterable {
    /// imgproxy's form only: every path is read as imgproxy's.
    case imgproxy
    /// thumbor's form only: every path is read as thumbor's, its first segment the signature.
    case thumbor
    /// Both, told apart by the first segment (see ``ProcessingURLRouter``).
    case both
}
