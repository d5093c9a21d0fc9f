#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InsetCore
import InsetProtocol

// A trace line is one JSON object with a "kind". Instants and durations are
// whole nanoseconds (integers), so a replay sees exactly the values the daemon
// computed with; geometry uses the protocol's wire shapes. This file reads the
// lines; TraceRecordWriter.swift writes them.

private enum Key: String, CodingKey {
    case kind, t, insetdTrace = "insetd-trace", segment, screen, configuration, keyboards, tabletMode, rememberedFrames,
        devices, writer
    case id, placement, device, on, command, source, mode, frame, awaited, visible, running, client, view, field, rect, margin
    case durationNs, curve, reason
}

extension TraceRecord: Decodable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let kind = try c.decode(String.self, forKey: .kind)
        func at() throws -> Instant { Instant(nanoseconds: try c.decode(Int64.self, forKey: .t)) }
        switch kind {
        case "header":
            self = .header(
                TraceHeader(
                    version: try c.decode(Int.self, forKey: .insetdTrace), segment: try c.decode(Int.self, forKey: .segment),
                    screen: try c.decode(WireSize.self, forKey: .screen).size,
                    configuration: try c.decode(TracedConfiguration.self, forKey: .configuration).configuration,
                    keyboards: try c.decode([String: KeyboardPlacement].self, forKey: .keyboards),
                    tabletMode: try c.decode(Bool.self, forKey: .tabletMode),
                    rememberedFrames: Dictionary(
                        (try c.decodeIfPresent([RememberedFrame].self, forKey: .rememberedFrames) ?? []).map {
                            ($0.screen.size, $0.frame.rect)
                        }, uniquingKeysWith: { _, last in last }),
                    devices: try c.decodeIfPresent([WireDevice].self, forKey: .devices) ?? [],
                    writer: try c.decodeIfPresent(String.self, forKey: .writer) ?? ""))
        case "tick": self = .tick(at: try at())
        case "reconfigure":
            self = .reconfigure(at: try at(), try c.decode(TracedConfiguration.self, forKey: .configuration).configuration)
        case "end": self = .end(reason: try c.decode(String.self, forKey: .reason))
        default:
            let (event, source) = try Self.decodeEvent(kind, c)
            self = .event(at: try at(), event, source: source)
        }
    }

    /// Every event kind, for error messages.
    static let eventKinds = [
        "attached", "detached", "tablet-mode", "command", "mode", "floating-frame", "frame-awaited", "osk-animation", "osk-visibility", "osk-running", "register", "update",
        "unregister", "client-gone", "focus", "blur", "scroll", "transition", "dismiss",
    ]

    private static func decodeEvent(
        _ kind: String, _ c: KeyedDecodingContainer<Key>
    ) throws -> (PipelineEvent, TraceSource?) {
        func client() throws -> ClientID { ClientID(try c.decode(String.self, forKey: .client)) }
        func view() throws -> ViewID { ViewID(client: try client(), name: try c.decode(String.self, forKey: .view)) }
        let event: PipelineEvent
        switch kind {
        case "attached":
            event = .keyboardAttached(
                id: try c.decode(String.self, forKey: .id), placement: try c.decode(KeyboardPlacement.self, forKey: .placement))
        case "detached": event = .keyboardDetached(id: try c.decode(String.self, forKey: .id))
        case "tablet-mode": event = .tabletMode(try c.decode(Bool.self, forKey: .on))
        case "command": event = .command(try c.decode(KeyboardCommand.self, forKey: .command))
        case "mode": event = .mode(try c.decode(KeyboardMode.self, forKey: .mode))
        case "floating-frame": event = .floatingFrame(try c.decodeIfPresent(WireRect.self, forKey: .frame)?.rect)
        case "frame-awaited": event = .frameAwaited(try c.decode(Bool.self, forKey: .awaited))
        case "osk-running": event = .oskRunning(try c.decode(Bool.self, forKey: .running))
        case "osk-visibility": event = .oskVisibility(try c.decode(Bool.self, forKey: .visible))
        case "osk-animation":
            // No duration: the bridge said it does not know (the configured animation stands).
            event = .oskAnimation(
                try c.decodeIfPresent(Int64.self, forKey: .durationNs).map {
                    Animation(duration: .nanoseconds($0), curve: try c.decode(AnimationCurve.self, forKey: .curve))
                })
        case "register", "update":
            let wire = try c.decode(WireView.self, forKey: .view)
            let id = ViewID(client: try client(), name: wire.view)
            event = kind == "register" ? .register(id, wire.description) : .update(id, wire.description)
        case "unregister": event = .unregister(try view())
        case "client-gone": event = .clientGone(try client())
        case "focus": event = .focus(try view(), field: try c.decode(WireRect.self, forKey: .field).rect)
        case "blur": event = .blur(try view())
        case "scroll":
            event = .scrollToVisible(
                ScrollRequest(
                    view: try view(), rect: try c.decode(WireRect.self, forKey: .rect).rect,
                    margin: try c.decodeIfPresent(Double.self, forKey: .margin)))
        case "transition":
            event = .transition(
                duration: .nanoseconds(try c.decode(Int64.self, forKey: .durationNs)),
                screen: try c.decodeIfPresent(WireSize.self, forKey: .screen)?.size)
        case "dismiss": event = .interactiveDismiss(try view())
        default:
            let known = (["header", "tick", "reconfigure", "end"] + eventKinds).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: c, debugDescription: "unknown kind \"\(kind)\" (known: \(known))")
        }
        return (event, try decodeSource(c))
    }

    private static func decodeSource(_ c: KeyedDecodingContainer<Key>) throws -> TraceSource? {
        guard let source = try c.decodeIfPresent(String.self, forKey: .source) else { return nil }
        switch source {
        case "device": return .device(try c.decodeIfPresent(WireDevice.self, forKey: .device))
        case "hotkey": return .hotkey
        default:
            guard source.hasPrefix("client ") else { return nil }
            return .client(ClientID(String(source.dropFirst("client ".count))))
        }
    }
}

