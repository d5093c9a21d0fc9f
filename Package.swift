// swift-tools-version: 6.1
import PackageDescription

/// Project code is held to the strictest checks: Swift 6 language mode (complete
/// concurrency checking) everywhere, and warnings fail the build in CI through
/// `.ci/run` (`-Xswiftc -warnings-as-errors` would also reject dependency warnings).
let package = Package(
    name: "insetd",
    products: [
        .library(name: "InsetCore", targets: ["InsetCore"]),
        .library(name: "InsetInput", targets: ["InsetInput"]),
        .library(name: "InsetProtocol", targets: ["InsetProtocol"]),
        .library(name: "InsetTrace", targets: ["InsetTrace"]),
        .library(name: "InsetServer", targets: ["InsetServer"]),
        .library(name: "InsetClient", targets: ["InsetClient"]),
        .executable(name: "insetd", targets: ["insetd"]),
        .executable(name: "insetctl", targets: ["insetctl"]),
        .executable(name: "inset-demo", targets: ["inset-demo"]),
        // The session-side bridge that makes real on-screen keyboards follow insetd.
        .executable(name: "insetd-osk", targets: ["insetd-osk"]),
        // Emulated input hardware for testers of kiosks and devices (docs/HIL-USERS.md).
        .executable(name: "insetd-testbed", targets: ["insetd-testbed"]),
        // Emulated input hardware (umockdev) for the tests and the performance harness.
        .library(name: "InputTestbed", targets: ["InputTestbed"]),
        // Unix sockets and insetd's socket path, for the benchmarks' clients.
        .library(name: "InsetSocket", targets: ["InsetSocket"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    ],
    targets: [
        // Pure: geometry, keyboard model, policy, filter, engine. No I/O, no clock, no C.
        // (libm: `Double.rounded()` lowers to `round`, and nothing else pulls libm in
        // for an executable that imports neither Foundation nor Glibc.)
        .target(name: "InsetCore", linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        // C libraries, found with pkg-config; scripts/bootstrap installs the providers.
        .systemLibrary(name: "CLibudev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        .systemLibrary(name: "CLibevdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        // The configuration file's parser (see InsetDaemon's YAMLNode for why not Yams).
        .systemLibrary(name: "CLibyaml", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        // The Swift runtime's global-executor hook, by name (see DaemonRuntime).
        .target(name: "CConcurrencyHook"),
        .systemLibrary(name: "CUMockdev", pkgConfig: "umockdev-1.0", providers: [.apt(["libumockdev-dev"])]),
        // Hardware: udev discovery, evdev reading, classification, hotkeys, tablet mode.
        .target(
            name: "InsetInput",
            dependencies: [
                "InsetCore", "CLibudev", "CLibevdev", .product(name: "Logging", package: "swift-log"),
                // Devices can be read on the daemon's event loop (EvdevLoopReader).
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Wire messages and framing, shared by the server and every client; the clients' socket connection.
        .target(name: "InsetProtocol", dependencies: ["InsetCore", "InsetSocket"]),
        // Trace records and their replay through the pure core (no I/O of its own).
        .target(name: "InsetTrace", dependencies: ["InsetCore", "InsetProtocol"]),
        // The socket server: sessions, fan-out, authorization.
        .target(
            name: "InsetServer",
            dependencies: [
                "InsetCore", "InsetProtocol", "InsetSocket", .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                // The WebSocket transport for browser pages (insetd.js).
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            // web/insetd*.js and the demo, compiled in (WebAssets).
            plugins: ["WebAssetsPlugin"]
        ),
        // Swift client library: connect, register views, stream events, reconnect and resync.
        .target(
            name: "InsetClient",
            dependencies: [
                "InsetCore", "InsetProtocol", "InsetSocket", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The daemon's logic: configuration, wiring, lifecycle, systemd integration.
        // A library so tests can run it in-process; `insetd` is its entry point.
        .target(
            name: "InsetDaemon",
            dependencies: [
                "InsetCore", "InsetInput", "InsetProtocol", "InsetServer", "InsetSocket", "InsetTrace",
                "CLibyaml", "CConcurrencyHook",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The installed insetd is a multi-call binary: run as insetctl or insetd-osk
        // (symbolic links to it) it is those commands, so that one copy of the Swift
        // runtime and FoundationEssentials serves all three (docs/PERFORMANCE.md, "Footprint").
        .executableTarget(
            name: "insetd",
            dependencies: [
                "InsetDaemon", "InsetInput", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "InsetVersion", "InsetctlCommand", "InsetOSKCommand",
            ]
        ),
        // insetctl's commands, as a library for the multi-call insetd; `insetctl` is its entry point.
        .target(
            name: "InsetctlCommand",
            dependencies: [
                "InsetTrace", "InsetCore", "InsetProtocol", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "InsetVersion", "InsetInput", "InsetSocket",
            ]
        ),
        .executableTarget(name: "insetctl", dependencies: ["InsetctlCommand"]),
        // D-Bus through libsystemd's sd-bus (a non-variadic shim; Swift cannot call C varargs),
        // and its typed wrapper. Only the session-side OSK bridge uses them.
        // sd-bus.h comes from libsystemd-dev; libsystemd itself is opened on first use
        // (lazy.c), so the insetd daemon, the same binary, never loads it.
        .target(name: "CSdBus"),
        .target(name: "DBus", dependencies: ["CSdBus"]),
        // The OSK bridge: follows insetd's keyboard and drives squeekboard, wvkbd, KWin or GNOME.
        .target(name: "InsetOSK", dependencies: ["CWayland", "DBus", "InsetCore", "InsetProtocol", "InsetSocket"]),
        .target(name: "CWayland"),
        // Unix sockets (the one sockaddr_un set-up, errors with errno) and where insetd's socket is.
        .target(name: "InsetSocket", dependencies: ["CSocketCalls"]),
        .target(name: "CSocketCalls"),
        // insetd-osk's command line, as a library for the multi-call insetd.
        .target(
            name: "InsetOSKCommand",
            dependencies: [
                "InsetOSK", "InsetSocket", "InsetVersion", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "insetd-osk", dependencies: ["InsetOSKCommand"]),
        // Every binary's --version, generated from scripts/version at build time.
        .target(name: "InsetVersion", plugins: ["VersionPlugin"]),
        .plugin(name: "VersionPlugin", capability: .buildTool()),
        .plugin(name: "WebAssetsPlugin", capability: .buildTool()),
        // Emulated input hardware: device fixtures generated from code, a umockdev
        // testbed, and child processes. Only tests, Benchmarks/ and insetd-testbed depend on it.
        .target(name: "InputTestbed", dependencies: ["InsetInput", "InsetProtocol", "InsetSocket", "CUMockdev", "CLibevdev"]),
        // The testers' command line over InputTestbed: run a command beside emulated devices, drive them.
        .executableTarget(
            name: "insetd-testbed",
            dependencies: ["InputTestbed", "InsetVersion", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // Replays a scenario through the pure core and prints what clients would receive.
        .executableTarget(
            name: "inset-demo",
            dependencies: [
                "InsetCore", "InsetVersion", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/inset-demo"
        ),
        // The Swift client library in a program: follows one focused view across daemon
        // restarts (scripts/systemd-test runs it against a real systemd).
        .executableTarget(name: "inset-follow", dependencies: ["InsetClient", "InsetCore"], path: "Examples/inset-follow"),
        .testTarget(
            name: "InsetCoreTests",
            dependencies: [
                "InsetCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Scenarios")]
        ),
        .testTarget(
            name: "InsetInputTests",
            dependencies: ["InsetInput", "InputTestbed", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "InsetProtocolTests", dependencies: ["InsetProtocol", "InputTestbed"]),
        .testTarget(
            name: "InsetTraceTests", dependencies: ["InsetTrace", "InsetCore", "InsetProtocol", "InputTestbed"],
            resources: [.copy("Traces")]),
        .testTarget(
            name: "InsetDaemonTests",
            dependencies: [
                "InsetDaemon", "InsetCore", "InsetProtocol", "InsetServer", "InputTestbed", "InsetSocket",
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        .testTarget(
            name: "InsetClientTests", dependencies: ["InsetClient", "InsetCore", "InsetProtocol", "InputTestbed", "InsetSocket"]),
        .testTarget(
            name: "InsetServerTests",
            dependencies: [
                "InsetServer", "InsetProtocol", "InsetSocket", "InputTestbed", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]
        ),
        // End to end against emulated hardware; run under umockdev-wrapper.
        .testTarget(
            name: "InsetInputHILTests",
            dependencies: [
                "InsetInput", "InsetTrace", "InputTestbed", .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Real squeekboard and wvkbd in a headless sway session, KWin's interface on
        // python3-dbusmock; run as root under umockdev-wrapper (scripts/osk-test).
        .testTarget(name: "InsetOSKTests", dependencies: ["InsetOSK", "DBus", "InsetCore", "InsetProtocol", "InputTestbed", "InsetSocket"]),
    ],
    swiftLanguageModes: [.v6]
)

/// The modules on the path from an evdev read to a client's `sendto` (P1, issue 40):
/// the Makefile builds insetd for size (`-Osize`), and these for speed, where
/// `-Osize` left generic code unspecialized (runtime metadata lookups, value-witness
/// copies) and doubled the instructions between the read and the notification
/// (docs/PERFORMANCE.md, "Stop 53"). Only when `INSETD_SPEED_PATH=1` is in the build's
/// environment, as the Makefile and the scripts that link as it does put it: a
/// package that depends on this one by URL would be refused for unsafe flags.
if Context.environment["INSETD_SPEED_PATH"] == "1" {
    let speedPath: Set = ["InsetCore", "InsetInput", "InsetProtocol", "InsetServer", "InsetDaemon"]
    for target in package.targets where speedPath.contains(target.name) {
        // -Xfrontend puts -O after the driver's own -Osize, and the frontend takes the last.
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Xfrontend", "-O"], .when(configuration: .release))]
    }
}
