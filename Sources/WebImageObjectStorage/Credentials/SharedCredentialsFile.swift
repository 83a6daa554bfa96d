import Foundation

/// Static keys from a profile of AWS's shared files, as AWS's SDKs read them: the credentials
/// file (`AWS_SHARED_CREDENTIALS_FILE`, `~/.aws/credentials`; sections `[NAME]`) first, then
/// the config file (`AWS_CONFIG_FILE`, `~/.aws/config`; sections `[profile NAME]`, `[default]`),
/// the profile `AWS_PROFILE` names or `default`; `aws_access_key_id`, `aws_secret_access_key`
/// and `aws_session_token` are read, `#` and `;` lines are comments.
public struct SharedCredentialsFile: ObjectStorageCredentialSource {
    /// The credentials file's path.
    public let credentialsPath: String
    /// The config file's path.
    public let configPath: String
    /// The profile read.
    public let profile: String

    /// The files and profile `environment` names, under `home` when it names none.
    public init(environment: [String: String], home: String) {
        credentialsPath = environment["AWS_SHARED_CREDENTIALS_FILE"] ?? home + "/.aws/credentials"
        configPath = environment["AWS_CONFIG_FILE"] ?? home + "/.aws/config"
        profile = environment["AWS_PROFILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
    }

    /// Whether either file holds the profile with keys.
    public var hasKeys: Bool { keys() != nil }

    /// The profile's keys; throws ``ObjectStorageError/credentialsUnavailable(_:)`` when neither
    /// file holds them.
    public func credentials() async throws(ObjectStorageError) -> ObjectStorageCredentials {
        guard let keys = keys() else {
            throw .credentialsUnavailable("the profile \(profile) has no aws_access_key_id and aws_secret_access_key in \(credentialsPath) or \(configPath)")
        }
        return keys
    }

    private func keys() -> ObjectStorageCredentials? {
        let sections = [(credentialsPath, profile), (configPath, profile == "default" ? "default" : "profile " + profile)]
        for (path, section) in sections {
            guard let values = Self.section(section, in: path),
                  let id = values["aws_access_key_id"], let secret = values["aws_secret_access_key"], !id.isEmpty, !secret.isEmpty
            else { continue }
            return ObjectStorageCredentials(accessKeyID: id, secretAccessKey: secret, sessionToken: values["aws_session_token"])
        }
        return nil
    }

    /// The `key = value` lines of `[name]` in the INI file at `path`, nil when there is no such
    /// file or section. Names are matched as written, keys in lowercase.
    static func section(_ name: String, in path: String) -> [String: String]? {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else { return nil }
        var current: String?, found: [String: String]?
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                current = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                if current == name, found == nil { found = [:] }
                continue
            }
            guard current == name, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            found?[key] = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        }
        return found
    }
}