/// `PipelineConfiguration` as a trace holds it: durations in nanoseconds.
struct TracedConfiguration: Decodable {
    var mode: KeyboardMode
    var portraitHeight: Double
    var landscapeHeight: Double
    var accessoryBarHeight: Double
    var hardwareHoldOffNs: Int64
    var animationNs: Int64
    var animationCurve: AnimationCurve
    var ignoreExternalKeyboards: Bool
    var filterWindowNs: Int64
    var navigationThresholdNs: Int64

    var configuration: PipelineConfiguration {
        PipelineConfiguration(
            policy: KeyboardPolicyConfiguration(
                mode: mode, portraitHeight: portraitHeight, landscapeHeight: landscapeHeight,
                accessoryBarHeight: accessoryBarHeight, hardwareHoldOff: .nanoseconds(hardwareHoldOffNs),
                animation: Animation(duration: .nanoseconds(animationNs), curve: animationCurve),
                ignoreExternalKeyboards: ignoreExternalKeyboards),
            filterWindow: .nanoseconds(filterWindowNs), navigationThreshold: .nanoseconds(navigationThresholdNs))
    }
}

/// A JSON-lines file split at its newlines: every line, a cut-short last one
/// included, and whether the file ended mid-line (insetd stopped mid-write).
func splitLines(_ data: Data) -> (lines: [Data.SubSequence], lastLineCutShort: Bool) {
    var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    // A file that ends in a newline splits into a last, empty piece.
    let cutShort = lines.last.map { !$0.isEmpty } ?? false
    if !cutShort { lines.removeLast() }
    return (lines, cutShort)
}

/// One remembered frame of a header: the screen size it was reported for, and the frame.
struct RememberedFrame: Decodable {
    var screen: WireSize
    var frame: WireRect
}
