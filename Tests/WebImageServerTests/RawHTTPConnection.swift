#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// `send(2)` of `count` bytes at `bytes` on `descriptor`, asking for no `SIGPIPE` on a closed connection.
private func sendWithoutSignal(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
    #else
    send(descriptor, bytes, count, 0)
    #endif
}

/// One TCP connection to a loopback server, written and read as bytes: for what an HTTP client
/// library will not do, such as pipelining requests in one write or seeing the server close.
final class RawHTTPConnection {
    private let descriptor: Int32
    /// Whether a read found the connection closed by the server.
    private(set) var isClosedByServer = false

    /// A connection to 127.0.0.1:`port`, whose reads give up after `timeout`; with a
    /// `receiveBuffer`, the kernel keeps about that many bytes for it unread (`SO_RCVBUF`, set
    /// before connecting so the window stays small), for a client that stops reading.
    init(port: Int, timeout: Duration = .seconds(30), receiveBuffer: Int32? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw POSIXError(.init(rawValue: errno) ?? .ECONNREFUSED)
        }
    }

    deinit { close(descriptor) }

    /// Sends `text` in one write (more when the kernel takes it in parts); throws when the
    /// server has closed the connection, without the `SIGPIPE` that would end the tests.
    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { sendWithoutSignal(descriptor, $0.baseAddress! + sent, $0.count - sent) }
            guard count > 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            sent += count
        }
    }

    /// What arrives until `isComplete` says the bytes so far are enough, the server closes the
    /// connection, or a read times out.
    func receive(until isComplete: (Data) -> Bool = { _ in false }) -> Data {
        var received = Data()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while !isComplete(received) {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else {
                // An end of stream, or a reset: a byte sent after the server closed its side
                // makes the kernel answer with a reset, which the next read reports.
                isClosedByServer = count == 0 || errno == ECONNRESET
                break
            }
            received.append(contentsOf: chunk[..<count])
        }
        return received
    }

    /// Whether anything arrives within `wait`, left to read.
    func receivesAnything(within wait: Duration) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000)
        return poll(&poller, 1, milliseconds) > 0
    }
}
