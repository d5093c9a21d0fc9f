import Foundation
import InputTestbed
import InsetCore
import Testing

@testable import InsetProtocol

/// The `events` topic on the wire: PROTOCOL.md's examples and the daemon's own
/// encoding validate against the schema, and the topic decodes.
@Suite struct TimelineProtocolTests {
    static var documented: [String] { try! ProtocolDocument.examples("timeline") }

    static func validateAsDaemonMessages(_ lines: [String]) async throws -> (status: Int32, output: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("insetd-timeline-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        return try await validate(["--daemon", file.path])
    }

    @Test func documentedExamplesValidate() async throws {
        #expect(Self.documented.count == 7)
        let result = try await Self.validateAsDaemonMessages(Self.documented)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("7 passed, 0 failed"))
    }

    @Test func everyDecisionAndCauseTheDaemonWritesValidates() async throws {
        let state = TimelineState(keyboard: .bar, hardwareKeyboard: true, tabletMode: false, mode: .auto, devices: 1)
        let device = WireDevice(
            name: "Dell KB216 Wired Keyboard", devnode: "/dev/input/event10", class: "keyboard-external", external: true,
            reason: "usb", vendorProduct: "413c:2113", syspath: "/sys/devices/virtual/input/input10/event10")
        let view = ViewID(client: ClientID("c1"), name: "signup")
        let decisions: [TimelineDecision] = [
            .subscribed, .device(event: "attached", device), .tabletMode(true), .mode(.never), .hardwareKeyboard(false),
            .keyboard(.shown, phase: .willShow, frame: Rect(x: 0, y: 464, width: 1280, height: 336)),
            .adjustment(view, additionalBottomInset: 302),
        ]
        let causes: [TimelineCause] = [
            .subscription, .device(event: "detached", TimelineDevice(device)), .tabletSwitch(on: true), .hotkey(action: "toggle"),
            .client(ClientID("c2"), message: "focus", view: "signup", detail: nil),
            .client(ClientID("c2"), message: "command", view: nil, detail: "toggle"), .clientGone(ClientID("c3")),
            .holdOffExpired(holdOff: .milliseconds(200)), .filterDelivery(window: .milliseconds(100)), .reload,
        ]
        var lines: [String] = []
        for (index, decision) in decisions.enumerated() {
            for cause in causes {
                let entry = TimelineEntry(at: Instant(nanoseconds: Int64(index)), decision: decision, cause: cause, state: state)
                lines.append(String(decoding: DaemonMessage.event(entry).lineBytes().dropLast(), as: UTF8.self))
            }
        }
        let result = try await Self.validateAsDaemonMessages(lines)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("70 passed, 0 failed"))
    }

    @Test func theEventsTopicDecodes() throws {
        let request = try ClientMessageDecoder.decode(Data(#"{"type":"subscribe","topics":["events","devices"],"id":"w"}"#.utf8))
        #expect(request.message == .subscribe(topics: [.events, .devices]))
    }
}
