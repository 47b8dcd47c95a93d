// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "OverlayKit",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "OverlayModel", targets: ["OverlayModel"]),
        .library(name: "OverlayKit", targets: ["OverlayKit"]),
        .library(name: "OverlayKitServer", targets: ["OverlayKitServer"]),
        .executable(name: "overlaykit", targets: ["overlaykit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        // `overlaykit serve`'s HTTP server: SwiftNIO's HTTP/1 stack (llhttp's parser, its limits and
        // accept backoff); no FoundationNetworking, so the static release build links without libcurl.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Plugin only: `swift package generate-documentation` builds the DocC catalog.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Value types only: coordinates, map points, overlays, features, styles, diagnostics.
        .target(name: "OverlayModel"),
        // The pipeline stages, filed by format and stage (docs/design.md: which folder may use which).
        .target(
            name: "OverlayKit",
            dependencies: ["OverlayModel", "CLibXML2", "CCairo", "CSQLite", "CSystemZlib", "CLibDeflate", "CMalloc", "CZstd", "CSnappy", "CBrotli", "CLZ4", "ZIPFoundation"],
            // The script that writes JSON/JSONNumberParser+PowersOfFive.swift.
            exclude: ["JSON/generate_powers_of_five.py"]
        ),
        // libxml2's streaming reader, for KML (Debian: libxml2-dev); only the files in KML/XML/ import it.
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // cairo for PNG rendering and label glyphs (Debian: libcairo2-dev); only Render/CairoCanvas.swift and Glyphs/CairoGlyphRasterizer.swift import it.
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        // SQLite for MBTiles archives (Debian: libsqlite3-dev); only Tile/Archive/MBTilesArchive.swift imports it.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // zlib for KMZ entries, gzip tiles and PMTiles directories (Debian: zlib1g-dev); only IO/Compression/Inflater.swift and IO/Compression/Deflater.swift import it (KMZ entries, and gzip for Tile/Archive/Gzip.swift). (Not "CZlib": ZIPFoundation already defines that module.)
        .systemLibrary(name: "CSystemZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // libdeflate for gzip of whole buffers: tiles, PMTiles directories and metadata (Debian:
        // libdeflate-dev); only IO/Compression/WholeBufferGzip.swift imports it. zlib stays for streams and reading.
        .systemLibrary(name: "CMalloc"),
        .systemLibrary(name: "CLibDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        // The Parquet page codecs besides gzip (zlib above), for GeoParquet; only
        // GeoParquet/Codecs/ParquetCodec.swift imports them, for reading and (zstd, snappy) writing (Debian: libzstd-dev, libsnappy-dev, libbrotli-dev, liblz4-dev).
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        .systemLibrary(name: "CSnappy", pkgConfig: "snappy", providers: [.apt(["libsnappy-dev"])]),
        .systemLibrary(name: "CBrotli", pkgConfig: "libbrotlidec", providers: [.apt(["libbrotli-dev"])]),
        .systemLibrary(name: "CLZ4", pkgConfig: "liblz4", providers: [.apt(["liblz4-dev"])]),
        // The preview server of `overlaykit serve` (tiles, TileJSON, style, MapLibre page): the one
        // target with an HTTP dependency, so OverlayKit itself has none.
        .target(
            name: "OverlayKitServer",
            dependencies: ["OverlayKit", .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                           .product(name: "NIOHTTP1", package: "swift-nio"),
                           .product(name: "NIOConcurrencyHelpers", package: "swift-nio")]
        ),
        // The command-line tool: glue over OverlayKit.
        .executableTarget(
            name: "overlaykit",
            dependencies: ["OverlayKit", "OverlayKitServer", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // A small program showing the library API (see Examples/LibraryAPI).
        .executableTarget(name: "overlaykit-example", dependencies: ["OverlayKit"], path: "Examples/LibraryAPI"),
        // Where test inputs are (package root, shared corpus), for every test target.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Inputs and checks the library and slow tests share (tile fixtures, polygon coverages,
        // the MLT-against-MVT tile comparison); they reach the library's internals.
        .target(name: "OverlayKitTestFixtures", dependencies: ["OverlayKit", "OverlayModel"], path: "Tests/OverlayKitTestFixtures"),
        // The repository's own rules (README's test table, the design's folder table, doc comments,
        // skips): source and document checks that need no library build.
        .testTarget(name: "OverlayKitLintTests", dependencies: ["TestSupport"]),
        .testTarget(name: "OverlayModelTests", dependencies: ["OverlayModel"]),
        .testTarget(name: "OverlayKitTests", dependencies: ["OverlayKit", "TestSupport", "OverlayKitTestFixtures"], exclude: ["Golden"]),
        // The preview server in-process: every endpoint over real loopback sockets.
        .testTarget(name: "OverlayKitServerTests", dependencies: ["OverlayKitServer", "TestSupport"]),
        // Runs the built `overlaykit` binary through real processes and pipes.
        .testTarget(name: "OverlayKitCLITests", dependencies: ["overlaykit", "TestSupport"]),
        // The slow process tests (SIGKILL loops, peak memory, Spark, MapLibre in Chromium, archive
        // clients, the man page): `swift test --filter OverlayKitSlowTests`.
        .testTarget(name: "OverlayKitSlowTests", dependencies: ["overlaykit", "OverlayKit", "TestSupport", "OverlayKitTestFixtures"]),
    ]
)
