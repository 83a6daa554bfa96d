import Foundation
import WebImageTestSupport
import XCTest

/// `webimage serve` reading variables kept in AWS, as imgproxy reads them at start, from moto's
/// Secrets Manager and Systems Manager (which check every signature and the reader's policy):
/// a secret of `.env` text (`IMGPROXY_ENV_AWS_SECRET_ID`), then a path's parameters
/// (`IMGPROXY_ENV_AWS_SSM_PARAMETERS_PATH`), over the environment's and each other's in that
/// order; a refused call stops the start naming the setting, and no secret is printed.
final class AWSEnvironmentTests: XCTestCase {
    private var moto: MotoServer!
    private var folder: TemporaryFolder!

    override func setUp() async throws {
        moto = try await MotoServer()
        folder = try TemporaryFolder(self)
        try moto.store(secret: "imgproxy/config", text: "# kept in AWS\nIMGPROXY_QUALITY=33\nIMGPROXY_TTL=77\nIMGPROXY_KEY_HINT='s3cret-value'\n",
                       parameters: ["/imgproxy/IMGPROXY_TTL": "88", "/imgproxy/IMGPROXY_MAX_SRC_RESOLUTION": "12"])
    }

    override func tearDown() async throws {
        moto.kill()
    }

    /// `serve --print-config` with `keys` and the stores named; its status, output and errors.
    private func printed(_ keys: MotoServer.Keys, _ environment: [String: String] = [:]) throws -> (status: Int32?, output: String, error: String) {
        let base = ["HOME": folder.url.path, "AWS_EC2_METADATA_DISABLED": "true", "AWS_ENDPOINT_URL": moto.endpoint, "AWS_REGION": "us-east-1",
                    "IMGPROXY_QUALITY": "90", "IMGPROXY_ENV_AWS_SECRET_ID": "imgproxy/config",
                    "IMGPROXY_ENV_AWS_SSM_PARAMETERS_PATH": "/imgproxy"]
        return try ChildProcess.run(BuiltProducts.executable("webimage"), ["serve", "--print-config"],
                                    environment: base.merging(keys.environment) { $1 }.merging(environment) { $1 }, timeout: 60)
    }

    func testTheSecretAndTheParametersAreReadOverTheEnvironmentInImgproxysOrder() throws {
        let run = try printed(moto.reader)
        XCTAssertEqual(run.status, 0, run.error)
        let lines = run.output.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("--quality 33 ") }, "the secret's, over the environment's: \(lines.filter { $0.contains("quality") }) \(run.error)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("--ttl 88 ") }, "the parameter's, over the secret's")
        XCTAssertTrue(lines.contains { $0.hasPrefix("--max-src-resolution 12 ") })
        XCTAssertTrue(run.error.contains("IMGPROXY_KEY_HINT"), "a name imgproxy does not read is warned about, as any variable is")
    }

    func testARefusedCallStopsTheStartNamingTheSettingAndNoSecret() throws {
        let run = try printed(moto.outsider)
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.error.contains("IMGPROXY_ENV_AWS_SECRET_ID: AWS Secrets Manager answered HTTP status"), run.error)
        XCTAssertFalse(run.error.contains("s3cret-value"))
        XCTAssertFalse(run.error.contains(moto.outsider.secret))
    }
}
