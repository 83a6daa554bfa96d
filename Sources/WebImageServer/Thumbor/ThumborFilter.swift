import Foundation

/// One filter of a thumbor URL's `filters:` part: `blur(3,1.5)` is `blur` with `3` and `1.5`.
struct ThumborFilter: Hashable {
    /// The filter's name: letters, digits and `_`.
    let name: String
    /// The comma-separated arguments, spaces around them removed.
    let arguments: [Substring]

    /// The filters `list` writes, `name(arguments):name(arguments)…`, at most `limit` of them.
    static func list(_ list: String, limit: Int) throws(ProcessingURLError) -> [ThumborFilter] {
        var rest = Substring(list), filters: [ThumborFilter] = []
        while !rest.isEmpty {
            guard filters.count < limit else { throw .tooManyOptions(limit: limit) }
            guard let open = rest.firstIndex(of: "("), let close = rest[open...].firstIndex(of: ")"),
                  case let name = rest[..<open], !name.isEmpty, name.utf8.allSatisfy(isNameByte) else {
                throw .invalidArgument(option: "filters", reason: "\"\(ProcessingURLError.quoting(rest))\" is not name(arguments)")
            }
            let inside = rest[rest.index(after: open)..<close]
            let arguments = inside.isEmpty ? [] : inside.split(separator: ",", omittingEmptySubsequences: false).map {
                Substring($0.trimmingCharacters(in: .whitespaces))
            }
            filters.append(ThumborFilter(name: String(name), arguments: arguments))
            rest = rest[rest.index(after: close)...]
            guard rest.isEmpty || rest.first == ":" else {
                throw .invalidArgument(option: "filters", reason: "filters are separated by \":\"")
            }
            rest = rest.dropFirst()
        }
        return filters
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"): true
        default: false
        }
    }
}
