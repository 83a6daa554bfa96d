import AsyncHTTPClient
import Foundation
import Locking
import LoopbackHTTPServer
@testable import WebImageObjectStorage
import WebImageTestSupport
import XCTest

/// Credentials as operators have them, each link of ``AWSCredentialChain`` observed through
/// `webimage serve` reading an object from moto's S3 (which checks every signature): an assumed
/// role through moto's STS, a shared credentials profile, a container's endpoint and IMDSv2
/// (loopback servers answering as AWS documents them, each request recorded), a web identity
/// exchanged at an STS answering its documented XML; bucket lists; and the refresh before expiry.
final class CredentialChainTests: XCTestCase {
    private var moto: MotoServer!
    private var metadata: LoopbackHTTPServer!
    private var folder: TemporaryFolder!
    private var client: HTTPClient!
    private var instances: [ServeProcess] = []

    override func setUp() async throws {
        moto = try await MotoServer()
        metadata = try await LoopbackHTTPServer.start()
        folder = try TemporaryFolder(self)
        client = HTTPClient(eventLoopGroupProvider: .singleton)
        try moto.makeBucket("images", objects: ["cat.jpg": Fixtures.bench("testjfif_256.jpg")])
    }

    override func tearDown() async throws {
        instances.forEach { $0.process.killAndReap() }
        instances = []
        try await client.shutdown()
        try await metadata.stop()
        moto.kill()
    }

