import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// `SVGSanitizer`'s allow-list on the crafted documents of `Tests/Fixtures/vector/hostile`
/// (each an attack around a blue square) and on documents that try the writer's edges: what a
/// browser could run or fetch is gone, what draws is kept and draws the same.
final class SVGSanitizerTests: XCTestCase {
    private let vector = Fixtures.subset.root.appendingPathComponent("vector")
    private let serving = SVGSanitizer(policy: .serving)
    private let coder = SVGCoder()

    /// The names of the documents in `folder` of `Tests/Fixtures/vector`.
    private func documents(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: vector.appendingPathComponent(folder).path).filter { $0.hasSuffix(".svg") }.sorted()
    }

    private func served(_ svg: String) throws -> String {
        String(decoding: try serving.sanitize(Data(svg.utf8)), as: UTF8.self)
    }

    /// Each hostile document loses every script, handler, foreign element and outside
    /// reference, keeps its square, and is written as a second pass would write it.
    func testHostileDocumentsKeepOnlyWhatDraws() throws {
        let names = try documents(in: "hostile")
        XCTAssertGreaterThanOrEqual(names.count, 5)
        for name in names {
            let data = try Fixtures.data(vector.appendingPathComponent("hostile/\(name)"))
            let served = try serving.sanitize(data)
            let text = String(decoding: served, as: UTF8.self)
            // Where a removal splits a name (`@imp ort "…"`, `u rl(…)`), the address stays as text
            // no browser reads as a URL; anywhere else it must be gone.
            let splits = name == "url_edges.svg"
            for gone in ["foreignObject", "script", "iframe", "<html", "<form", "<embed", " on", "@import", "url(http",
                         "image-set", "xml-stylesheet", "data:image/svg", "target=", "/*"] + (splits ? [] : ["ATTACKER"]) {
                XCTAssertFalse(text.contains(gone), "\(name): \(gone) is gone: \(text)")
            }
            XCTAssertTrue(text.contains(##"fill="#0000ff""##), "\(name): the square is kept: \(text)")
            XCTAssertEqual(try serving.sanitize(served), served, "\(name): a second pass changes nothing")
            XCTAssertEqual(ImageFormat(detecting: served), .svg, name)
        }
        let refs = try served(String(decoding: Fixtures.data(vector.appendingPathComponent("hostile/external_refs.svg")), as: UTF8.self))
        XCTAssertTrue(refs.contains(#"href="data:image/png;base64,iVBOR"#), "a raster data: image stays for a browser: \(refs)")
        XCTAssertTrue(refs.contains(#"filter="url(#f)""#), "fragment references stay: \(refs)")
    }

    /// SMIL stays, but not when it animates `href`, `style`, `xml:base` or a handler, however
    /// the attribute's name is written; the values it sets lose their outside URLs.
    func testAnimationsOfHandlersLinksAndStyleAreDropped() throws {
        let text = try served(#"""
            <svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect id="r" width="4" height="4">\#
            <animate attributeName="x" values="0;1" dur="1s"/><set attributeName=" ONclick " to="alert(1)"/>\#
            <set attributeName="xlink:href" to="x"/><animate attributeName="style" values="a"/><set attributeName="xml:base" to="b"/>\#
            <set attributeName="fill" to="url(https://example.com/p#q)"/></rect></svg>
            """#)
        XCTAssertTrue(text.contains(#"<animate attributeName="x" values="0;1" dur="1s"/>"#), text)
        for gone in ["ONclick", "xlink:href", "\"style\"", "xml:base", "example.com"] {
            XCTAssertFalse(text.contains(gone), "\(gone): \(text)")
        }
        XCTAssertTrue(text.contains(#"<set attributeName="fill" to="none"/>"#), text)
    }

    /// Namespaces cannot smuggle an element or an attribute past the list: only SVG's and
    /// XLink's declarations are kept, elements only with `svg:`, attributes only as `xlink:href`.
    func testNamespacesCannotRenameWhatIsDropped() throws {
        let text = try served(#"""
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:h="http://www.w3.org/1999/xhtml" \#
            xmlns:x="http://www.w3.org/1999/xlink" width="4" height="4"><svg:rect xmlns:svg="http://www.w3.org/2000/svg" width="4"/>\#
            <h:style>@import "https://example.com/a.css";</h:style><g xmlns="http://www.w3.org/1999/xhtml"><rect x:href="javascript:1" \#
            inkscape:label="l" width="2"/></g><a xlink:href="#r" xmlns:xlink="https://example.com/"><rect height="1"/></a></svg>
            """#)
        XCTAssertTrue(text.contains(#"<svg:rect xmlns:svg="http://www.w3.org/2000/svg" width="4"/>"#), text)
        XCTAssertTrue(text.contains(#"<g><rect width="2"/></g>"#), text)
        XCTAssertTrue(text.contains(##"<a xlink:href="#r"><rect height="1"/></a>"##), "a rebinding of xlink is dropped: \(text)")
        for gone in ["xhtml", "xmlns:x=", "h:style", "example.com", "inkscape", "javascript"] {
            XCTAssertFalse(text.contains(gone), "\(gone): \(text)")
        }
    }

    /// Style sheets keep their rules and fragment references; every way to fetch goes, and a
    /// sheet a writer cannot read for certain (a CSS escape, a function taking a URL as a
    /// string) goes whole. A fragment is kept only as `url(#name)`: CSS that a browser would
    /// end elsewhere (a bad URL, a string closed by a line end, a comment) is not kept, and an
    /// element inside a style sheet goes with what it holds, its text after it still rewritten.
    func testStyleSheetsLoseEveryFetch() throws {
        let text = try served(#"""
            <svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><style>@import url(a.css); rect { fill: url(#g); \#
            stroke: url('https://example.com/s#t') } @font-face { src: url(f.woff) }</style>\#
            <style>svg { background: -webkit-image-set("https://example.com/i.png" 1x) }</style>\#
            <style>rect { fill: u\72l(https://example.com/e) }</style>\#
            <rect width="4" height="4" style="fill: url(  &quot;#g&quot; ); cursor: url(c.png)"/></svg>
            """#)
        XCTAssertTrue(text.contains("<style>  rect { fill: url(#g); stroke: none } @font-face { src: none }</style>"), text)
        XCTAssertTrue(text.contains("<style></style><style></style>"), "an image-set and an escape drop their sheets: \(text)")
        XCTAssertTrue(text.contains(##"style="fill: url(  &quot;#g&quot; ); cursor: none""##), text)
        XCTAssertFalse(text.contains("example.com"), text)
        let tricks = try served(#"""
            <svg xmlns="http://www.w3.org/2000/svg"><style>/*url(#*/@import url(https://example.com/a.css); a { b: url(#ok) }</style>\#
            <style>r { fill: url(#');m:url(https://example.com/b);x:') }</style><style>r { fill: url('#a
            );m:url(https://example.com/c);x:') }</style><style><g></g>@import url(https://example.com/d);<g/>\#
            <![CDATA[@import url(https://example.com/e);]]></style></svg>
            """#)
        XCTAssertFalse(tricks.contains("example.com"), tricks)
        XCTAssertFalse(tricks.contains("<g"), "no element inside a style sheet: \(tricks)")
        XCTAssertTrue(tricks.contains("a { b: none }"), "a fragment only where it names a paint or a filter: \(tricks)")
        // What a removal leaves must not join into a new url( or @import.
        let joined = try served(#"""
            <svg xmlns="http://www.w3.org/2000/svg"><style>@imp@import;ort "https://example.com/f.css"; r { fill: url(#g) }</style>\#
            <rect style="cursor:u@import;rl(https://example.com/g.png),auto;fill:url(#g)" fill="u@import;rl(https://example.com/h)"/></svg>
            """#)
        XCTAssertFalse(joined.lowercased().contains("url(https"), joined)
        XCTAssertFalse(joined.lowercased().contains("@import"), joined)
    }

    /// The third review's shapes: a `;` or `:` inside a string or brackets does not start a
    /// declaration (`var(--e, ";fill:") url(#r)` is no fill); SMIL animates only attributes
    /// the writer keeps (not `target`); an `href` keeps a fragment only as `#name`; an id's
    /// first element is the one counted, as browsers draw it (a nested decoy with the same id
    /// cannot hide a `<use>` bomb).
    func testStringsBracketsTargetsAndDuplicateIDsCannotFoolTheWriter() throws {
        let text = try served(#"""
            <svg xmlns="http://www.w3.org/2000/svg"><style>svg{--e: ;background-image:var(--e,";fill:") url(#r)} \#
            @font-face{font-family:q;src:local(";fill:"),url(#r)} r{fill:url(#g)}</style>\#
            <a href="#r"><set attributeName="target" to="_top"/><set attributeName="fill" to="red"/><rect id="r"/></a>\#
            <use href="#fff url(http://example.com/x)"/><rect style="cursor:var(--e,';fill:') url(#r),auto"/></svg>
            """#)
        XCTAssertFalse(text.contains("url(#r)"), text)
        XCTAssertTrue(text.contains("r{fill:url(#g)}"), text)
        XCTAssertFalse(text.contains("target"), text)
        XCTAssertTrue(text.contains(#"<set attributeName="fill" to="red"/>"#), text)
        XCTAssertFalse(text.contains("example.com"), text)
        var bomb = #"<svg xmlns="http://www.w3.org/2000/svg"><defs><g id="L0"><rect/></g>"#
        for level in 1...7 {
            bomb += #"<g id="L\#(level)"><g id="L\#(level)"/>"# + String(repeating: ##"<use href="#L\##(level - 1)"/>"##, count: 10) + "</g>"
        }
        bomb += ##"</defs><use href="#L7"/></svg>"##
        XCTAssertThrowsError(try serving.sanitize(Data(bomb.utf8))) {
            XCTAssertTrue("\($0)".contains("elements drawn through <use>"), "\($0)")
        }
    }

    /// The fourth review's shapes: an id claimed by an element the writer removes (inside
    /// `<metadata>`, or as `xml:id`) and a `<use>` whose `xlink:href` names a cheap target
    /// while its `href` names the bomb are counted as browsers and librsvg draw them; a
    /// convolution kernel over 400 values (which aborts librsvg 2.54) and turbulence of more
    /// than 16 octaves are refused.
    func testDecoysAndCostlyPrimitivesAreCountedAsTheyDraw() throws {
        func bomb(_ level: (Int) -> String) -> String {
            var text = ##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><defs><g id="L0"><rect/></g>"##
            for index in 1...7 { text += level(index) }
            return text + ##"</defs><use href="#L7"/></svg>"##
        }
        let uses = { (index: Int, use: String) in String(repeating: use, count: 10) }
        let removedDecoys = bomb { index in
            ##"<metadata><g id="L\##(index)"/></metadata><g id="L\##(index)">"## + uses(index, ##"<use href="#L\##(index - 1)"/>"##) + "</g>"
        }
        let xmlID = bomb { index in
            ##"<rect xml:id="L\##(index)"/><g id="L\##(index)">"## + uses(index, ##"<use href="#L\##(index - 1)"/>"##) + "</g>"
        }
        let bothLinks = bomb { index in
            ##"<g id="L\##(index)">"## + uses(index, ##"<use xlink:href="#L0" href="#L\##(index - 1)"/>"##) + "</g>"
        }
        for (name, svg) in [("removed decoys", removedDecoys), ("xml:id", xmlID), ("href and xlink:href", bothLinks)] {
            XCTAssertThrowsError(try serving.sanitize(Data(svg.utf8)), name) {
                XCTAssertTrue("\($0)".contains("elements drawn through <use>"), "\(name): \($0)")
            }
        }
        let open = #"<svg xmlns="http://www.w3.org/2000/svg"><filter id="f">"#
        let kernel = open + #"<feConvolveMatrix order="21" kernelMatrix=""# + String(repeating: "1 ", count: 441) + #""/></filter></svg>"#
        let order = open + #"<feConvolveMatrix order="2 201"/></filter></svg>"#
        let octaves = open + #"<feTurbulence baseFrequency="0.1" numOctaves="100000"/></filter></svg>"#
        for svg in [kernel, order, octaves] {
            XCTAssertThrowsError(try SVGCoder().decode(Data(svg.utf8), options: ImageDecodeOptions())) {
                XCTAssertTrue("\($0)".contains("kernel over 400") || "\($0)".contains("more than 16 octaves"), "\($0)")
            }
        }
        let fine = open + #"<feConvolveMatrix order="20" kernelMatrix=""# + String(repeating: "1 ", count: 400) + #""/></filter></svg>"#
        XCTAssertNoThrow(try serving.sanitize(Data(fine.utf8)), "20 × 20 is within the bound")
    }

    /// A fragment makes a browser fetch the document again where an image or a cursor is
    /// drawn from it: kept only where it names a paint server, a filter, a clip, a mask or a
    /// marker; `<image>` keeps a raster `data:` URL only, read as a browser reads a URL.
    func testFragmentsAreKeptOnlyWhereTheyNameWhatTheDocumentDraws() throws {
        let text = try served(#"""
            <svg xmlns="http://www.w3.org/2000/svg"><style>svg { background-image: url(#r); cursor: url(#r), auto } \#
            rect { fill: url(#g); clip-path: url(#c) }</style><image href="#r"/><image href="d ata:image/png,/../x?y=1"/>\#
            <image href=" data:image/png;base64,AAAA "/><rect cursor="url(#r), auto" fill="url(#g)" filter="url(#f)" \#
            style="mask: url(#m); cursor: url(#r)"/><use href="#g"/><feImage href="#f"/></svg>
            """#)
        for kept in ["fill: url(#g); clip-path: url(#c)", ##"fill="url(#g)""##, ##"filter="url(#f)""##, "mask: url(#m); cursor: none",
                     ##"<use href="#g"/>"##, ##"<feImage href="#f"/>"##, ##"<image href=" data:image/png;base64,AAAA "/>"##] {
            XCTAssertTrue(text.contains(kept), "\(kept): \(text)")
        }
        for gone in ["background-image: url(", "cursor: url(", ##"cursor="url"##, ##"<image href="#r""##, "d ata"] {
            XCTAssertFalse(text.contains(gone), "\(gone): \(text)")
        }
    }

    /// A document that a browser could read as other markup than the writer read is refused:
    /// an encoding that is not ASCII's superset, a NUL byte, text outside the root element (a
    /// UTF-16 byte order mark among it).
    func testDocumentsAnotherReaderWouldReadOtherwiseAreRefused() throws {
        let root = #"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>"#
        func refusal(_ data: Data) -> String {
            do {
                _ = try serving.sanitize(data)
                return "written"
            } catch {
                return "\(error)"
            }
        }
        XCTAssertTrue(refusal(Data((#"<?xml version="1.0" encoding="UTF-16"?>"# + root).utf8)).contains("encoding \"utf-16\""))
        XCTAssertTrue(refusal(Data((#"<?xml version="1.0" encoding='utf-7'?>"# + root).utf8)).contains("encoding"))
        XCTAssertEqual(try served(#"<?xml version="1.0" standalone="no" encoding="UTF-8"?>"# + root),
                       #"<?xml version="1.0" encoding="utf-8"?>"# + root, "the declaration is written anew")
        XCTAssertEqual(try served(#"<?xml-stylesheet encoding="iso-2022-jp" href="a.css"?>"# + root), root,
                       "an instruction where the declaration goes is no declaration, and is dropped")
        XCTAssertEqual(try served("<?xml version=\"1.0\"?>\n" + root + "\n"), "<?xml version=\"1.0\"?>\n" + root + "\n")
        XCTAssertTrue(refusal(Data(root.utf8) + Data([0])).contains("control character (0x0)"))
        // ISO-2022-JP's escape swallows the quote after it, and a browser reads the handler after
        // it as markup; the writer reads it as an attribute's text.
        let shifted = Data(#"<svg xmlns="http://www.w3.org/2000/svg" id=""#.utf8) + Data([0x1B]) + Data(#"$B">"#.utf8) + Data([0x1B])
            + Data(#"(B" onload="alert(1)"></svg>"#.utf8)
        XCTAssertTrue(refusal(shifted).contains("control character (0x1b)"))
        XCTAssertTrue(refusal(Data((#"<?xml version="1.0" ENCODING="utf-8" encoding="iso-2022-jp"?>"# + root).utf8))
            .contains("encoding \"iso-2022-jp\""), "the pseudo-attribute is read as XML spells it")
        XCTAssertTrue(refusal(Data([0xFF, 0xFE]) + Data(root.utf8)).contains("text outside the root element"))
        XCTAssertTrue(refusal(Data((root + "<script>alert(1)</script>x").utf8)).contains("text outside the root element"))
        for reference in ["&#1;", "&#x1B;", "&#xFFFE;", "&#+60;", "&#x-3C;"] {
            let text = #"<svg xmlns="http://www.w3.org/2000/svg" id="a"# + reference + #""/>"#
            XCTAssertTrue(refusal(Data(text.utf8)).contains("invalid character reference"), reference)
        }
    }

    /// What the writer keeps draws as the document did: each drawable document of the vector
    /// folder, and each hostile one, written for serving and drawn again by librsvg, gives the
    /// same pixels as the document itself.
    func testTheWrittenDocumentDrawsTheSamePicture() throws {
        let drawable = try documents(in: "svg").filter { !$0.hasPrefix("bomb_") && $0 != "truncated.svg" }.map { "svg/\($0)" }
        let hostile = try documents(in: "hostile").map { "hostile/\($0)" }
        XCTAssertGreaterThanOrEqual(drawable.count, 9)
        for path in drawable + hostile {
            let data = try Fixtures.data(vector.appendingPathComponent(path))
            let original = try coder.decode(data, options: ImageDecodeOptions())
            let rewritten = try coder.decode(serving.sanitize(data), options: ImageDecodeOptions())
            FormatFixtures.assertNear(rewritten.pixels, original.pixels, maximum: 0, mean: 0, path)
        }
    }
}
