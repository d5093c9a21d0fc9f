#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InsetCore
import InsetProtocol

// A trace line is one JSON object with a "kind". Instants and durations are
// whole nanoseconds (integers), so a replay sees exactly the values the daemon
// computed with; geometry uses the protocol's wire shapes.

private enum Key: String, CodingKey {
    case kind, t, insetdTrace = "insetd-trace", segment, screen, configuration, keyboards, tabletMode, devices, writer
    case id, placement, device, on, command, source, mode, frame, client, view, field, rect, margin
    case durationNs, reason
}

extension TraceRecord: Codable {
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

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        switch self {
        case .header(let header):
            try c.encode("header", forKey: .kind)
            try c.encode(header.version, forKey: .insetdTrace)
            try c.encode(header.segment, forKey: .segment)
            try c.encode(WireSize(header.screen), forKey: .screen)
            try c.encode(TracedConfiguration(header.configuration), forKey: .configuration)
            try c.encode(header.keyboards, forKey: .keyboards)
            try c.encode(header.tabletMode, forKey: .tabletMode)
            try c.encode(header.devices, forKey: .devices)
            try c.encode(header.writer, forKey: .writer)
        case .event(let at, let event, let source):
            try c.encode(at.nanoseconds, forKey: .t)
            try Self.encode(event, into: &c)
            switch source {
            case .device(let device)?:
                try c.encode("device", forKey: .source)
                try c.encodeIfPresent(device, forKey: .device)
            case .hotkey?: try c.encode("hotkey", forKey: .source)
            case .client(let client)?: try c.encode("client \(client.rawValue)", forKey: .source)
            case nil: break
            }
        case .tick(let at):
            try c.encode("tick", forKey: .kind)
            try c.encode(at.nanoseconds, forKey: .t)
        case .reconfigure(let at, let configuration):
            try c.encode("reconfigure", forKey: .kind)
            try c.encode(at.nanoseconds, forKey: .t)
            try c.encode(TracedConfiguration(configuration), forKey: .configuration)
        case .end(let reason):
            try c.encode("end", forKey: .kind)
            try c.encode(reason, forKey: .reason)
        }
    }

    /// Every event kind, for error messages.
    static let eventKinds = [
        "attached", "detached", "tablet-mode", "command", "mode", "floating-frame", "register", "update",
        "unregister", "client-gone", "focus", "blur", "scroll", "transition", "dismiss",
    ]

    private static func encode(_ event: PipelineEvent, into c: inout KeyedEncodingContainer<Key>) throws {
        func kind(_ name: String) throws { try c.encode(name, forKey: .kind) }
        func view(_ id: ViewID) throws {
            try c.encode(id.client.rawValue, forKey: .client)
            try c.encode(id.name, forKey: .view)
        }
        switch event {
        case .keyboardAttached(let id, let placement):
            try kind("attached")
            try c.encode(id, forKey: .id)
            try c.encode(placement, forKey: .placement)
        case .keyboardDetached(let id):
            try kind("detached")
            try c.encode(id, forKey: .id)
        case .tabletMode(let on):
            try kind("tablet-mode")
            try c.encode(on, forKey: .on)
        case .command(let command):
            try kind("command")
            try c.encode(command, forKey: .command)
        case .mode(let mode):
            try kind("mode")
            try c.encode(mode, forKey: .mode)
        case .floatingFrame(let frame):
            try kind("floating-frame")
            try c.encode(frame.map(WireRect.init), forKey: .frame)
        case .register(let id, let description), .update(let id, let description):
            if case .register = event { try kind("register") } else { try kind("update") }
            try c.encode(id.client.rawValue, forKey: .client)
            try c.encode(WireView(view: id.name, description: description), forKey: .view)
        case .unregister(let id):
            try kind("unregister")
            try view(id)
        case .clientGone(let client):
            try kind("client-gone")
            try c.encode(client.rawValue, forKey: .client)
        case .focus(let id, let field):
            try kind("focus")
            try view(id)
            try c.encode(WireRect(field), forKey: .field)
        case .blur(let id):
            try kind("blur")
            try view(id)
        case .scrollToVisible(let request):
            try kind("scroll")
            try view(request.view)
            try c.encode(WireRect(request.rect), forKey: .rect)
            try c.encodeIfPresent(request.margin, forKey: .margin)
        case .transition(let duration, let screen):
            try kind("transition")
            try c.encode(duration.totalNanoseconds, forKey: .durationNs)
            try c.encodeIfPresent(screen.map(WireSize.init), forKey: .screen)
        case .interactiveDismiss(let id):
            try kind("dismiss")
            try view(id)
        }
    }

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

/// `PipelineConfiguration` as a trace writes it: durations in nanoseconds.
struct TracedConfiguration: Codable {
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

    init(_ configuration: PipelineConfiguration) {
        let policy = configuration.policy
        mode = policy.mode
        portraitHeight = policy.portraitHeight
        landscapeHeight = policy.landscapeHeight
        accessoryBarHeight = policy.accessoryBarHeight
        hardwareHoldOffNs = policy.hardwareHoldOff.totalNanoseconds
        animationNs = policy.animation.duration.totalNanoseconds
        animationCurve = policy.animation.curve
        ignoreExternalKeyboards = policy.ignoreExternalKeyboards
        filterWindowNs = configuration.filterWindow.totalNanoseconds
        navigationThresholdNs = configuration.navigationThreshold.totalNanoseconds
    }

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

extension TraceRecord {
    /// The record as one trace line, newline included: keys sorted and slashes
    /// unescaped, so the same record always gives the same readable bytes.
    public func line() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try! encoder.encode(self)
        data.append(UInt8(ascii: "\n"))
        return data
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
