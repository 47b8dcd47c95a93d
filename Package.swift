// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "OverlayKit",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "OverlayModel", targets: ["OverlayModel"]),
        .library(name: "OverlayKit", targets: ["OverlayKit"]),
        .executable(name: "overlaykit", targets: ["overlaykit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: [
        // Value types only: coordinates, map points, overlays, features, styles, diagnostics.
        .target(name: "OverlayModel"),
        // The pipeline stages: Parse, Normalize, Clip, Simplify, Tile, Serialize, Render, Validate.
        .target(name: "OverlayKit", dependencies: ["OverlayModel", "CLibXML2", "ZIPFoundation"]),
        // libxml2's streaming reader, for KML (Debian: libxml2-dev).
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // The command-line tool: glue over OverlayKit.
        .executableTarget(
            name: "overlaykit",
            dependencies: ["OverlayKit", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // A small program showing the library API (see Examples/LibraryAPI).
        .executableTarget(name: "overlaykit-example", dependencies: ["OverlayKit"], path: "Examples/LibraryAPI"),
        .testTarget(name: "OverlayModelTests", dependencies: ["OverlayModel"]),
        .testTarget(name: "OverlayKitTests", dependencies: ["OverlayKit"]),
        .testTarget(name: "OverlayKitCLITests", dependencies: ["OverlayKit"]),
    ]
)
