import Foundation
import WebImageServer

/// The URL `webimage serve` prints to try it: the first image of the served folder (by name,
/// one that needs no percent-encoding), fitted into 300 × 300 and converted to WebP, signed
/// when signing is on, in imgproxy's form or, when only thumbor's is answered, thumbor's, on an
/// address this machine reaches. Pasted into curl, it answers.
struct ServeExample {
    /// The file extensions taken for images.
    private static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "gif", "webp", "avif"]

    /// The whole URL.
    let url: String

    /// The example for what `responder` serves on `host`:`port`; nil without a local folder or
    /// an image in it.
    init?(responder: ImageServerResponder, host: String, port: Int) {
        guard let root = responder.processor.sources.localRoot,
              let names = try? FileManager.default.contentsOfDirectory(atPath: root.path)
        else { return nil }
        let plain = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
        let image = names.sorted().first { name in
            var isFolder: ObjCBool = false
            return Self.imageExtensions.contains(URL(fileURLWithPath: name).pathExtension.lowercased())
                && name.unicodeScalars.allSatisfy(plain.contains)
                && FileManager.default.fileExists(atPath: root.appendingPathComponent(name).path, isDirectory: &isFolder)
                && !isFolder.boolValue
        }
        guard let image else { return nil }
        // A server listening on every address is reached here through loopback.
        let reachable = host == "0.0.0.0" ? "127.0.0.1" : host == "::" ? "::1" : host
        // In imgproxy's form unless only thumbor's is answered.
        let router = responder.router
        url = Self.baseURL(host: reachable, port: port) + responder.listening.pathPrefix + (router.answersImgproxyURLs
            ? router.imgproxySigner.sign("/rs:fit:300:300/plain/local:///\(image)@webp")
            : router.thumborSigner.sign("fit-in/300x300/filters:format(webp)/local:///\(image)"))
    }

    /// `http+unix://%2Frun%2Fwebimage.sock`: a Unix socket's address as a URL (AsyncHTTPClient's and
    /// curl's `--unix-socket` take the path).
    static func baseURL(socketPath: String) -> String {
        "http+unix://" + (socketPath.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? socketPath)
    }

    /// `http://127.0.0.1:8080`, `http://[::1]:8080`: the server's address as a URL.
    static func baseURL(host: String, port: Int) -> String {
        "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}
