import Foundation
import XCTest

/// What a test needs from the machine and may not find there. Two kinds:
/// - a package `scripts/install-deps` or `scripts/test` installs (`redis-server`, nginx, Chromium
///   and its driver, `script(1)`; Pillow and selenium in `.build/venv`):
///   on a developer's machine the test is skipped, saying what is missing; with
///   `WEBIMAGE_NO_SKIPS=1` (set by `.ci/run`, which installs them) it fails instead, so that
///   nothing installable is skipped silently in CI;
/// - a permission or a resource no script can grant (mounting a file system, extended
///   attributes on the temporary folder's file system, a free port 8080): the test is skipped
///   everywhere, saying why, because a container may refuse them whatever is installed.
public enum MachineGuard {
    /// Whether a missing package fails the test rather than skipping it (`WEBIMAGE_NO_SKIPS=1`).
    public static let failsInsteadOfSkipping = ProcessInfo.processInfo.environment["WEBIMAGE_NO_SKIPS"] == "1"

    /// What a test throws when a package it needs is not installed (`reason` says which and how
    /// to get it): an `XCTSkip`, or with `WEBIMAGE_NO_SKIPS=1` an ``Unmet`` failure.
    public static func notInstalled(_ reason: String) -> any Error {
        if failsInsteadOfSkipping { return Unmet(reason: reason) }
        return XCTSkip(reason)
    }

    /// What a test throws when the machine does not permit what it needs (`reason` says what):
    /// always an `XCTSkip`.
    public static func notPermitted(_ reason: String) -> any Error {
        XCTSkip(reason)
    }

    /// The failure a missing package is under `WEBIMAGE_NO_SKIPS=1`.
    public struct Unmet: Error, CustomStringConvertible {
        /// What is missing, and how to get it.
        public let reason: String

        public var description: String { "WEBIMAGE_NO_SKIPS=1 and this machine lacks a package the test needs: \(reason)" }
    }
}
