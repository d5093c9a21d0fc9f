// swift-tools-version: 6.1
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its directory, which is whatever the
// checkout is called ("insetd", "main", a CI clone's name).
let insetdPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent.lowercased()

// A libFuzzer target for what a client's bytes reach: framing, the protocol
// decoder, the mapping to core events and the core itself, the daemon's answers,
// and the trace reader. Its own package so the main build never compiles it
// with the fuzzer's instrumentation. Build and run: scripts/fuzz.
let package = Package(
    name: "insetd-fuzz",
    dependencies: [.package(path: "../")],
    targets: [
        .executableTarget(
            name: "insetd-fuzz",
            dependencies: [
                .product(name: "InsetCore", package: insetdPackage),
                .product(name: "InsetProtocol", package: insetdPackage),
                .product(name: "InsetTrace", package: insetdPackage),
            ],
            // libFuzzer supplies main(); this target only exports the entry point.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    ]
)
