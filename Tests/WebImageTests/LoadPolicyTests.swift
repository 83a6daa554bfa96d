import Foundation
import XCTest
@testable import WebImage

/// A load is decided once, in `ImageManager.request(for:options:context:)`: its `LoadPolicy`
/// from the options and the context (the context's settings win), its decode options from the
/// context and the manager.
final class LoadPolicyTests: XCTestCase {
    private let url = URL(string: "https://example.com/cat@2x.png")!

    /// A manager whose disk cache lives in a temporary folder, removed after the test.
    private func makeManager(scaleDownLimitBytes: Int = ImageManager.defaultScaleDownLimitBytes) throws -> ImageManager {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-policy-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return ImageManager(imageCache: ImageCache(disk: try DiskCache(directory: folder)), scaleDownLimitBytes: scaleDownLimitBytes)
    }

    func testWithoutOptionsALoadLooksEverywhereStoresEverywhereAndKeepsOriginalsOnDisk() throws {
        let policy = try makeManager().request(for: url).policy
        XCTAssertEqual(policy.queryCacheType, .all)
        XCTAssertEqual(policy.storeCacheType, .all)
        XCTAssertEqual(policy.originalStoreCacheType, .disk)
        XCTAssertEqual(policy.originalQueryCacheType, .disk)
        XCTAssertEqual(policy.priority, .normal)
        XCTAssertFalse(policy.firstFrameOnly)
        XCTAssertTrue(policy.answersByMemoryHit)
        XCTAssertTrue(policy.sharesWork)
    }

    func testOptionsDecideTheTiersThePriorityAndTheFrames() throws {
        let request = try makeManager().request(
            for: url, options: [.fromLoaderOnly, .cacheMemoryOnly, .decodeFirstFrameOnly, .highPriority])
        XCTAssertEqual(request.policy.queryCacheType, .none)
        XCTAssertEqual(request.policy.storeCacheType, .memory)
        XCTAssertEqual(request.policy.priority, .high)
        XCTAssertTrue(request.policy.firstFrameOnly)
        XCTAssertTrue(request.decodeOptions.firstFrameOnly, "the decode asks for the frame the policy wants")
        XCTAssertFalse(request.policy.answersByMemoryHit, "a load that skips the cache is not answered from memory")
    }

    func testTheContextsTiersWinOverTheOptions() throws {
        var context = ImageContext()
        context.queryCacheType = .disk
        context.storeCacheType = .disk
        context.originalStoreCacheType = ImageCacheType.none
        context.originalQueryCacheType = .memory
        let policy = try makeManager().request(for: url, options: [.fromLoaderOnly, .cacheMemoryOnly], context: context).policy
        XCTAssertEqual(policy.queryCacheType, .disk)
        XCTAssertEqual(policy.storeCacheType, .disk)
        XCTAssertEqual(policy.originalStoreCacheType, ImageCacheType.none)
        XCTAssertEqual(policy.originalQueryCacheType, .memory)
        XCTAssertFalse(policy.answersByMemoryHit, "a load that looks on disk only is not answered from memory")
    }

    func testARevalidationOrAWishForTheBytesIsNotAnsweredByAMemoryHit() throws {
        let manager = try makeManager()
        for options: WebImageOptions in [.refreshCached, .queryMemoryData] {
            XCTAssertFalse(manager.request(for: url, options: options).policy.answersByMemoryHit, "\(options)")
        }
    }

    func testLoadsShareTheirWorkOnlyWhenNothingInThemCannotBeCompared() throws {
        let manager = try makeManager()
        let plain = manager.request(for: url)
        XCTAssertNotNil(LoadPolicy.workKey(of: plain))
        XCTAssertEqual(LoadPolicy.workKey(of: plain), LoadPolicy.workKey(of: manager.request(for: url, options: .forceTransition)),
                       "an option that only changes the delivery is the same work")
        XCTAssertNotEqual(LoadPolicy.workKey(of: plain), LoadPolicy.workKey(of: manager.request(for: url, options: .highPriority)),
                          "a more urgent load runs its own stages")
        var decrypting = ImageContext()
        decrypting.decryptor = { data, _ in data }
        let request = manager.request(for: url, context: decrypting)
        XCTAssertFalse(request.policy.sharesWork)
        XCTAssertNil(LoadPolicy.workKey(of: request))
    }

    func testDecodeOptionsTakeTheManagersScaleDownLimitUnlessTheContextNamesOne() throws {
        let manager = try makeManager(scaleDownLimitBytes: 4096)
        let scaled = manager.request(for: url, options: .scaleDownLargeImages)
        XCTAssertEqual(scaled.decodeOptions.scaleDownLimitBytes, 4096)
        XCTAssertEqual(scaled.decodeOptions.scaleFactor, 2, "the URL's @2x")
        XCTAssertNil(manager.request(for: url).decodeOptions.scaleDownLimitBytes, "no limit without scaleDownLargeImages")
        var context = ImageContext()
        context.decodeOptions = ImageDecodeOptions(scaleDownLimitBytes: 100)
        XCTAssertEqual(manager.request(for: url, options: .scaleDownLargeImages, context: context).decodeOptions.scaleDownLimitBytes, 100)
    }

    func testTheRequestUsesTheContextsCacheElseTheManagers() throws {
        let manager = try makeManager()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-policy-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let own = ImageCache(disk: try DiskCache(directory: folder))
        var context = ImageContext()
        context.imageCache = own
        XCTAssertTrue(manager.request(for: url, context: context).cache === own)
        XCTAssertTrue(manager.request(for: url).cache === manager.imageCache)
        XCTAssertTrue(manager.request(for: url, context: context).originalCache === own, "originals go where the image goes")
    }
}
