import Foundation
import WebImage
import WebImageTestSupport
import XCTest

/// Entry file names, SDWebImage's `SDDiskCacheFileNameForKey`: the MD5 of the key, then the
/// extension of the URL's path, so a folder written by one is read by the other.
final class DiskCacheFileNameTests: XCTestCase {
    /// The extension part of the name for `key`, or "" when the name has none.
    private func fileExtension(_ key: String) -> String {
        let name = DiskCache.fileName(forKey: key)
        XCTAssertTrue(name.hasPrefix(MD5.hex(key)), key)
        let rest = name.dropFirst(32)
        XCTAssertTrue(rest.isEmpty || rest.hasPrefix("."), name)
        return String(rest.dropFirst())
    }

    func testTheNameIsTheKeysMD5AndTheExtensionOfItsPath() {
        XCTAssertEqual(DiskCache.fileName(forKey: "https://example.com/a.png"), "8c11d92f07c76baf29e49afd2301deb2.png")
        XCTAssertEqual(DiskCache.fileName(forKey: "hello"), "5d41402abc4b2a76b9719d911017c592")
        XCTAssertEqual(fileExtension("https://example.com/a.png?token=1#top"), "png", "query and fragment are not the path")
        XCTAssertEqual(fileExtension("https://example.com/a?name=b.png"), "")
        XCTAssertEqual(fileExtension("https://example.com/dir/"), "")
        XCTAssertEqual(fileExtension("https://example.com/a.tar.gz"), "gz", "after the last dot")
        XCTAssertEqual(fileExtension("https://example.com/.hidden"), "", "a leading dot marks no extension")
        XCTAssertEqual(fileExtension("https://example.com/a."), "", "nor does a trailing one")
    }

    /// The examples of SDWebImage's own tests (`SDImageCacheTests` 34–37 and 49, and its
    /// `TestImageKey.jpg` key), with the extensions they expect.
    func testSDWebImagesExamples() {
        XCTAssertEqual(fileExtension("TestImageKey.jpg"), "jpg")
        XCTAssertEqual(fileExtension("https://placehold.co/50x50.jpg"), "jpg")
        XCTAssertEqual(fileExtension(
            "https://maps.googleapis.com/maps/api/staticmap?center=48.8566,2.3522&format=png&maptype=roadmap&scale=2&size=375x200&zoom=15"),
            "", "dots in the query are not an extension")
        XCTAssertEqual(fileExtension(
            "https://imggen.alicdn.com/3b11cea896a9438329d85abfb07b30a8.jpg?aid=tanx&tid=1166&m=%7B%22img_url%22%3A%22https%3A%2F%2Fgma.alicdn.com%2Fbao%2Fuploaded%2Fi4%2F1695306010722305097%2FTB2S2KjkHtlpuFjSspoXXbcDpXa_%21%210-saturn_solar.jpg_sum.jpg%22%2C%22title%22%3A%22%E6%A4%8D%E7%89%A9%E8%94%B7%E8%96%87%E7%8E%AB%E7%91%B0%E8%8A%B1%22%2C%22promot_name%22%3A%22%22%2C%22itemid%22%3A%22546038044448%22%7D&e=cb88dab197bfaa19804f6ec796ca906dab536b88fe6d4475795c7ee661a7ede1&size=640x246"),
            "jpg")
        let tooLong = "https://imggen.alicdn.com/3b11cea896a9438329d85abfb07b30a8.jpgas"
            + String(repeating: "a", count: 20) + String(repeating: "j", count: 171) + String(repeating: "a", count: 17)
            + String(repeating: "j", count: 161)
        XCTAssertEqual(fileExtension(tooLong), "", "a 374-character extension")
        XCTAssertEqual(fileExtension("http://e.hiphotos.baidu.com/image/pic/item/a1ec08fa513d2697e542494057fbb2fb4316d81e.jpg00%00"),
                       "jpg00", "percent-decoded, then the NUL removed")
    }

    /// SDWebImage keeps an extension up to `NAME_MAX − 32 − 1` = 222 characters: a name of 255
    /// bytes, which a store writes and a read finds.
    func testExtensionsUpTo222BytesAreKept() throws {
        let longest = "https://example.com/a." + String(repeating: "x", count: 222)
        XCTAssertEqual(fileExtension(longest), String(repeating: "x", count: 222))
        XCTAssertEqual(fileExtension("https://example.com/a." + String(repeating: "x", count: 223)), "")
        let folder = try TemporaryFolder(self).appending("cache")
        let cache = try DiskCache(directory: folder, configuration: .init(autoTrimInterval: 0))
        try cache.store(Data("long".utf8), forKey: longest)
        XCTAssertEqual(TemporaryFolder.cacheFileNames(in: folder), [DiskCache.fileName(forKey: longest)])
        XCTAssertEqual(DiskCache.fileName(forKey: longest).utf8.count, 255)
        XCTAssertEqual(cache.data(forKey: longest), Data("long".utf8))
        XCTAssertEqual(cache.count, 1, "the cache counts the name as its own")
    }

    /// Like SDWebImage, NUL and `:` are removed from the extension rather than dropping it, and
    /// the extension is read percent-decoded.
    func testExtensionsArePercentDecodedAndLoseNULAndColon() {
        XCTAssertEqual(fileExtension("https://example.com/a.b:c"), "bc")
        XCTAssertEqual(fileExtension("https://example.com/a.p%6Eg"), "png")
        XCTAssertEqual(fileExtension("https://example.com/a.b%2Ec"), "c", "a decoded dot starts the extension")
        XCTAssertEqual(fileExtension("https://example.com/a.%3A%00"), "", "nothing is left")
        XCTAssertEqual(fileExtension("https://example.com/a.jp%zz"), "jp%zz", "not a percent escape: read as is")
    }

    /// Where SDWebImage's name could not be a file on Linux (longer than 255 bytes, or with a
    /// `/`), the entry is named without extension, the name SDWebImage's reads try next.
    func testExtensionsNoFileSystemHoldsAreDropped() {
        XCTAssertEqual(fileExtension("https://example.com/a." + String(repeating: "é", count: 111)), String(repeating: "é", count: 111))
        XCTAssertEqual(fileExtension("https://example.com/a." + String(repeating: "é", count: 112)), "", "224 bytes")
        XCTAssertEqual(fileExtension("https://example.com/a.b%2Fc"), "")
    }
}
