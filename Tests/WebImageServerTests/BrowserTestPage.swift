import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageCodecs
import WebImageTestSupport

/// The web page ``ServeBrowserTests`` loads in Chromium: each kind of image a site shows through
/// `webimage serve` (a photo, the same at twice the density, a `srcset` with a 2x candidate, a
/// `<picture>` offering WebP, a PNG with alpha, an animated GIF, a JPEG with an ICC profile, an
/// EXIF-rotated JPEG, a missing source), each with what the browser must make of it.
struct BrowserTestPage {
    /// The page's background: what shows through transparent pixels.
    static let background = RGBA(r: 255, g: 0, b: 255)

    /// The images, in page order.
    let images: [PageImage]

    /// Routes the sources on `origin` and lays out the images, their URLs on the server at `server`.
    init(server: String, origin: LoopbackHTTPServer) throws {
        let sources = [
            ("/alpha.png", try Fixtures.imageData("png/pngsuite_basn6a08.png"), "image/png"),
            ("/loop.gif", try Fixtures.imageData("gif/sd_TestLoopCount.gif"), "image/gif"),
            ("/profiled.jpg", try Fixtures.colorData("swapped.jpg"), "image/jpeg"),
            ("/rotated.jpg", try Fixtures.imageData("jpeg/pil_hopper_orientation_6.jpg"), "image/jpeg"),
        ]
        for (path, bytes, type) in sources { origin.route(path, .bytes(bytes, contentType: type)) }
        /// The server's URL of `options` applied to the origin's `source` (`/photo.jpg`, routed
        /// by ``ServeTestCase``, is a 1024 × 768 JPEG).
        func url(_ options: String, _ source: String) -> String {
            "\(server)/insecure/\(options)/plain/\(origin.url(source).absoluteString)"
        }
        func look(_ data: Data, within tolerance: Double, onto background: RGBA? = nil) throws -> ExpectedLook {
            let pixels = try ImageCoders.shared.decode(data).pixels
            return ExpectedLook(reference: background.map { pixels.flattened(onto: $0) } ?? pixels, tolerance: tolerance)
        }
        images = [
            .img("photo", url("rs:fit:200:150", "/photo.jpg"), .shown(200, 150, "image/avif")),
            .img("photo-dpr2", url("rs:fit:200:150/dpr:2", "/photo.jpg"), .shown(400, 300, "image/avif")),
            .srcset("srcset", oneX: url("rs:fit:160:120", "/photo.jpg"), twoX: url("rs:fit:160:120/dpr:2", "/photo.jpg"),
                    .shown(160, 120, "image/avif")),
            .picture("picture", webp: url("rs:fit:120:90", "/photo.jpg") + "@webp", fallback: url("rs:fit:120:90", "/photo.jpg") + "@jpg",
                     .shown(120, 90, "image/webp")),
            .img("animation", url("rs:fit:36:24", "/loop.gif"), .shown(36, 24, "image/webp")),
            // Alpha dropped or flattened misses by a mean of 32 or more. Chromium 156 shows AVIF
            // alpha stretched (32 as 19, 230 as 247; AVIFs from libavif 1.4 too), which costs 4.2.
            .img("alpha", url("rs:fit:32:32", "/alpha.png"),
                 .shown(32, 32, "image/avif",
                        looksLike: try look(Fixtures.imageData("png/pngsuite_basn6a08.png"), within: 8, onto: Self.background))),
            // Pillow's conversion to sRGB of colours whose profile swaps red and green; ignoring
            // the profile misses by a mean of 6.8.
            .img("icc", url("rs:fit:48:36", "/profiled.jpg"),
                 .shown(48, 36, "image/avif", looksLike: try look(Fixtures.colorData("ref/swapped.jpg.png"), within: 3))),
            // The same photo stored upright, without an orientation; turned or mirrored, it
            // misses by a mean of 41 or more.
            .img("exif", url("rs:fit:128:128", "/rotated.jpg"),
                 .shown(128, 128, "image/avif", looksLike: try look(Fixtures.imageData("jpeg/pil_hopper.jpg"), within: 4))),
            .img("missing", url("rs:fit:50:50", "/gone.jpg"), .failed(404)),
        ]
    }

    /// The page's HTML: every image, on the ``background``; each `<img>` records its load or
    /// error event in `data-event`, as `load_page.py` waits for.
    var html: String {
        """
        <!DOCTYPE html>
        <html><head><meta charset="utf-8"><title>webimage serve in a browser</title>
        <style>body { margin: 0; background: \(Self.background.cssColor); } img { display: block; margin: 4px; }</style>
        </head><body>
        \(images.map(\.markup).joined(separator: "\n"))
        </body></html>
        """
    }
}

/// One image of the ``BrowserTestPage``: its element and what the browser must make of it.
struct PageImage {
    /// The `id` of its `<img>`.
    let id: String
    /// The URL the browser must choose for it.
    let url: String
    /// Its HTML.
    let markup: String
    /// What the browser must make of it.
    let expected: Expected

    /// What the browser must make of an image.
    enum Expected {
        /// Shown at `width` × `height` CSS pixels (its natural size), answered as `type`, its
        /// screenshot looking like `looksLike` when given.
        case shown(Int, Int, String, looksLike: ExpectedLook? = nil)
        /// Its error event fired, the server having answered `status`.
        case failed(Int)
    }

    /// A plain `<img src>`. One compared with a picture is shown at half its natural size, so
    /// that at a device pixel ratio of 2 its screenshot has its pixels one for one.
    static func img(_ id: String, _ url: String, _ expected: Expected) -> PageImage {
        var size = ""
        if case .shown(let width, let height, _, looksLike: .some) = expected {
            size = #" width="\#(width / 2)" height="\#(height / 2)" data-screenshot"#
        }
        return PageImage(id: id, url: url, markup: element(id, #"src="\#(url)"\#(size)"#), expected: expected)
    }

    /// An `<img>` with a 1x and a 2x `srcset` candidate: at a device pixel ratio of 2 the
    /// browser must choose `twoX`, whose natural size is its pixels halved.
    static func srcset(_ id: String, oneX: String, twoX: String, _ expected: Expected) -> PageImage {
        PageImage(id: id, url: twoX, markup: element(id, #"src="\#(oneX)" srcset="\#(oneX) 1x, \#(twoX) 2x""#), expected: expected)
    }

    /// A `<picture>` whose `<source>` offers `webp` as `image/webp`, which the browser must
    /// choose over the `<img>`'s `fallback`.
    static func picture(_ id: String, webp: String, fallback: String, _ expected: Expected) -> PageImage {
        let markup = #"<picture><source type="image/webp" srcset="\#(webp)">\#(element(id, #"src="\#(fallback)""#))</picture>"#
        return PageImage(id: id, url: webp, markup: markup, expected: expected)
    }

    /// An `<img>` with `id` and `attributes` that records its load or error event.
    private static func element(_ id: String, _ attributes: String) -> String {
        #"<img id="\#(id)" alt="\#(id)" \#(attributes) onload="this.dataset.event='load'" onerror="this.dataset.event='error'">"#
    }
}

extension RGBA {
    /// `rgb(R, G, B)`.
    var cssColor: String { "rgb(\(r), \(g), \(b))" }
}
