import Foundation
import InsetCore
import InsetProtocol
import InsetTrace
import Testing

let alice = ClientID("1")
let form = ViewID(client: alice, name: "form")
let phone = Size(width: 390, height: 844)
let formDescription = ViewDescription(
    frame: Rect(x: 0, y: 0, width: 390, height: 844), safeAreaInsets: EdgeInsets(top: 47, left: 0, bottom: 34, right: 0),
    contentSize: Size(width: 390, height: 2000))

/// The record's trace line without its newline.
func encode(_ record: TraceRecord) throws -> String {
    String(decoding: record.line().dropLast(), as: UTF8.self)
}

@Suite struct TraceRecordTests {
    static let events: [PipelineEvent] = [
        .keyboardAttached(id: "/sys/devices/usb/input7/event7", placement: .external),
        .keyboardDetached(id: "/sys/devices/usb/input7/event7"),
        .tabletMode(true), .command(.toggle), .mode(.never),
        .floatingFrame(Rect(x: 10, y: 300, width: 200, height: 150)), .floatingFrame(nil),
        .frameAwaited(true), .oskAnimation(Animation(duration: .milliseconds(150), curve: .easeOut)), .oskAnimation(Animation.none),
        .oskAnimation(nil),
        .register(form, formDescription), .update(form, formDescription), .unregister(form), .clientGone(alice),
        .focus(form, field: Rect(x: 0, y: 100.25, width: 390, height: 44)), .blur(form),
        .scrollToVisible(ScrollRequest(view: form, rect: Rect(x: 0, y: 900, width: 10, height: 10), margin: 8)),
        .scrollToVisible(ScrollRequest(view: form, rect: Rect(x: 0, y: 900, width: 10, height: 10))),
        .transition(duration: .milliseconds(333), screen: Size(width: 844, height: 390)),
        .transition(duration: .nanoseconds(1), screen: nil), .interactiveDismiss(form),
    ]

    @Test(arguments: events)
    func everyEventSurvivesTheRoundTrip(_ event: PipelineEvent) throws {
        let record = TraceRecord.event(at: Instant(nanoseconds: 123_456_789), event, source: .client(alice))
        let decoded = try JSONDecoder().decode(TraceRecord.self, from: Data(try encode(record).utf8))
        #expect(decoded == record)
    }

    @Test func aHeaderKeepsTheWholeConfiguration() throws {
        var configuration = PipelineConfiguration(filterWindow: .microseconds(1500), navigationThreshold: .seconds(1))
        configuration.policy = KeyboardPolicyConfiguration(
            mode: .always, portraitHeight: 301.5, landscapeHeight: 200, accessoryBarHeight: 0,
            hardwareHoldOff: .milliseconds(350), animation: Animation(duration: .milliseconds(120), curve: .linear),
            ignoreExternalKeyboards: true)
        let header = TraceHeader(
            segment: 2, screen: phone, configuration: configuration, keyboards: ["a": .internal, "b": .external],
            tabletMode: true,
            devices: [
                WireDevice(
                    name: "AT Translated Set 2 keyboard", devnode: "/dev/input/event3", class: "keyboard-internal",
                    external: false, reason: "has the keys ESC to D", vendorProduct: "0001:0001", syspath: "a")
            ])
        let record = TraceRecord.header(header)
        let text = try encode(record)
        #expect(text.contains(#""filterWindowNs":1500000"#))
        #expect(text.contains(#""insetd-trace":1"#))
        #expect(try JSONDecoder().decode(TraceRecord.self, from: Data(text.utf8)) == record)
        #expect(!text.contains("rememberedFrames"), "a run that remembered no frame writes no field for them")
    }

    /// Frames remembered from an earlier run are the start's state: a replay
    /// begins with them (a first show publishes the remembered 540x172, not
    /// the configured 336).
    @Test func aHeaderKeepsTheRememberedFrames() throws {
        let portrait = Size(width: 540, height: 960)
        let frames = [
            portrait: Rect(x: 0, y: 788, width: 540, height: 172),
            Size(width: 960, height: 540): Rect(x: 0, y: 390, width: 960, height: 150),
        ]
        let record = TraceRecord.header(TraceHeader(screen: portrait, configuration: PipelineConfiguration(), rememberedFrames: frames))
        let text = try encode(record)
        #expect(
            text.contains(
                #""rememberedFrames":[{"frame":{"height":172,"width":540,"x":0,"y":788},"screen":{"height":960,"width":540}},"#),
            "\(text)")
        #expect(try JSONDecoder().decode(TraceRecord.self, from: Data(text.utf8)) == record)
    }

    @Test func theWireShapeIsStable() throws {
        let record = TraceRecord.event(
            at: .milliseconds(250), .focus(form, field: Rect(x: 0, y: 100, width: 390, height: 44)), source: .hotkey)
        #expect(
            try encode(record)
                == #"{"client":"1","field":{"height":44,"width":390,"x":0,"y":100},"kind":"focus","source":"hotkey","t":250000000,"view":"form"}"#
        )
        #expect(try encode(.tick(at: .milliseconds(350))) == #"{"kind":"tick","t":350000000}"#)
    }

    @Test(arguments: [
        (#"{"kind":"blink","t":5}"#, "unknown kind \"blink\""),
        (#"{"kind":"focus","t":5,"client":"1","view":"form"}"#, "field \"field\" is required"),
        (#"{"kind":"tick","t":"soon"}"#, "field \"t\": expected a number"),
        ("[1,2]", "trace record"),
    ])
    func aBadLineNamesItsLineAndField(line: String, expected: String) throws {
        let data = Data("\(Self.headerLine)\n\(line)\n{\"kind\":\"tick\",\"t\":9}\n".utf8)
        let error = #expect(throws: TraceError.self) { try TraceReader.read(data, name: "bug.jsonl") }
        #expect(error?.line == 2)
        #expect(error?.description.hasPrefix("bug.jsonl:2: ") == true)
        #expect(error?.description.contains(expected) == true, "\(error?.description ?? "")")
    }

    static var headerLine: String {
        try! encode(.header(TraceHeader(screen: phone, configuration: PipelineConfiguration())))
    }
}
