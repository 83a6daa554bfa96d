import Foundation

/// What WebImage reads of an ICC profile itself: the header's colour space and the `desc`
/// tag, with every offset and length checked against the bytes. The colour engine (lcms2, in
/// WebImageCodecs) reads the rest when it converts pixels.
struct ICCProfileContents {
    /// The header is 128 bytes, followed by the tag count.
    static let headerSize = 128
    /// The longest description kept, in characters; longer ones are cut.
    static let maximumDescriptionLength = 256

    let colorSpace: ColorProfile.ColorSpace
    let description: String?

    /// Parses `data`; throws ``ColorProfileError/malformed(_:)`` for a bad header or tag table.
    init(_ data: Data) throws(ColorProfileError) {
        let parsed = data.withUnsafeBytes { bytes -> Result<(ColorProfile.ColorSpace, String?), ColorProfileError> in
            do throws(ColorProfileError) {
                return .success(try Self.parse(bytes))
            } catch {
                return .failure(error)
            }
        }
        (colorSpace, description) = try parsed.get()
    }

    private static func parse(_ file: UnsafeRawBufferPointer) throws(ColorProfileError) -> (ColorProfile.ColorSpace, String?) {
        guard file.count >= headerSize + 4 else {
            throw .malformed("\(file.count) bytes is shorter than an ICC header and tag count")
        }
        guard file.uint32(at: 36) == 0x6163_7370 else {  // 'acsp'
            throw .malformed("no 'acsp' signature in the header")
        }
        // As lcms2 does: the header's size wins when it is the smaller, the bytes otherwise.
        let declared = Int(file.uint32(at: 0))
        guard declared >= headerSize + 4 else { throw .malformed("the header states a size of \(declared) bytes") }
        let bytes = UnsafeRawBufferPointer(rebasing: file.prefix(declared))
        let tagCount = Int(bytes.uint32(at: headerSize))
        guard tagCount <= (bytes.count - headerSize - 4) / 12 else {
            throw .malformed("the tag table of \(tagCount) tags runs past the end of the profile")
        }
        var description: String?
        for index in 0..<tagCount {
            let entry = headerSize + 4 + index * 12
            guard bytes.uint32(at: entry) == 0x6465_7363 else { continue }  // 'desc'
            let offset = Int(bytes.uint32(at: entry + 4)), size = Int(bytes.uint32(at: entry + 8))
            guard offset <= bytes.count, size <= bytes.count - offset else {
                throw .malformed("the 'desc' tag lies outside the profile")
            }
            description = Self.description(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + size]))
            break
        }
        return (ColorProfile.ColorSpace(signature: bytes.uint32(at: 16)), description)
    }

    /// The text of a `desc` tag of type `desc` (ICC v2 ASCII), `mluc` (ICC v4, UTF-16, the
    /// English record preferred) or `text`; nil for another type or an empty text.
    private static func description(_ tag: UnsafeRawBufferPointer) -> String? {
        guard tag.count >= 12 else { return nil }
        let text: String
        switch tag.uint32(at: 0) {
        case 0x6465_7363:  // 'desc': count (with the NUL), then ASCII
            let count = min(Int(tag.uint32(at: 8)), tag.count - 12)
            text = String(decoding: tag[12..<12 + count].prefix { $0 != 0 }, as: UTF8.self)
        case 0x7465_7874:  // 'text': ASCII to the end
            text = String(decoding: tag[8...].prefix { $0 != 0 }, as: UTF8.self)
        case 0x6D6C_7563:  // 'mluc'
            guard let decoded = localizedText(tag) else { return nil }
            text = decoded
        default:
            return nil
        }
        let cleaned = String(String.UnicodeScalarView(text.unicodeScalars.filter {
            $0.properties.generalCategory != .control
        })).trimmingCharacters(in: .whitespaces)
        return cleaned.isEmpty ? nil : String(cleaned.prefix(maximumDescriptionLength))
    }

    /// The English (else the first) record of a `mluc` tag, decoded from UTF-16BE.
    private static func localizedText(_ tag: UnsafeRawBufferPointer) -> String? {
        guard tag.count >= 16 else { return nil }
        let records = Int(tag.uint32(at: 8)), recordSize = Int(tag.uint32(at: 12))
        guard records > 0, recordSize >= 12, records <= (tag.count - 16) / recordSize else { return nil }
        var chosen = 16
        for index in 0..<records where tag.uint16(at: 16 + index * recordSize) == 0x656E {  // 'en'
            chosen = 16 + index * recordSize
            break
        }
        let length = Int(tag.uint32(at: chosen + 4)), offset = Int(tag.uint32(at: chosen + 8))
        guard offset <= tag.count, length <= tag.count - offset else { return nil }
        let units = stride(from: offset, to: offset + length - 1, by: 2).map { tag.uint16(at: $0) }
        return String(decoding: units.prefix { $0 != 0 }, as: UTF16.self)
    }

    /// The four ASCII letters of an ICC signature, trailing spaces dropped (`"Lab"`).
    static func text(signature: UInt32) -> String {
        let letters = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: signature >> $0) }
        let printable = letters.map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }
        return String(decoding: printable, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }
}

extension UnsafeRawBufferPointer {
    /// The big-endian 32-bit number at `offset`; the caller checked that four bytes are there.
    fileprivate func uint32(at offset: Int) -> UInt32 {
        UInt32(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The big-endian 16-bit number at `offset`; the caller checked that two bytes are there.
    fileprivate func uint16(at offset: Int) -> UInt16 {
        UInt16(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }
}
