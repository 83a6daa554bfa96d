import Foundation

/// One filter of a thumbor URL's `filters:` part: `blur(3,1.5)` is `blur` with `3` and `1.5`.
struct ThumborFilter: Hashable {
    /// The filter's name: letters, digits and `_`.
    let name: String
    /// The comma-separated arguments, spaces around them removed.
    let arguments: [Substring]

    /// The filters `list` writes, `name(arguments):name(arguments)…`, at most `limit` of them.
    /// An argument may hold brackets and parentheses of its own (`curve([(0,0),(255,255)],…)`):
    /// the filter ends at the parenthesis matching its opening one, and only commas outside
    /// any inner bracket separate arguments.
    static func list(_ list: String, limit: Int) throws(ProcessingURLError) -> [ThumborFilter] {
        var rest = Substring(list), filters: [ThumborFilter] = []
        while !rest.isEmpty {
            guard filters.count < limit else { throw .tooManyOptions(limit: limit) }
            guard let open = rest.firstIndex(of: "("), case let name = rest[..<open], !name.isEmpty, name.utf8.allSatisfy(isNameByte),
                  let (close, commas) = closing(rest, from: open) else {
                throw .invalidArgument(option: "filters", reason: "\"\(ProcessingURLError.quoting(rest))\" is not name(arguments)")
            }
            // Each argument lies between two boundaries: the parentheses and the commas between them.
            let boundaries = [open] + commas + [close]
            let arguments = rest.index(after: open) == close ? [] : zip(boundaries, boundaries.dropFirst()).map {
                Substring(rest[rest.index(after: $0)..<$1].trimmingCharacters(in: .whitespaces))
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

    /// The parenthesis closing the one at `open` in `text`, and the commas between them outside
    /// any inner bracket or parenthesis; nil when brackets do not match.
    private static func closing(_ text: Substring, from open: Substring.Index) -> (Substring.Index, [Substring.Index])? {
        var closers: [Character] = [], commas: [Substring.Index] = []
        for index in text[open...].indices {
            switch text[index] {
            case "(": closers.append(")")
            case "[": closers.append("]")
            case ")", "]":
                guard closers.popLast() == text[index] else { return nil }
                if closers.isEmpty { return (index, commas) }
            case "," where closers.count == 1: commas.append(index)
            default: break
            }
        }
        return nil
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"): true
        default: false
        }
    }
}
