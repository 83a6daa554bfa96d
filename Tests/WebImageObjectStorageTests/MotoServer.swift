import AsyncHTTPClient
import Foundation
import WebImageTestSupport
import XCTest

/// moto's S3-compatible server of the test's own (`python -m moto.server`, from the `moto[server]`
/// package `scripts/test` installs in `.build/venv`) on a free loopback port, checking every
/// request's signature: it starts with authentication on after the few unauthenticated calls
/// that make its two IAM users, ``reader`` (allowed every S3, Secrets Manager and Systems
/// Manager action, and to assume ``role``) and
/// ``outsider`` (allowed none), and the IAM role ``role`` (allowed every S3 action, assumable
/// through STS by any user whose own policy allows it). Its buckets live in its memory: killed, they are gone. Without moto, the test is
/// skipped (or fails under `WEBIMAGE_NO_SKIPS=1`), saying what to install.
final class MotoServer {
    /// An access key ID and its secret.
    struct Keys: Decodable {
        let id: String
        let secret: String

        /// The environment `webimage serve` reads them from.
        var environment: [String: String] { ["AWS_ACCESS_KEY_ID": id, "AWS_SECRET_ACCESS_KEY": secret] }
    }

    /// The port it listens on.
    private(set) var port = 0
    /// May do anything in S3.
    private(set) var reader = Keys(id: "", secret: "")
    /// May do nothing.
    private(set) var outsider = Keys(id: "", secret: "")
    /// The ARN of the role the reader may assume.
    private(set) var role = ""
    private let python: URL
    private var process: ChildProcess?

    /// `http://127.0.0.1:PORT`.
    var endpoint: String { "http://127.0.0.1:\(port)" }

    /// Starts the server and makes its users.
    init() async throws {
        guard let python = Python.interpreter(importing: "moto.server") else {
            throw MachineGuard.notInstalled("moto's server is not installed (pip package moto[server]; scripts/test installs it in .build/venv)")
        }
        self.python = python
        port = try await LoopbackPort.withFreePort { free in
            port = free
            try await start()
            return free
        }
        let users = try run(Self.makeUsers)
        struct Made: Decodable {
            let keys: [String: Keys]
            let role: String
        }
        let made = try JSONDecoder().decode(Made.self, from: Data(users.utf8))
        guard let reader = made.keys["reader"], let outsider = made.keys["outsider"] else { throw MotoServerError.setupFailed(users) }
        self.reader = reader
        self.outsider = outsider
        role = made.role
    }

    deinit { process?.killAndReap() }

    /// Makes `bucket` and puts each file of `objects` (by key) in it, with boto3 as ``reader``: a
    /// client other than the one under test writes what it reads.
    func makeBucket(_ bucket: String, objects: [String: URL] = [:]) throws {
        _ = try run(Self.putObjects, [bucket] + objects.map { "\($0.key)=\($0.value.path)" })
    }

    /// Makes the versioned `bucket` and puts `files` under `key` one after the other, with boto3
    /// as ``reader``; the version ID of each, in order.
    func putVersions(in bucket: String, key: String, files: [URL]) throws -> [String] {
        let output = try run(Self.putVersionsScript, [bucket, key] + files.map(\.path))
        return try JSONDecoder().decode([String].self, from: Data(output.utf8))
    }

    /// Keeps `text` as the Secrets Manager secret `name` and each of `parameters` (by name) as a
    /// Systems Manager string parameter, with boto3 as ``reader``.
    func store(secret name: String, text: String, parameters: [String: String]) throws {
        _ = try run(Self.storeScript, [name, text] + parameters.map { "\($0.key)=\($0.value)" })
    }

    /// Kills the server with SIGKILL, as a crash would.
    func kill() {
        process?.killAndReap()
        process = nil
    }

    /// Starts the server and waits until it answers HTTP; throws ``LoopbackPort/Taken`` when it
    /// exits first.
    private func start() async throws {
        // The first seven calls (the users, their keys, the reader's policy, the role and its
        // policy) go unauthenticated; every later one must be signed by a known key, and is
        // checked against its policy.
        process = try ChildProcess(python, ["-m", "moto.server", "-H", "127.0.0.1", "-p", "\(port)"],
                                   environment: ["INITIAL_NO_AUTH_ACTION_COUNT": "7"])
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let deadline = ContinuousClock.now + .seconds(30)
        var answered = false
        while !answered, process?.isRunning == true, ContinuousClock.now < deadline {
            answered = (try? await client.execute(HTTPClientRequest(url: "\(endpoint)/moto-api/"), timeout: .seconds(1))) != nil
            if !answered { try await Task.sleep(for: .milliseconds(100)) }
        }
        try await client.shutdown()
        if answered { return }
        guard process?.isRunning == true else {
            throw LoopbackPort.Taken(server: "moto", output: (process?.output ?? "") + (process?.errorOutput ?? ""))
        }
        throw MotoServerError.notAnswering(process?.errorOutput ?? "")
    }

