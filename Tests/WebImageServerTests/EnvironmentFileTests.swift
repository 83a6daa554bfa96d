import Foundation
import WebImageServer
import WebImageTestSupport
import XCTest

/// `IMGPROXY_ENV_LOCAL_FILE_PATH` (`--env-file`): a `.env` file's variables read over the
/// environment's, as imgproxy sets them, flags over both; its forms as godotenv reads them, and
/// every other line an error naming it.
final class EnvironmentFileTests: XCTestCase {
    func testTheFilesVariablesWinOverTheEnvironmentAndFlagsOverBoth() throws {
        let folder = try TemporaryFolder(self)
        let file = folder.appending("imgproxy.env")
        try """
            # imgproxy's settings
            IMGPROXY_QUALITY=70
            export IMGPROXY_TTL = 600 # ten minutes
            IMGPROXY_USER_AGENT='Images/1 (#1)'
            IMGPROXY_PATH_PREFIX="/images"\r

            IMGPROXY_HEALTH_CHECK_PATH="/up"  # quoted, then a comment
            """.write(to: file, atomically: true, encoding: .utf8)
        let environment = ["IMGPROXY_ENV_LOCAL_FILE_PATH": file.path, "IMGPROXY_QUALITY": "50", "IMGPROXY_MAX_SRC_RESOLUTION": "20"]
        let configuration = try ImageServer.Configuration(environment: environment)
        XCTAssertEqual(configuration.output.quality, 70, "the file's, over the environment's")
        XCTAssertEqual(configuration.answers.ttl, 600)
        XCTAssertEqual(configuration.sources.userAgent, "Images/1 (#1)", "single quotes keep what they hold")
        XCTAssertEqual(configuration.listening.pathPrefix, "/images")
        XCTAssertEqual(configuration.listening.healthCheckPath, "/up")
        XCTAssertEqual(configuration.limits.maxSrcResolution, 20, "the environment's where the file says nothing")
        let flagged = try ImageServer.Configuration(environment: [:], arguments: ["--env-file", file.path, "--quality", "60"])
        XCTAssertEqual(flagged.output.quality, 60, "a flag over the file")
        XCTAssertEqual(flagged.answers.ttl, 600)
        XCTAssertEqual(try EnvironmentFile(text: "A=\"line\\none \\\"two\\\"\"", path: "x").variables["A"], "line\none \"two\"")
    }

    func testALineOfAnotherFormIsAnErrorNamingIt() throws {
        for (text, line) in [("IMGPROXY_QUALITY=70\nIMGPROXY_TTL\n", 2), ("1ABC=2", 1), ("A=\"open", 1), ("A='x' y", 1)] {
            XCTAssertThrowsError(try EnvironmentFile(text: text, path: "settings.env"), text) { error in
                XCTAssertTrue("\(error)".hasPrefix("settings.env:\(line) "), "\(error)")
            }
        }
        XCTAssertThrowsError(try ImageServer.Configuration(environment: ["IMGPROXY_ENV_LOCAL_FILE_PATH": "/nonexistent/imgproxy.env"])) { error in
            XCTAssertTrue("\(error)".contains("/nonexistent/imgproxy.env"), "\(error)")
        }
    }
}
