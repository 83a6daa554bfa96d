import Foundation
import WebImageTestSupport
import XCTest

/// `webimage serve` refusing object storage settings it cannot use: it exits at once with one
/// line naming the setting, never a credential.
final class ObjectStorageSettingsTests: XCTestCase {
    private func serve(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32?, error: String) {
        let result = try ChildProcess.run(BuiltProducts.executable("webimage"), ["serve", "--bind", "127.0.0.1:0"] + arguments,
                                          environment: ["AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_EC2_METADATA_DISABLED": "true",
                                                        "HOME": FileManager.default.temporaryDirectory.path].merging(environment) { $1 },
                                          timeout: 30)
        return (result.status, result.error)
    }

    func testObjectStorageWithoutCredentialsOrWithABadAddressStopsTheServer() throws {
        let keys = ["AWS_ACCESS_KEY_ID": "KEYIDSHOWN", "AWS_SECRET_ACCESS_KEY": "SECRETSHOWN"]
        let cases: [(arguments: [String], environment: [String: String], says: String)] = [
            (["--use-s3"], [:], "object storage needs credentials"),
            (["--result-storage", "s3://results/webimage"], [:], "object storage needs credentials"),
            (["--use-s3", "--s3-endpoint", "ftp://storage.example"], keys, "--s3-endpoint: invalid object storage endpoint"),
            (["--result-storage", "https://results/webimage"], keys, "--result-storage: invalid object storage address"),
            (["--result-storage", "s3://Results_Bucket/x"], keys, "--result-storage: invalid object storage address"),
        ]
        for (arguments, environment, says) in cases {
            let run = try serve(arguments, environment: environment)
            XCTAssertEqual(run.status, 1, "\(arguments)")
            XCTAssertTrue(run.error.contains(says), "\(arguments): \(run.error)")
            XCTAssertFalse(run.error.contains("SHOWN"), "a credential was shown")
        }
    }
}
