import WebImageRedis
import XCTest

/// `redis://` URLs as `webimage serve --redis` takes them.
final class RedisConfigurationURLTests: XCTestCase {
    func testHostPortAndDatabaseAreRead() throws {
        let cases: [(String, String, Int, Int)] = [
            ("redis://127.0.0.1:6380/2", "127.0.0.1", 6380, 2),
            ("redis://cache.internal", "cache.internal", 6379, 0),
            ("redis://cache.internal/", "cache.internal", 6379, 0),
            ("REDIS://[::1]:7000/15", "::1", 7000, 15),
            ("redis://:6390", "127.0.0.1", 6390, 0),
        ]
        for (url, host, port, database) in cases {
            let configuration = try RedisConfiguration(url: url)
            XCTAssertEqual([configuration.host, "\(configuration.port)", "\(configuration.database)"],
                           [host, "\(port)", "\(database)"], url)
            XCTAssertEqual(configuration.commandTimeout, .milliseconds(100), "the default timeouts")
        }
    }

    func testWhatTheClientCannotHonourIsRefusedWithoutRepeatingTheURL() {
        let cases: [(String, RedisURLError)] = [
            ("rediss://cache:6379/0", .unsupportedScheme("rediss")),
            ("http://cache:6379/0", .unsupportedScheme("http")),
            ("redis://user:s3cret@cache:6379/0", .credentials),
            ("redis://:s3cret@cache:6379/0", .credentials),
            ("redis://cache:0/0", .invalidPort),
            ("redis://cache:6379/zero", .invalidDatabase("zero")),
            ("redis://cache:6379/-1", .invalidDatabase("-1")),
            ("redis://cache:6379/0?timeout=1", .malformed),
            ("cache:6379", .unsupportedScheme("cache")),
            ("no scheme at all", .malformed),
        ]
        for (url, expected) in cases {
            XCTAssertThrowsError(try RedisConfiguration(url: url), url) { error in
                XCTAssertEqual(error as? RedisURLError, expected, url)
                XCTAssertFalse("\(error)".contains("s3cret"), "\(error)")
            }
        }
    }
}
