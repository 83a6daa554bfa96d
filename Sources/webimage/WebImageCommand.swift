import ArgumentParser
import WebImage
import WebImageCodecs

/// The `webimage` command-line tool: WebImage's pipeline from a shell.
@main
struct WebImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webimage",
        abstract: "Load, decode and inspect images with WebImage, SDWebImage for Linux.",
        discussion: """
            Examples:
              webimage demo                      (no network needed: a gallery on loopback)
              webimage get https://example.com/cat.jpg -o out --thumbnail 256
              webimage info photo.jpg
              webimage decode animation.gif -o last.png --frame last
              webimage sign --key 736563726574 --salt 68656C6C6F /w:300/plain/https://example.com/a.jpg
            """,
        version: "webimage \(WebImageVersion.string)",
        subcommands: [
            DemoCommand.self, GetCommand.self, InfoCommand.self, DecodeCommand.self, CacheCommand.self, SignCommand.self,
            ServeCommand.self,
        ])

    /// Registers the system-library coders once, before any subcommand runs.
    static func prepareCoders() {
        WebImageCodecs.registerDefaults()
    }
}
