import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// How errors thrown by AsyncHTTPClient, NIO and NIOSSL become ``WebImageError``s that say what
/// happened, keeping the original text as the ``NetworkFailure/cause``.
extension HTTPImageDownloader {
    /// The ``WebImageError`` for an error thrown while fetching `url`.
    func webImageError(from error: any Error, url: URL) -> WebImageError {
        if let error = error as? WebImageError { return error }
        if error is CancellationError { return .cancelled }
        let host = url.host ?? "the server"
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        let cause = String(describing: error)
        if let error = error as? HTTPClientError {
            switch error {
            case .readTimeout, .connectTimeout, .deadlineExceeded, .writeTimeout, .tlsHandshakeTimeout:
                return .timedOut(seconds: configuration.effectiveTimeout)
            case .cancelled:
                return .cancelled
            case .invalidURL, .emptyHost, .emptyScheme:
                return .invalidURL("\(url.absoluteString) is not a URL AsyncHTTPClient can request")
            default:
                break
            }
        }
        return .network(NetworkFailure(reason(for: error, host: host, port: port), cause: cause))
    }

    /// What `error` means for a request to `host`:`port`.
    private func reason(for error: any Error, host: String, port: Int) -> NetworkFailure.Reason {
        switch error {
        case let error as HTTPClientError:
            switch error {
            case .redirectCycleDetected: return .redirectLoop
            case .redirectLimitReached: return .tooManyRedirects(limit: configuration.maxRedirects)
            case .remoteConnectionClosed, .bodyLengthMismatch, .uncleanShutdown: return .connectionLost
            default: return .other("the request failed: \(error)")
            }
        case let error as NIOConnectionError:
            if error.dnsAError != nil || error.dnsAAAAError != nil { return .hostNotFound(error.host) }
            let refused = error.connectionErrors.contains { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }
            if refused { return .connectionRefused(host: error.host, port: error.port) }
            let first = error.connectionErrors.first.map { reason(for: $0.error, host: host, port: port) }
            return first ?? .other("cannot connect to \(host):\(port)")
        case let error as IOError:
            switch error.errnoCode {
            case ECONNREFUSED: return .connectionRefused(host: host, port: port)
            case ECONNRESET, EPIPE: return .connectionLost
            default: return .other("cannot talk to \(host):\(port): \(SystemErrorText.describe(errno: error.errnoCode))")
            }
        case let error as NIOSSLError:
            if case .handshakeFailed(let failure) = error, "\(failure)".contains("CERTIFICATE_VERIFY_FAILED") {
                return .untrustedCertificate(host: host)
            }
            return error == .uncleanShutdown ? .connectionLost : .secureConnectionFailed(host: host)
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            return .untrustedCertificate(host: host)
        case is NIOSSLExtraError:
            return .secureConnectionFailed(host: host)
        default:
            return .other("the request to \(host):\(port) failed: \(error)")
        }
    }
}
