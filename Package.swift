// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "WebImage",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "WebImage", targets: ["WebImage"]),
        .library(name: "WebImageCodecs", targets: ["WebImageCodecs"]),
        .library(name: "WebImageQuantization", targets: ["WebImageQuantization"]),
        .library(name: "WebImageRedis", targets: ["WebImageRedis"]),
        .library(name: "WebImageObjectStorage", targets: ["WebImageObjectStorage"]),
        .library(name: "WebImageServer", targets: ["WebImageServer"]),
        .library(name: "WebImageTelemetry", targets: ["WebImageTelemetry"]),
        .executable(name: "webimage", targets: ["webimage"]),
        .executable(name: "webimage-benchmarks", targets: ["WebImageBenchmarks"]),
        .executable(name: "webimage-fuzz", targets: ["webimage-fuzz"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // OpenTelemetry's OTLP/HTTP exporter only: the gRPC one would build grpc-swift for nothing.
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        // `swift package generate-documentation` (scripts/docs): the DocC catalogs, checked for broken links.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // `Mutex`, swapped for a lock ThreadSanitizer understands when scripts/sanitize builds with -DWEBIMAGE_TSAN.
        .target(name: "Locking"),

        // The resampler's loops over pixels, in C so that x86-64 gets an AVX2 and FMA build beside
        // the baseline (picked by the loader); no library, no flags.
        .target(name: "CResampling"),

        // The core: image model, formats, coder protocols, loading. Links no image C library.
        .target(
            name: "WebImage",
            dependencies: [
                "Locking",
                "CResampling",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                // Only to tell whether a tracer is installed (HTTPImageDownloader skips spans otherwise).
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]),

        // System libraries, found through pkg-config, installed by .ci/run with apt.
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(
            name: "CWebP", pkgConfig: "libwebpdemux",
            providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CAVIF", pkgConfig: "libavif", providers: [.apt(["libavif-dev"])]),
        .systemLibrary(name: "CHEIF", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        // libde265 directly, for the HEVC frames of HEIF image sequences (libheif 1.15 reads items only).
        .systemLibrary(name: "CDE265", pkgConfig: "libde265", providers: [.apt(["libde265-dev"])]),
        .systemLibrary(name: "CJXL", pkgConfig: "libjxl", providers: [.apt(["libjxl-dev"])]),
        // libtiff: TIFF sources, read and written over memory (wi_tiff.c).
        .systemLibrary(name: "CTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"])]),
        // Little CMS 2: ICC profiles and the conversion of decoded pixels to sRGB.
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        // libimagequant: palette quantization for palette PNGs (WebImageQuantization only).
        .systemLibrary(name: "CImageQuant", pkgConfig: "imagequant", providers: [.apt(["libimagequant-dev"])]),

        // The setjmp/longjmp boundary for libjpeg and libpng: nothing they raise crosses into Swift;
        // zlib for the compressed ICC profiles of PNG's iCCP chunks and for WebImage's own reader
        // of common PNGs (wi_png_fast.c) past 8 MiB of image data; libdeflate (libdeflate-dev) for
        // that reader's smaller images, inflated in one call, and for WebImage's PNG writer
        // (wi_png_write.c). librsvg (librsvg2-dev; over cairo) draws SVG sources at the size
        // asked for, opened with dlopen when the first SVG is drawn (wi_svg.c), not linked: its
        // libraries would cost every process about 10 MiB of resident memory.
        .target(name: "CCodecShims", dependencies: ["CJPEG", "CPNG", "CTIFF"],
                linkerSettings: [.linkedLibrary("z"), .linkedLibrary("deflate"), .linkedLibrary("dl")]),

        // Coders over the system libraries.
        .target(
            name: "WebImageCodecs",
            dependencies: ["WebImage", "Locking", "CCodecShims", "CJPEG", "CPNG", "CGIF", "CWebP", "CAVIF", "CHEIF", "CDE265", "CJXL", "CLCMS2"]),

        // The PaletteQuantizer over libimagequant, a module of its own: libimagequant 2 is
        // GPL-3.0-or-later, and the core and codecs link none of it.
        .target(name: "WebImageQuantization", dependencies: ["WebImage", "CImageQuant"]),

        // A cache tier shared between processes, in Redis, over a small RESP client on SwiftNIO:
        // a module of its own so that the core gains no dependency.
        .target(
            name: "WebImageRedis",
            dependencies: [
                "WebImage", "Locking",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]),

        // S3-compatible object storage: s3:// sources through the downloader and a result tier,
        // signed with AWS Signature Version 4 on swift-crypto (no AWS SDK); the core gains no dependency.
        .target(
            name: "WebImageObjectStorage",
            dependencies: [
                "WebImage", "Locking",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]),

        // imgproxy-compatible URLs, signing and processing for `webimage serve`; the core links none of it.
        .target(
            name: "WebImageServer",
            dependencies: [
                "WebImage", "WebImageCodecs", "WebImageQuantization", "Locking",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]),

        // OpenTelemetry for `webimage serve --open-telemetry`: the tracer the server's spans are
        // made by, exported over OTLP/HTTP by swift-otel; the server links only swift-distributed-tracing.
        .target(
            name: "WebImageTelemetry",
            dependencies: [
                "WebImageServer",
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]),

        .executableTarget(
            name: "webimage",
            dependencies: [
                "WebImage", "WebImageCodecs", "WebImageServer", "WebImageRedis", "WebImageObjectStorage", "WebImageTelemetry",
                "LoopbackHTTPServer",
                "Locking",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]),

        // libFuzzer targets for format detection, every decoder and the URL → request path
        // (scripts/fuzz builds them with -sanitize=fuzzer); a normal build replays saved inputs
        // through the same code.
        .executableTarget(name: "webimage-fuzz", dependencies: ["WebImage", "WebImageCodecs", "WebImageServer", "Locking"]),

        // Benchmarks/run times these cases against Pillow, tjbench and plain-Swift references.
        .executableTarget(
            name: "WebImageBenchmarks",
            dependencies: [
                "WebImage", "WebImageCodecs", "WebImageRedis",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Benchmarks/Sources/WebImageBenchmarks"),

        // A real HTTP server on loopback that records what clients do: for the tests and the demo.
        .target(
            name: "LoopbackHTTPServer",
            dependencies: [
                "Locking",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]),

        // Fixture paths, pixel comparison, child processes and temporary folders, shared by the test targets;
        // load_page.py and probe_documents.py are the selenium scripts HeadlessChromium runs, read by path.
        .target(
            name: "WebImageTestSupport",
            dependencies: [
                "WebImage", "Locking", .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tests/WebImageTestSupport",
            exclude: ["load_page.py", "probe_documents.py"]),
        // Stores entries into a disk cache in a loop, for the tests that kill it mid-write.
        .executableTarget(
            name: "cache-writer", dependencies: ["WebImage", "WebImageTestSupport"], path: "Tests/CacheWriter"),
        // The executables they run are dependencies so that they are built first.
        // The core's tests; the codecs only make and read the images they work with.
        .testTarget(
            name: "WebImageTests", dependencies: ["WebImage", "WebImageCodecs", "CResampling", "WebImageTestSupport", "Locking", "cache-writer"]),
        // References/ holds Pillow's outputs, read by path (see scripts/make-resize-references.py).
        .testTarget(
            name: "WebImageCodecsTests",
            dependencies: ["WebImage", "WebImageCodecs", "WebImageQuantization", "CCodecShims", "WebImageTestSupport", "LoopbackHTTPServer",
                           "Locking", "webimage"],
            exclude: ["References"]),
        // The `webimage` command line run as a binary: decode, info, get, cache commands.
        .testTarget(
            name: "WebImageCLITests",
            dependencies: ["WebImage", "WebImageCodecs", "WebImageTestSupport", "LoopbackHTTPServer", "webimage"]),
        // The loaders against the loopback server, decoding real fixtures with the codecs.
        .testTarget(
            name: "WebImageLoadingTests",
            dependencies: [
                "WebImage", "WebImageCodecs", "WebImageTestSupport", "LoopbackHTTPServer", "Locking",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The Redis tier against a real redis-server each test starts on a free loopback port;
        // `webimage serve` instances sharing one, alone and behind the deploy/ nginx config.
        .testTarget(
            name: "WebImageRedisTests",
            dependencies: [
                "WebImage", "WebImageRedis", "WebImageCodecs", "WebImageTestSupport", "LoopbackHTTPServer", "Locking",
                "webimage",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]),
        // The SigV4 signer against AWS's published test-suite numbers; s3:// sources and the result
        // tier against a real S3-compatible server (moto's, from the test venv) each test starts on
        // loopback; `webimage serve` instances sharing results through a bucket.
        .testTarget(
            name: "WebImageObjectStorageTests",
            dependencies: [
                "WebImage", "WebImageObjectStorage", "WebImageCodecs", "WebImageTestSupport", "LoopbackHTTPServer", "Locking", "webimage",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
        // URL parsing, signing and processing against real fixtures; `webimage sign` run as a binary.
        .testTarget(
            name: "WebImageServerTests",
            dependencies: [
                "WebImageServer", "WebImage", "WebImageCodecs", "WebImageTelemetry", "WebImageTestSupport", "LoopbackHTTPServer",
                "Locking", "webimage",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
