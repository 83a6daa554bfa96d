import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import WebImage

/// The XMP properties a file carries (JPEG's `http://ns.adobe.com/xap/1.0/` APP1 segment,
/// PNG's `XML:com.adobe.xmp` iTXt chunk, WebP's `XMP ` chunk), by namespace prefix, as
/// imgproxy's `/info` reports them: `{"dc": {"creator": ["…"]}, "aux": {"Lens": "…"}}`.
///
/// Properties are the attributes and child elements of each `rdf:Description`; an `rdf:Seq`,
/// `rdf:Bag` or `rdf:Alt` becomes a list of its items; deeper structures are left out. A packet
/// over 1 MiB, or with a document type (XMP has none; entities could expand without bound), is
/// not read.
public struct XMPPacket: Sendable, Equatable {
    /// An XMP value: text, or the items of a list.
    public enum Value: Sendable, Equatable {
        case text(String)
        case list([String])
    }

    /// The properties, by namespace prefix, then by name.
    public var properties: [String: [String: Value]] = [:]

    /// The most bytes of a packet read.
    static let maxBytes = 1 << 20

    /// The packet of `data`, or nil when it has none, or none that can be read.
    public static func find(in data: Data) -> XMPPacket? {
        let packet: [UInt8]? = data.withUnsafeBytes { bytes in
            switch ImageFormat(detecting: data) {
            case .jpeg: EXIFBlock.jpegSegment(0xE1, prefix: Array("http://ns.adobe.com/xap/1.0/\0".utf8), in: bytes)
            case .webp: EXIFBlock.chunk("XMP ", in: bytes, png: false)
            case .png: EXIFBlock.chunk("iTXt", in: bytes, png: true, matching: { $0.starts(with: "XML:com.adobe.xmp\0".utf8) })
                .map { iTXtText($0) }
            default: nil
            }
        }
        guard let packet, packet.count <= maxBytes else { return nil }
        return XMPPacket(xml: packet)
    }

    /// The properties of the packet `xml`; nil when it is not well-formed XML or has a DTD.
    public init?(xml: [UInt8]) {
        let text = String(decoding: xml, as: UTF8.self)
        guard !text.contains("<!DOCTYPE"), !text.contains("<!ENTITY") else { return nil }
        let reader = Reader()
        let parser = XMLParser(data: Data(xml))
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        guard parser.parse() else { return nil }
        properties = reader.properties
        if properties.isEmpty { return nil }
    }

    /// The text of an uncompressed iTXt chunk: after its keyword, flags, language and
    /// translated keyword (compressed XMP, which writers do not use, is left out).
    private static func iTXtText(_ chunk: [UInt8]) -> [UInt8] {
        var fields = 0, at = 0
        guard let keywordEnd = chunk.firstIndex(of: 0), keywordEnd + 2 < chunk.count, chunk[keywordEnd + 1] == 0 else { return [] }
        at = keywordEnd + 3
        while fields < 2, at < chunk.count {
            if chunk[at] == 0 { fields += 1 }
            at += 1
        }
        return Array(chunk[min(at, chunk.count)...])
    }

    /// Collects properties as the parser walks the packet.
    private final class Reader: NSObject, XMLParserDelegate {
        var properties: [String: [String: Value]] = [:]
        private var depth = 0
        private var descriptionDepth: Int?
        private var property: (prefix: String, name: String)?
        private var text = ""
        private var items: [String]?
        private var item: String?

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            depth += 1
            if elementName == "rdf:Description" {
                descriptionDepth = depth
                for (name, value) in attributes {
                    if let (prefix, local) = Self.split(name) { set(.text(value), prefix: prefix, name: local) }
                }
            } else if let descriptionDepth, depth == descriptionDepth + 1, let (prefix, local) = Self.split(elementName) {
                property = (prefix, local)
                text = ""
                items = nil
                if let resource = attributes["rdf:resource"] { text = resource }
            } else if property != nil, elementName == "rdf:Seq" || elementName == "rdf:Bag" || elementName == "rdf:Alt" {
                items = []
            } else if items != nil, elementName == "rdf:li" {
                item = ""
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if item != nil { item? += string } else if property != nil, items == nil { text += string }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            defer { depth -= 1 }
            if elementName == "rdf:li", let done = item {
                items?.append(done.trimmingCharacters(in: .whitespacesAndNewlines))
                item = nil
            } else if let current = property, let descriptionDepth, depth == descriptionDepth + 1 {
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if let items { set(.list(items), prefix: current.prefix, name: current.name) } else if !trimmed.isEmpty {
                    set(.text(trimmed), prefix: current.prefix, name: current.name)
                }
                property = nil
            } else if depth == descriptionDepth {
                descriptionDepth = nil
            }
        }

        private func set(_ value: Value, prefix: String, name: String) {
            properties[prefix, default: [:]][name] = value
        }

        /// `prefix:name` split, unless the prefix is RDF's or XML's own.
        private static func split(_ qualified: String) -> (String, String)? {
            let parts = qualified.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, !["rdf", "xmlns", "xml", "x"].contains(parts[0]) else { return nil }
            return (String(parts[0]), String(parts[1]))
        }
    }
}
