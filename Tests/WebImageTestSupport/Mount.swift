import Foundation

/// File systems a test mounts to make disk faults real: a tiny tmpfs that fills up, a
/// read-only view of a folder. Mounting needs privileges: a process that is not root mounts
/// through `sudo -n` (as CI machines that install packages with sudo allow); each call throws
/// ``Failure`` when the system refuses, so that the test can skip with the reason.
public enum Mount {
    /// Mounts a tmpfs of `bytes` bytes on the existing folder `folder`, owned by this process's user.
    public static func tmpfs(at folder: URL, bytes: Int) throws {
        try run("mount", ["-t", "tmpfs", "-o", "size=\(bytes),uid=\(getuid()),gid=\(getgid())", "tmpfs", folder.path])
    }

    /// Makes the existing folder `folder` read-only, for root too: a read-only bind mount of
    /// the folder onto itself.
    public static func readOnly(_ folder: URL) throws {
        try run("mount", ["--bind", folder.path, folder.path])
        do {
            try run("mount", ["-o", "remount,bind,ro", folder.path])
        } catch {
            try? unmount(folder)
            throw error
        }
    }

    /// Unmounts whatever is mounted on `folder`.
    public static func unmount(_ folder: URL) throws {
        try run("umount", [folder.path])
    }

    /// The system refused: the command and its standard error.
    public struct Failure: Error, CustomStringConvertible {
        public let command: String
        public let message: String
        public var description: String { "\(command) failed: \(message)" }
    }

    private static func run(_ program: String, _ arguments: [String]) throws {
        let command = (getuid() == 0 ? [] : ["sudo", "-n"]) + [program] + arguments
        let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), command, timeout: 30)
        guard result.status == 0 else {
            throw Failure(command: command.joined(separator: " "), message: result.error)
        }
    }
}