    /// Runs `script` with the endpoint, the reader's keys and `arguments`; its standard output.
    private func run(_ script: String, _ arguments: [String] = []) throws -> String {
        let result = try ChildProcess.run(python, ["-c", script, endpoint, reader.id, reader.secret] + arguments, timeout: 60)
        guard result.status == 0 else { throw MotoServerError.setupFailed(result.error) }
        return result.output
    }

    /// Makes the two users and the role: seven unauthenticated IAM calls; prints the users' keys
    /// and the role's ARN as JSON.
    private static let makeUsers = """
        import json, sys, boto3
        iam = boto3.client("iam", endpoint_url=sys.argv[1], region_name="us-east-1",
                           aws_access_key_id="setup", aws_secret_access_key="setup")
        keys = {}
        for user in ("reader", "outsider"):
            iam.create_user(UserName=user)
            key = iam.create_access_key(UserName=user)["AccessKey"]
            keys[user] = {"id": key["AccessKeyId"], "secret": key["SecretAccessKey"]}
        iam.put_user_policy(UserName="reader", PolicyName="s3", PolicyDocument=json.dumps(
            {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Resource": "*",
                                                     "Action": ["s3:*", "sts:AssumeRole", "secretsmanager:*", "ssm:*"]}]}))
        trust = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"AWS": "*"}, "Action": "sts:AssumeRole"}]}
        role = iam.create_role(RoleName="images", AssumeRolePolicyDocument=json.dumps(trust))["Role"]["Arn"]
        iam.put_role_policy(RoleName="images", PolicyName="s3", PolicyDocument=json.dumps(
            {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}))
        print(json.dumps({"keys": keys, "role": role}))
        """

    /// Makes a secret and parameters, as the reader.
    private static let storeScript = """
        import sys, boto3
        keys = dict(endpoint_url=sys.argv[1], region_name="us-east-1", aws_access_key_id=sys.argv[2], aws_secret_access_key=sys.argv[3])
        boto3.client("secretsmanager", **keys).create_secret(Name=sys.argv[4], SecretString=sys.argv[5])
        ssm = boto3.client("ssm", **keys)
        for pair in sys.argv[6:]:
            name, value = pair.split("=", 1)
            ssm.put_parameter(Name=name, Value=value, Type="String")
        """

    /// Makes a versioned bucket and puts files under one key in it, as the reader; prints the version IDs.
    private static let putVersionsScript = """
        import json, sys, boto3
        s3 = boto3.client("s3", endpoint_url=sys.argv[1], region_name="us-east-1",
                          aws_access_key_id=sys.argv[2], aws_secret_access_key=sys.argv[3])
        s3.create_bucket(Bucket=sys.argv[4])
        s3.put_bucket_versioning(Bucket=sys.argv[4], VersioningConfiguration={"Status": "Enabled"})
        versions = []
        for path in sys.argv[6:]:
            with open(path, "rb") as f:
                versions.append(s3.put_object(Bucket=sys.argv[4], Key=sys.argv[5], Body=f.read())["VersionId"])
        print(json.dumps(versions))
        """

    /// Makes a bucket and puts files in it, as the reader.
    private static let putObjects = """
        import sys, boto3
        s3 = boto3.client("s3", endpoint_url=sys.argv[1], region_name="us-east-1",
                          aws_access_key_id=sys.argv[2], aws_secret_access_key=sys.argv[3])
        s3.create_bucket(Bucket=sys.argv[4])
        for pair in sys.argv[5:]:
            key, path = pair.split("=", 1)
            with open(path, "rb") as f:
                s3.put_object(Bucket=sys.argv[4], Key=key, Body=f.read(), ContentType="application/octet-stream")
        """
}

/// Why a test's moto server could not be used.
enum MotoServerError: Error, CustomStringConvertible {
    /// It started but did not answer within 30 seconds; its standard error.
    case notAnswering(String)
    /// A setup script failed; what it printed.
    case setupFailed(String)

    var description: String {
        switch self {
        case .notAnswering(let errors): "moto did not answer within 30 s: \(errors)"
        case .setupFailed(let errors): "setting up moto failed: \(errors)"
        }
    }
}