    /// No keys and no files of this machine's: only what a test gives is found.
    private var bare: [String: String] {
        ["AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "HOME": folder.url.path, "AWS_EC2_METADATA_DISABLED": "true"]
    }

    /// The status of `s3://images/cat.jpg` from a server started with `arguments` and `environment` over ``bare``.
    private func status(_ arguments: [String] = [], environment: [String: String]) async throws -> Int {
        let instance = try ServeProcess(["--cache-dir", folder.appending("instance-\(instances.count)").path, "--use-s3",
                                         "--s3-endpoint", moto.endpoint, "--s3-region", "us-east-1"] + arguments,
                                        environment: bare.merging(environment) { $1 })
        instances.append(instance)
        let response = try await client.execute(HTTPClientRequest(url: instance.baseURL + "/insecure/w:32/plain/s3://images/cat.jpg@png"),
                                                timeout: .seconds(30))
        return Int(response.status.code)
    }

    /// What a server that must not start wrote as it stopped.
    private func refusal(_ environment: [String: String], _ arguments: [String] = []) throws -> String {
        let run = try ChildProcess.run(BuiltProducts.executable("webimage"),
                                       ["serve", "--bind", "127.0.0.1:0", "--use-s3", "--s3-endpoint", moto.endpoint, "--s3-region", "us-east-1"]
                                        + arguments, environment: bare.merging(environment) { $1 }, timeout: 30)
        XCTAssertEqual(run.status, 1, run.error)
        return run.error
    }

    /// The JSON a container's endpoint or IMDS answers with the reader's keys.
    private func credentialsJSON() -> Data {
        let expiration = ISO8601DateFormatter().string(from: Date().addingTimeInterval(3600))
        return Data(#"{"AccessKeyId":"\#(moto.reader.id)","SecretAccessKey":"\#(moto.reader.secret)","Expiration":"\#(expiration)"}"#.utf8)
    }

    func testAnAssumedRoleSignsWithSTSsCredentialsAndAnOutsiderCannotAssumeIt() async throws {
        let sts = ["AWS_ENDPOINT_URL_STS": moto.endpoint, "AWS_REGION": "us-east-1"]
        let assumed = try await status(["--s3-assume-role-arn", moto.role], environment: moto.reader.environment.merging(sts) { $1 })
        XCTAssertEqual(assumed, 200, "the role's temporary credentials, which moto checks, read the object")
        let outsider = try refusal(moto.outsider.environment.merging(sts) { $1 }, ["--s3-assume-role-arn", moto.role])
        XCTAssertTrue(outsider.contains("object storage needs credentials, and none came from the role \(moto.role), assumed with the keys given"), outsider)
        XCTAssertTrue(outsider.contains("STS answered HTTP status 403"), outsider)
        XCTAssertFalse(outsider.contains(moto.outsider.secret))
        let nowhere = try refusal([:])
        XCTAssertTrue(nowhere.contains("none came from any link of the chain: no object storage credentials: no keys, web identity, profile"), nowhere)
    }

    func testASharedProfileAContainerEndpointAndTheInstanceMetadataGiveCredentials() async throws {
        let credentials = folder.appending("credentials")
        try Data("[default]\naws_access_key_id = WRONG\naws_secret_access_key = WRONG\n\n[images]\n# the reader\naws_access_key_id = \(moto.reader.id)\naws_secret_access_key = \(moto.reader.secret)\n".utf8)
            .write(to: credentials)
        let profile = try await status(environment: ["AWS_SHARED_CREDENTIALS_FILE": credentials.path, "AWS_PROFILE": "images"])
        XCTAssertEqual(profile, 200, "the profile's keys")
        let wrongProfile = try await status(environment: ["AWS_SHARED_CREDENTIALS_FILE": credentials.path])
        XCTAssertEqual(wrongProfile, 403, "the default profile's keys are not moto's")

        let json = credentialsJSON()
        metadata.route("/container-credentials", .bytes(json, contentType: "application/json"))
        let container = try await status(environment: ["AWS_CONTAINER_CREDENTIALS_FULL_URI": metadata.url("/container-credentials").absoluteString,
                                                       "AWS_CONTAINER_AUTHORIZATION_TOKEN": "Bearer pod-token"])
        XCTAssertEqual(container, 200)
        XCTAssertEqual(metadata.requests.first { $0.path == "/container-credentials" }?.headers["authorization"], "Bearer pod-token")

        metadata.route("/latest/api/token", .bytes(Data("imds-session".utf8)))
        metadata.route("/latest/meta-data/iam/security-credentials/", .bytes(Data("images-role\n".utf8)))
        metadata.route("/latest/meta-data/iam/security-credentials/images-role", .bytes(json, contentType: "application/json"))
        var instance = bare
        instance["AWS_EC2_METADATA_DISABLED"] = "false"
        instance["AWS_EC2_METADATA_SERVICE_ENDPOINT"] = metadata.url("/").absoluteString
        let fromInstance = try await status(environment: instance)
        XCTAssertEqual(fromInstance, 200)
        let asked = metadata.requests.filter { $0.path.hasPrefix("/latest/") }
        XCTAssertEqual(asked.map(\.method), ["PUT", "GET", "GET"], "IMDSv2: a session token first")
        XCTAssertNotNil(asked.first?.headers["x-aws-ec2-metadata-token-ttl-seconds"])
        XCTAssertEqual(asked.dropFirst().map { $0.headers["x-aws-ec2-metadata-token"] }, ["imds-session", "imds-session"])
    }

    func testAWebIdentityIsExchangedAtSTSWithTheTokenFilesToken() async throws {
        let token = folder.appending("token")
        try Data("eyJ.service-account.token\n".utf8).write(to: token)
        let expiration = ISO8601DateFormatter().string(from: Date().addingTimeInterval(3600))
        let reader = moto.reader
        metadata.route("/") { _ in
            .bytes(Data("""
                <AssumeRoleWithWebIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
                  <AssumeRoleWithWebIdentityResult><Credentials>
                    <AccessKeyId>\(reader.id)</AccessKeyId><SecretAccessKey>\(reader.secret)</SecretAccessKey>
                    <Expiration>\(expiration)</Expiration>
                  </Credentials></AssumeRoleWithWebIdentityResult>
                </AssumeRoleWithWebIdentityResponse>
                """.utf8), contentType: "text/xml")
        }
        let served = try await status(environment: ["AWS_WEB_IDENTITY_TOKEN_FILE": token.path, "AWS_ROLE_ARN": moto.role,
                                                    "AWS_ROLE_SESSION_NAME": "images-pod", "AWS_ENDPOINT_URL_STS": metadata.url("/").absoluteString])
        XCTAssertEqual(served, 200, "the keys STS answered sign the read")
        let query = try XCTUnwrap(metadata.requests.first?.body.map { String(decoding: $0, as: UTF8.self) })
        let fields = Dictionary(uniqueKeysWithValues: query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        })
        XCTAssertEqual(fields["Action"], "AssumeRoleWithWebIdentity")
        XCTAssertEqual(fields["WebIdentityToken"], "eyJ.service-account.token", "the file's token, its line end dropped")
        XCTAssertEqual(fields["RoleArn"], moto.role)
        XCTAssertEqual(fields["RoleSessionName"], "images-pod")
        XCTAssertNil(metadata.requests.first?.headers["authorization"], "AssumeRoleWithWebIdentity is not signed")
    }

    func testBucketListsRefuseSourcesBeforeAnyRequest() async throws {
        let notAllowed = try await status(["--s3-allowed-bucket", "other"], environment: moto.reader.environment)
        let denied = try await status(environment: moto.reader.environment.merging(["IMGPROXY_S3_DENIED_BUCKETS": "images"]) { $1 })
        let allowed = try await status(environment: moto.reader.environment.merging(["IMGPROXY_S3_ALLOWED_BUCKETS": "other,images"]) { $1 })
        XCTAssertEqual([notAllowed, denied, allowed], [404, 404, 200])
    }

    func testCredentialsAreKeptUntilFiveMinutesBeforeTheyExpireThenAskedForAgain() async throws {
        let clock = Mutex(Date())
        let sts = STSCredentials(endpoint: URL(string: moto.endpoint)!, region: "us-east-1",
                                 grant: .assumeRole(role: moto.role, externalID: nil, sessionName: "refresh-test",
                                                    base: ObjectStorageCredentials(accessKeyID: moto.reader.id, secretAccessKey: moto.reader.secret)))
        let refreshing = RefreshingCredentials(sts) { clock.withLock { $0 } }
        let first = try await refreshing.credentials()
        let expiration = try XCTUnwrap(first.expiration, "STS gives an expiry")
        XCTAssertNotNil(first.sessionToken)
        let again = try await refreshing.credentials()
        XCTAssertEqual(again, first, "kept while fresh")
        clock.withLock { $0 = expiration.addingTimeInterval(-4 * 60) }
        let withinMargin = try await refreshing.credentials()
        XCTAssertEqual(withinMargin, first, "still valid: served at once while the refresh runs")
        var second = withinMargin
        for _ in 0..<100 where second == first {
            try await Task.sleep(for: .milliseconds(50))
            second = try await refreshing.credentials()
        }
        XCTAssertNotEqual(second.accessKeyID, first.accessKeyID, "asked again within five minutes of the expiry")

        // A source that fails once it has answered: the kept credentials serve until they expire.
        let failing = RefreshingCredentials(FlakySource(first: first)) { clock.withLock { $0 } }
        clock.withLock { $0 = expiration.addingTimeInterval(-10 * 60) }
        let answeredFirst = try await failing.credentials()
        XCTAssertEqual(answeredFirst, first)
        clock.withLock { $0 = expiration.addingTimeInterval(-60) }
        let stale = try await failing.credentials()
        XCTAssertEqual(stale, first, "stale but still valid, served while the refresh fails")
        try await Task.sleep(for: .milliseconds(200))
        let afterFailure = try await failing.credentials()
        XCTAssertEqual(afterFailure, first, "the failed refresh is not tried again for 30 seconds, and the kept ones serve")
        clock.withLock { $0 = expiration.addingTimeInterval(60) }
        do {
            _ = try await failing.credentials()
            XCTFail("expired credentials are not used")
        } catch {
            XCTAssertEqual(error, .credentialsUnavailable("the source is down"))
        }
    }
}

/// Answers `first` once, then fails: the rare path of a credential service going away.
private final class FlakySource: ObjectStorageCredentialSource {
    let first: ObjectStorageCredentials
    let answered = Mutex(false)

    init(first: ObjectStorageCredentials) {
        self.first = first
    }

    func credentials() async throws(ObjectStorageError) -> ObjectStorageCredentials {
        guard answered.withLock({ answered in defer { answered = true }; return !answered }) else {
            throw .credentialsUnavailable("the source is down")
        }
        return first
    }
}
