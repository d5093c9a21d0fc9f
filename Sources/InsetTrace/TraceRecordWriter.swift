#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InsetCore
import InsetProtocol

// A trace line's fields, written by the protocol's JSON writer (the one that
// writes the daemon's messages, so numbers and strings are written alike), in
// Foundation's `.sortedKeys` order: the same record always gives the same
// readable bytes. TraceRecordCoding.swift reads them back.

private typealias Field = JSONStreamWriter.UnorderedField

extension TraceRecord {
    /// The record as one trace line, newline included.
    public func line() -> Data {
        Data(JSONStreamWriter.line(capacity: 512) { $0.fields(unordered: fields) })
    }

    private var fields: [Field] {
        switch self {
        case .header(let header):
            [
                ("kind", { $0.string("header") }), ("insetd-trace", { $0.integer(header.version) }),
                ("segment", { $0.integer(header.segment) }), ("screen", { $0.value(header.screen) }),
                ("configuration", { $0.object { $0.fields(unordered: configurationFields(header.configuration)) } }),
                ("keyboards", { w in
                    w.object { $0.fields(unordered: header.keyboards.map { id, placement in (id, { $0.string(placement.rawValue) }) }) }
                }),
                ("tabletMode", { $0.bool(header.tabletMode) }),
                ("devices", { $0.array(header.devices) { $0.value($1) } }),
                ("writer", { $0.string(header.writer) }),
            ] + Self.rememberedFrames(header)
        case .event(let at, let event, let source):
            [("t", { $0.integer(Int(at.nanoseconds)) })] + Self.fields(of: event) + Self.fields(of: source)
        case .tick(let at): [("kind", { $0.string("tick") }), ("t", { $0.integer(Int(at.nanoseconds)) })]
        case .reconfigure(let at, let configuration):
            [
                ("kind", { $0.string("reconfigure") }), ("t", { $0.integer(Int(at.nanoseconds)) }),
                ("configuration", { $0.object { $0.fields(unordered: configurationFields(configuration)) } }),
            ]
        case .end(let reason): [("kind", { $0.string("end") }), ("reason", { $0.string(reason) })]
        }
    }

    /// A run's remembered frames, in the header only when it had some (traces
    /// of runs without keep their bytes).
    private static func rememberedFrames(_ header: TraceHeader) -> [Field] {
        guard !header.rememberedFrames.isEmpty else { return [] }
        let frames = header.rememberedFrames.sorted { ($0.key.width, $0.key.height) < ($1.key.width, $1.key.height) }
        return [
            ("rememberedFrames", { w in
                w.array(frames) { w, entry in
                    w.object { $0.fields(unordered: [("frame", { $0.value(entry.value) }), ("screen", { $0.value(entry.key) })]) }
                }
            })
        ]
    }

    private static func fields(of event: PipelineEvent) -> [Field] {
        func kind(_ name: String) -> Field { ("kind", { $0.string(name) }) }
        func view(_ id: ViewID) -> [Field] { [("client", { $0.string(id.client.rawValue) }), ("view", { $0.string(id.name) })] }
        func rect(_ key: String, _ rect: Rect) -> Field { (key, { $0.value(rect) }) }
        switch event {
        case .keyboardAttached(let id, let placement):
            return [kind("attached"), ("id", { $0.string(id) }), ("placement", { $0.string(placement.rawValue) })]
        case .keyboardDetached(let id): return [kind("detached"), ("id", { $0.string(id) })]
        case .tabletMode(let on): return [kind("tablet-mode"), ("on", { $0.bool(on) })]
        case .command(let command): return [kind("command"), ("command", { $0.string(command.rawValue) })]
        case .mode(let mode): return [kind("mode"), ("mode", { $0.string(mode.rawValue) })]
        case .floatingFrame(let frame): return [kind("floating-frame")] + (frame.map { [rect("frame", $0)] } ?? [])
        case .frameAwaited(let awaited): return [kind("frame-awaited"), ("awaited", { $0.bool(awaited) })]
        case .oskRunning(let running): return [kind("osk-running"), ("running", { $0.bool(running) })]
        case .oskVisibility(let visible): return [kind("osk-visibility"), ("visible", { $0.bool(visible) })]
        case .oskAnimation(let animation):
            return [kind("osk-animation")]
                + (animation.map { animation in
                    [("durationNs", { $0.integer(Int(animation.duration.totalNanoseconds)) }),
                     ("curve", { $0.string(animation.curve.rawValue) })]
                } ?? [])
        case .register(let id, let description), .update(let id, let description):
            let name = if case .register = event { "register" } else { "update" }
            let view = WireView(view: id.name, description: description).jsonFields()
            return [kind(name), ("client", { $0.string(id.client.rawValue) }), ("view", { $0.json(.object(view)) })]
        case .unregister(let id): return [kind("unregister")] + view(id)
        case .clientGone(let client): return [kind("client-gone"), ("client", { $0.string(client.rawValue) })]
        case .focus(let id, let field): return [kind("focus"), rect("field", field)] + view(id)
        case .blur(let id): return [kind("blur")] + view(id)
        case .scrollToVisible(let request):
            return [kind("scroll"), rect("rect", request.rect)] + view(request.view)
                + (request.margin.map { margin in [("margin", { $0.number(margin) })] } ?? [])
        case .transition(let duration, let screen):
            return [kind("transition"), ("durationNs", { $0.integer(Int(duration.totalNanoseconds)) })]
                + (screen.map { size in [("screen", { $0.value(size) })] } ?? [])
        case .interactiveDismiss(let id): return [kind("dismiss")] + view(id)
        }
    }

    private static func fields(of source: TraceSource?) -> [Field] {
        switch source {
        case .device(let device)?:
            [("source", { $0.string("device") })] + (device.map { device in [("device", { $0.value(device) })] } ?? [])
        case .hotkey?: [("source", { $0.string("hotkey") })]
        case .client(let client)?: [("source", { $0.string("client \(client.rawValue)") })]
        case nil: []
        }
    }
}

/// `PipelineConfiguration` as a trace writes it: durations in nanoseconds.
private func configurationFields(_ configuration: PipelineConfiguration) -> [Field] {
    let policy = configuration.policy
    return [
        ("mode", { $0.string(policy.mode.rawValue) }), ("portraitHeight", { $0.number(policy.portraitHeight) }),
        ("landscapeHeight", { $0.number(policy.landscapeHeight) }),
        ("accessoryBarHeight", { $0.number(policy.accessoryBarHeight) }),
        ("hardwareHoldOffNs", { $0.integer(Int(policy.hardwareHoldOff.totalNanoseconds)) }),
        ("animationNs", { $0.integer(Int(policy.animation.duration.totalNanoseconds)) }),
        ("animationCurve", { $0.string(policy.animation.curve.rawValue) }),
        ("ignoreExternalKeyboards", { $0.bool(policy.ignoreExternalKeyboards) }),
        ("filterWindowNs", { $0.integer(Int(configuration.filterWindow.totalNanoseconds)) }),
        ("navigationThresholdNs", { $0.integer(Int(configuration.navigationThreshold.totalNanoseconds)) }),
    ]
}
