// swift-tools-version: 6.1
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its directory, which is whatever the
// checkout is called ("insetd", "main", a CI clone's name).
let insetdPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent.lowercased()

// A package of its own so the main build never pulls benchmark dependencies.
// Run from this directory: `swift package --disable-sandbox benchmark`.
let package = Package(
    name: "insetd-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: "../"),
        // Only the malloc interposer trait: the default runtime-interposer trait
        // needs a package outside the set this project resolves from.
        .package(url: "https://github.com/ordo-one/package-benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // The libraries insetd links, for library-floor (same versions and traits as ../Package.swift).
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        .executableTarget(
            name: "InsetEngineBenchmarks",
            dependencies: [
                .product(name: "InsetCore", package: insetdPackage),
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/InsetEngineBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        // The daemon-level harness (issue 5): real insetd under umockdev, real
        // clients, the C baseline beside it. Run with scripts/perf.
        .executableTarget(
            name: "insetd-perf",
            dependencies: [
                "CPerfSupport",
                .product(name: "InputTestbed", package: insetdPackage),
                .product(name: "InsetSocket", package: insetdPackage),
                .product(name: "InsetProtocol", package: insetdPackage),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/insetd-perf"
        ),
        // epoll for the harness's 1000 clients (Swift's Glibc module has no sys/epoll.h).
        .target(name: "CPerfSupport", path: "Sources/CPerfSupport"),
        // insetd's Swift libraries, idle, without insetd: the floor P5 is compared with.
        .executableTarget(
            name: "library-floor",
            dependencies: [
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Sources/library-floor"
        ),
        // The least a program can do to fan a keyboard change out to many
        // clients (Unix sockets, or WebSocket peers on loopback TCP).
        .executableTarget(name: "fanout-floor", path: "Sources/fanout-floor"),
        // The least a program can do to carry an evdev event to a socket client.
        .executableTarget(
            name: "evdev-baseline",
            path: "Sources/evdev-baseline",
            cSettings: [.unsafeFlags(["-I/usr/include/libevdev-1.0"])],
            linkerSettings: [.linkedLibrary("evdev")]
        ),
    ]
)
