import Foundation
import XCTest

extension XCTestCase {
    /// Waits up to `timeout` seconds for `condition`, polling; fails the test if it never holds.
    func waitUntil(timeout: Double = 30, file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) {
        let deadline = Date() + timeout
        while !condition() {
            if Date() > deadline {
                XCTFail("condition still false after \(timeout) s", file: file, line: line)
                return
            }
            usleep(10_000)
        }
    }
}
