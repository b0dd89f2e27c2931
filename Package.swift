// swift-tools-version: 6.0
import PackageDescription

/// Strict settings shared by every Swift target (see DESIGN.md, "Habits").
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// A library or executable target of ours, with the strict settings.
func vignetteTarget(
    _ name: String, _ dependencies: [Target.Dependency], resources: [Resource]? = nil, executable: Bool = false
) -> Target {
    executable
        ? .executableTarget(name: name, dependencies: dependencies, swiftSettings: strictSettings)
        : .target(name: name, dependencies: dependencies, resources: resources, swiftSettings: strictSettings)
}

/// The test target of one module; `fixtures` copies its `Fixtures/` folder into the bundle.
func testTarget(_ name: String, _ dependencies: [Target.Dependency], fixtures: Bool = false) -> Target {
    .testTarget(
        name: name, dependencies: dependencies, resources: fixtures ? [.copy("Fixtures")] : nil, swiftSettings: strictSettings)
}

let package = Package(
    name: "Vignette",
    products: [
        .executable(name: "vignette", targets: ["VignetteCLI"]),
        // The program vignette starts for the decoders it isolates (libheif, libjxl): installed
        // beside it (scripts/install.sh), else the decoders run in a fork.
        .executable(name: "vignette-decode", targets: ["vignette-decode"]),
        .library(name: "VignetteCore", targets: ["VignetteCore"]),
        .library(name: "VignetteImaging", targets: ["VignetteImaging"]),
        .library(name: "VignetteGenerators", targets: ["VignetteGenerators"]),
        .library(name: "VignetteCache", targets: ["VignetteCache"]),
        .library(name: "VignetteBatch", targets: ["VignetteBatch"]),
        .library(name: "VignetteServer", targets: ["VignetteServer"]),
        .library(name: "VignetteDBus", targets: ["VignetteDBus"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/JohnSundell/Ink", from: "0.6.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    ],
    targets: [
        // System libraries through pkg-config (no unsafe flags, so other packages can depend on
        // Vignette by version); the C shim is their only user. Debian's libbz2-dev ships no .pc
        // file: bz2 is linked by name, like giflib and LibRaw below.
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CLZMA", pkgConfig: "liblzma", providers: [.apt(["liblzma-dev"])]),
        // libheif, libjxl, LibRaw, libtiff, LittleCMS, libwebp, OpenJPEG, OpenEXRCore and libjbig are opened on first use
        // (vgn_lazy.c), not linked: loading them and their dependencies cost every process about
        // 9 ms. Their headers are enough (in the compiler's standard paths; OpenJPEG's in a
        // versioned folder vgn_jp2.c names, OpenEXR's in OpenEXR/).
        .systemLibrary(name: "CWebP", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CTIFF", providers: [.apt(["libtiff-dev"])]),
        .systemLibrary(
            name: "CHeif",
            providers: [.apt(["libheif-dev", "libdav1d-dev", "libopenjp2-7-dev", "libcharls-dev", "libopenexr-dev", "libjbig-dev"])]),
        .systemLibrary(name: "CLCMS", providers: [.apt(["liblcms2-dev"])]),
        // libdbus-1 is opened on first use too (vgn_dbus_lib.h), but its headers are not in the
        // standard paths: pkg-config gives them, with a -ldbus-1 that release builds leave out
        // (scripts/release-pkg-config.sh).
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .target(
            name: "CVignetteCodecs",
            dependencies: ["CJPEG", "CPNG", "CFreeType", "CZlib", "CLZMA", "CWebP", "CTIFF", "CHeif", "CLCMS"],
            // giflib (libgif-dev) ships no .pc file: linked by name; libzstd (libzstd-dev) likewise,
            // its headers being in /usr/include (libtiff already loads it). LibRaw's (libraw-dev)
            // adds -fopenmp and libjxl's (libjxl-dev) -DHWY_SHARED_DEFINE, flags SwiftPM refuses;
            // their headers are found without them.
            linkerSettings: [
                .linkedLibrary("bz2"), .linkedLibrary("gif"), .linkedLibrary("zstd"), .linkedLibrary("deflate"), .linkedLibrary("m"),
            ]
        ),
        .executableTarget(name: "vignette-decode", dependencies: ["CVignetteCodecs"]),
        // The D-Bus thumbnailer's shim over libdbus-1 (why libdbus: see its header).
        .target(name: "CVignetteDBus", dependencies: ["CDBus"]),
        vignetteTarget(
            "VignetteCore", [.product(name: "Logging", package: "swift-log")], resources: [.copy("Resources/UniformTypes.json")]),
        vignetteTarget("VignetteImaging", ["VignetteCore", "CVignetteCodecs"]),
        vignetteTarget(
            "VignetteGenerators", ["VignetteCore", "VignetteImaging", "CVignetteCodecs", .product(name: "Ink", package: "Ink")]),
        vignetteTarget("VignetteCache", ["VignetteCore", "VignetteImaging", .product(name: "Crypto", package: "swift-crypto")]),
        vignetteTarget("VignetteBatch", ["VignetteCore", "VignetteImaging", "VignetteGenerators", "VignetteCache"]),
        vignetteTarget(
            "VignetteServer",
            [
                "VignetteCore", "VignetteImaging", "VignetteGenerators", "VignetteCache",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ]),
        vignetteTarget(
            "VignetteDBus",
            [
                "CVignetteDBus", "VignetteCore", "VignetteGenerators", "VignetteCache", "VignetteBatch",
                .product(name: "Logging", package: "swift-log"),
            ]),
        vignetteTarget(
            "VignetteCLI",
            [
                "VignetteCore", "VignetteImaging", "VignetteGenerators", "VignetteCache", "VignetteBatch", "VignetteServer",
                "VignetteDBus",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ], executable: true),
        // The fuzz harnesses (scripts/fuzz.sh builds VignetteFuzz with libFuzzer; a plain build
        // replays files through them).
        vignetteTarget("VignetteFuzzing", ["VignetteCore", "VignetteImaging", "VignetteGenerators"]),
        vignetteTarget("VignetteFuzz", ["VignetteFuzzing"], executable: true),
        testTarget("VignetteCoreTests", ["VignetteCore"], fixtures: true),
        testTarget(
            "VignetteImagingTests", ["VignetteImaging", "VignetteCore", .product(name: "Crypto", package: "swift-crypto")], fixtures: true),
        testTarget("VignetteGeneratorsTests", ["VignetteGenerators", "VignetteImaging", "VignetteCore"], fixtures: true),
        testTarget("VignetteCacheTests", ["VignetteCache", "VignetteCore", "VignetteImaging"]),
        testTarget(
            "VignetteServerTests",
            [
                "VignetteServer", "VignetteCore", "VignetteGenerators", "VignetteImaging", "VignetteCache", "VignetteTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ], fixtures: true),
        testTarget("VignetteFuzzingTests", ["VignetteFuzzing"]),
        testTarget("VignetteBatchTests", ["VignetteBatch", "VignetteCache"]),
        testTarget("VignetteCLITests", ["VignetteCore", "VignetteCLI", "VignetteCache", "VignetteImaging", "VignetteTestSupport"]),
        // What more than one test target uses (a raw loopback socket); not a product.
        .target(name: "VignetteTestSupport", path: "Tests/VignetteTestSupport", swiftSettings: strictSettings),
    ]
)
