// swift-tools-version: 6.0
import Foundation
import PackageDescription

// Vignette by URL and version, as any package would name it. `scripts/consumer-check.sh` points
// VIGNETTE_PACKAGE_URL at a tagged local clone; a real project writes the repository's URL.
let vignetteURL = ProcessInfo.processInfo.environment["VIGNETTE_PACKAGE_URL"] ?? "https://github.com/OWNER/vignette"

let package = Package(
    name: "ThumbnailSize",
    dependencies: [
        .package(url: vignetteURL, from: "0.1.0")
    ],
    targets: [
        .executableTarget(
            name: "ThumbnailSize",
            dependencies: [
                .product(name: "VignetteCore", package: "vignette"),
                .product(name: "VignetteImaging", package: "vignette"),
                .product(name: "VignetteGenerators", package: "vignette"),
            ]
        )
    ]
)
