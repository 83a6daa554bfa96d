@testable import WebImage
import XCTest

/// Cache keys read as URLs by string scanning, as SDWebImage reads them with `NSURL`.
final class CacheKeyTests: XCTestCase {
    func testSuffixesGoBeforeThePathExtension() {
        XCTAssertEqual(CacheKey.inserting("x", into: "https://a.com/b/c.png"), "https://a.com/b/c-x.png")
        XCTAssertEqual(CacheKey.inserting("x", into: "https://a.com/c.png?v=1.2#top"), "https://a.com/c-x.png?v=1.2#top")
        XCTAssertEqual(CacheKey.inserting("x", into: "https://a.com/c"), "https://a.com/c-x")
        XCTAssertEqual(CacheKey.inserting("x", into: "https://a.com"), "https://a.com-x", "a host is not a path")
        XCTAssertEqual(CacheKey.inserting("x", into: "https://a.com/dir.d/"), "https://a.com/dir.d/-x")
        XCTAssertEqual(CacheKey.inserting("x", into: "photo.jpg"), "photo-x.jpg")
        XCTAssertEqual(CacheKey.inserting("x", into: "https://a.com/.hidden"), "https://a.com/.hidden-x")
        XCTAssertEqual(CacheKey.inserting("x", into: "b.png?u=http://y/z"), "b-x.png?u=http://y/z",
                       "a :// in the query is not a scheme")
    }

    func testKeysMatchSDWebImages() {
        let thumbnail = CacheKey.thumbnailSuffix(PixelSize(width: 100, height: 50), preserveAspectRatio: true)
        XCTAssertEqual(thumbnail, "Thumbnail({100.000000,50.000000},1)")
        XCTAssertEqual(CacheKey.inserting(thumbnail, into: "https://a.com/p.jpg?q=1"),
                       "https://a.com/p-Thumbnail(%7B100.000000,50.000000%7D,1).jpg?q=1")
        XCTAssertEqual(CacheKey.inserting(thumbnail, into: "file:///tmp/p.jpg"), "file:///tmp/p-Thumbnail({100.000000,50.000000},1).jpg")
        XCTAssertEqual(CacheKey.inserting("tint(#FF0000FF,0.5)", into: "https://a.com/p.png"), "https://a.com/p-tint(%23FF0000FF,0.5).png")
    }

    func testKeptColoursAreCachedApartFromSRGBOnes() throws {
        let url = try XCTUnwrap(URL(string: "https://a.com/p.jpg"))
        let converted = ImageCacheKeys(url: url, urlString: url.absoluteString, filter: nil,
                                       decodeOptions: ImageDecodeOptions(), transformerKey: nil)
        let kept = ImageCacheKeys(url: url, urlString: url.absoluteString, filter: nil,
                                  decodeOptions: ImageDecodeOptions(colorManagement: .preserve), transformerKey: nil)
        XCTAssertEqual(converted.image, "https://a.com/p.jpg")
        XCTAssertEqual(kept.image, "https://a.com/p-com.webimage.preservedColors.jpg")
        XCTAssertEqual(kept.original, converted.original, "the same downloaded bytes")
    }

    func testScaleFactorComesFromTheLastPathComponent() {
        XCTAssertEqual(CacheKey.scaleFactor(of: "https://a.com/icon@2x.png"), 2)
        XCTAssertEqual(CacheKey.scaleFactor(of: "https://a.com/icon@3x.png?size=@2x"), 3)
        XCTAssertEqual(CacheKey.scaleFactor(of: "https://a.com/icon@2x"), 2)
        XCTAssertEqual(CacheKey.scaleFactor(of: "https://a.com/@2x/icon.png"), 1)
        XCTAssertEqual(CacheKey.scaleFactor(of: "file:///tmp/sd_1@2x.gif"), 2)
    }
}
