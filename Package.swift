// swift-tools-version: 6.0
import PackageDescription

/// Strict settings shared by every Swift target (see DESIGN.md, "Habits").
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Vignette",
    products: [
        .executable(name: "vignette", targets: ["VignetteCLI"]),
        .library(name: "VignetteCore", targets: ["VignetteCore"]),
        .library(name: "VignetteImaging", targets: ["VignetteImaging"]),
        .library(name: "VignetteGenerators", targets: ["VignetteGenerators"]),
        .library(name: "VignetteCache", targets: ["VignetteCache"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/JohnSundell/Ink", from: "0.6.0"),
    ],
    targets: [
        .target(
            name: "CVignetteCodecs",
            cSettings: [.unsafeFlags(["-O2", "-I/usr/include/freetype2"])],
            linkerSettings: [
                .linkedLibrary("jpeg"), .linkedLibrary("png"), .linkedLibrary("freetype"),
                .linkedLibrary("z"), .linkedLibrary("bz2"), .linkedLibrary("lzma"),
            ]
        ),
        .target(
            name: "VignetteCore",
            dependencies: [.product(name: "Logging", package: "swift-log")],
            resources: [.copy("Resources/UniformTypes.json")],
            swiftSettings: strictSettings
        ),
        .target(
            name: "VignetteImaging",
            dependencies: ["VignetteCore", "CVignetteCodecs"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "VignetteGenerators",
            dependencies: [
                "VignetteCore", "VignetteImaging", "CVignetteCodecs",
                .product(name: "Ink", package: "Ink"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "VignetteCache",
            dependencies: ["VignetteCore", "VignetteImaging", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "VignetteCLI",
            dependencies: [
                "VignetteCore",
                "VignetteImaging",
                "VignetteGenerators",
                "VignetteCache",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "VignetteCoreTests",
            dependencies: ["VignetteCore"],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "VignetteImagingTests",
            dependencies: ["VignetteImaging", "VignetteCore", .product(name: "Crypto", package: "swift-crypto")],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "VignetteGeneratorsTests",
            dependencies: ["VignetteGenerators", "VignetteImaging", "VignetteCore"],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "VignetteCacheTests",
            dependencies: ["VignetteCache", "VignetteCore", "VignetteImaging"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "VignetteCLITests",
            dependencies: ["VignetteCore", "VignetteCLI", "VignetteCache", "VignetteImaging"],
            swiftSettings: strictSettings
        ),
    ]
)
