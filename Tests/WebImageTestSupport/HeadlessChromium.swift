import Foundation

/// Debian's Chromium, headless, driven by selenium through `load_page.py` (beside this file), for
/// the tests that check what a browser makes of a page: what it asks for, what it shows and
/// what its cache keeps. It runs with a device pixel ratio of 2 and an sRGB display.
public struct HeadlessChromium: Sendable {
    /// Where Debian's `chromium` package puts the browser (`scripts/install-deps` installs it).
    public static let browser = URL(fileURLWithPath: "/usr/bin/chromium")
    /// Where Debian's `chromium-driver` package puts its WebDriver server.
    public static let driver = URL(fileURLWithPath: "/usr/bin/chromedriver")
    /// The folder of the selenium scripts (`load_page.py`, `probe_documents.py`).
    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// A Python that imports selenium.
    let python: URL

    /// Finds the browser, its driver and a Python with selenium (see
    /// ``Python/interpreter(importing:)``); when one is missing, throws
    /// ``MachineGuard/notInstalled(_:)`` naming each one missing and how to install it.
    public init() throws {
        var missing = [Self.browser, Self.driver].map(\.path).filter { !FileManager.default.isExecutableFile(atPath: $0) }
        let python = Python.interpreter(importing: "selenium")
        if python == nil { missing.append("a Python that imports selenium") }
        guard let python, missing.isEmpty else {
            throw MachineGuard.notInstalled("the browser test needs \(missing.joined(separator: ", ")): "
                + "scripts/install-deps installs Debian's chromium and chromium-driver, and scripts/test "
                + "installs selenium into .build/venv (or set WEBIMAGE_PYTHON to a Python that imports it)")
        }
        self.python = python
    }

    /// Loads `page`, waits until each of its images has had its load or error event, then
    /// reloads it and waits again; returns what the browser made of each load. Throws
    /// ``HeadlessChromiumError`` with the script's error output when it fails.
    public func loadAndReload(_ page: URL) throws -> (first: PageLoad, reload: PageLoad) {
        // SE_OFFLINE: were selenium ever to run selenium-manager despite the paths given, it
        // must not download a browser or a driver.
        let result = try ChildProcess.run(python, [Self.scripts.appendingPathComponent("load_page.py").path, page.absoluteString, Self.browser.path, Self.driver.path],
                                          environment: ["SE_OFFLINE": "true"], timeout: 90)
        guard result.status == 0 else {
            throw HeadlessChromiumError(message: "load_page.py exited with \(result.status.map(String.init) ?? "a signal"): \(result.error)")
        }
        let loads = try JSONDecoder().decode(Report.self, from: Data(result.output.utf8)).loads
        guard loads.count == 2 else {
            throw HeadlessChromiumError(message: "load_page.py reported \(loads.count) loads of \(page), not 2")
        }
        return (loads[0], loads[1])
    }

    private struct Report: Decodable {
        let loads: [PageLoad]
    }
}

/// What the browser made of one load of a page.
public struct PageLoad: Decodable, Sendable {
    /// Every `<img>` of the page, in document order.
    public let images: [BrowserImage]
    /// Every request the browser sent for the page, itself included, in order.
    public let requests: [BrowserRequest]

    /// The `<img>` whose `id` is `id`, if there is one.
    public func image(_ id: String) -> BrowserImage? {
        images.first { $0.id == id }
    }

    /// The requests of `url`, in order.
    public func requests(for url: String) -> [BrowserRequest] {
        requests.filter { $0.url == url }
    }
}

/// An `<img>` as the browser has it once its load or error event has fired.
public struct BrowserImage: Decodable, Sendable {
    /// Its `id` attribute.
    public let id: String
    /// The URL the browser chose for it (`currentSrc`: a `srcset` candidate, a `<source>`).
    public let currentSrc: String
    /// `load` or `error`: the event the page recorded for it.
    public let event: String
    /// Its intrinsic size in CSS pixels: the image's pixels divided by the density of the
    /// `srcset` candidate chosen; 0 when it did not load.
    public let naturalWidth: Int, naturalHeight: Int
    /// A PNG of it as shown (in device pixels, twice its CSS size), when its element has a
    /// `data-screenshot` attribute.
    public let screenshot: Data?
}

/// A request the browser sent, as Chromium's DevTools network events tell it.
public struct BrowserRequest: Decodable, Sendable {
    /// The URL asked for.
    public let url: String
    /// The `Accept` field the browser sent.
    public let accept: String?
    /// The status of the answer (304 for a revalidation), nil when the request failed.
    public let status: Int?
    /// The MIME type of the answer, from its `Content-Type`.
    public let mimeType: String?
    /// Whether the browser's own cache answered (memory, disk or prefetch cache).
    public let fromCache: Bool
}

/// `load_page.py` failed: the browser did not start, the page did not finish loading, …
public struct HeadlessChromiumError: Error, CustomStringConvertible {
    /// The script's exit status and error output.
    public let message: String
    public var description: String { message }
}
