import ArgumentParser
import Foundation

/// A failure a command reports as one line on standard error, exiting with status 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ message: String) { description = message }

    /// Prints a usage error found while running (a bad URL in a list) as `webimage: <message>`
    /// and gives the exit code for bad arguments, 64, as ArgumentParser does for its own.
    static func usage(_ error: ValidationError) -> ExitCode {
        FileHandle.standardError.write(Data("webimage: \(error)\n".utf8))
        return ExitCode.validationFailure
    }

    /// Runs `body` and returns what it returns; any error it throws is printed as
    /// `webimage: <message>` and ends the process with status 1.
    static func reporting<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            FileHandle.standardError.write(Data("webimage: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}
