import Foundation
import XCTest

/// What a test needs from the machine and may not find there: root to mount a file system, an
/// installed `redis-server` or nginx, Pillow, a free port 8080. On a developer's machine the
/// test is skipped, saying what is missing; with `WEBIMAGE_NO_SKIPS=1` (set by `.ci/run`,
/// which installs everything) it fails instead, so that nothing is skipped silently in CI.
public enum MachineGuard {
    /// Whether a missing need fails the test rather than skipping it (`WEBIMAGE_NO_SKIPS=1`).
    public static let failsInsteadOfSkipping = ProcessInfo.processInfo.environment["WEBIMAGE_NO_SKIPS"] == "1"

    /// What a test throws when the machine lacks what it needs (`reason` says what and how to
    /// get it): an `XCTSkip`, or with `WEBIMAGE_NO_SKIPS=1` an ``Unmet`` failure.
    public static func unmet(_ reason: String) -> any Error {
        if failsInsteadOfSkipping { return Unmet(reason: reason) }
        return XCTSkip(reason)
    }

    /// The failure a need the machine does not meet is under `WEBIMAGE_NO_SKIPS=1`.
    public struct Unmet: Error, CustomStringConvertible {
        /// What is missing, and how to get it.
        public let reason: String

        public var description: String { "WEBIMAGE_NO_SKIPS=1 and this machine cannot run the test: \(reason)" }
    }
}
