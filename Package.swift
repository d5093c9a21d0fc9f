// swift-tools-version: 6.1
import PackageDescription

/// Project code is held to the strictest checks: Swift 6 language mode (complete
/// concurrency checking) everywhere, and warnings fail the build in CI through
/// `.ci/run` (`-Xswiftc -warnings-as-errors` would also reject dependency warnings).
let package = Package(
    name: "insetd",
    products: [
        .library(name: "InsetCore", targets: ["InsetCore"]),
        .executable(name: "inset-demo", targets: ["inset-demo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    ],
    targets: [
        // Pure: geometry, keyboard model, policy, filter, engine. No I/O, no clock, no C.
        // (libm: `Double.rounded()` lowers to `round`, and nothing else pulls libm in
        // for an executable that imports neither Foundation nor Glibc.)
        .target(name: "InsetCore", linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        // Replays a scenario through the pure core and prints what clients would receive.
        .executableTarget(
            name: "inset-demo",
            dependencies: ["InsetCore"],
            path: "Examples/inset-demo"
        ),
        .testTarget(
            name: "InsetCoreTests",
            dependencies: [
                "InsetCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Scenarios")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
