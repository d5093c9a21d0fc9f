import InputTestbed
import InsetCore
import InsetInput
import InsetProtocol
import InsetServer
import Logging
import Synchronization
import Testing

@testable import InsetDaemon

/// The core's routing, in process: client ids and typed messages in, messages
/// per client out (through a recording outbox, read back as clients read
/// them), time from a test clock.
@Suite struct DaemonCoreRoutingTests {
    /// Records what the core sends, per client, as the messages it hands on.
    final class RecordingOutbox: ClientOutbox {
        private struct State {
            var messages: [ClientID: [DaemonMessage]] = [:]
            var joined: [ClientID] = []
            var topics: [ClientID: Set<Topic>] = [:]
            var gone: Set<ClientID> = []
        }

        private let state = Mutex(State())

        func join(_ client: ClientID) { state.withLock { $0.joined.append(client) } }
        func leave(_ client: ClientID) { _ = state.withLock { $0.gone.insert(client) } }

        func send(_ message: DaemonMessage, to client: ClientID) {
            state.withLock { $0.messages[client, default: []].append(message) }
        }

        func broadcast(_ messages: [BroadcastMessage], then adjustments: [ViewAdjustment]) {
            state.withLock { state in
                for client in state.joined where !state.gone.contains(client) {
                    for message in messages {
                        state.messages[client, default: []].append(message.special[client] ?? message.message)
                    }
                }
            }
            for adjustment in adjustments {
                send(.adjustment(view: adjustment.view.name, adjustment), to: adjustment.view.client)
            }
        }

        func publish(_ message: DaemonMessage, to topic: Topic) {
            state.withLock { state in
                for client in state.joined where state.topics[client]?.contains(topic) == true {
                    state.messages[client, default: []].append(message)
                }
            }
        }

        func subscribe(_ client: ClientID, to topics: [Topic]) {
            state.withLock { $0.topics[client, default: []].formUnion(topics) }
        }

        func isConnected(_ client: ClientID) -> Bool { state.withLock { !$0.gone.contains(client) } }
        var clientCount: Int { state.withLock { $0.joined.count - $0.gone.count } }

        /// What `client` received since the last call, as it reads it: each
        /// message through the protocol's encoder and decoder.
        func take(_ client: ClientID) throws -> [DaemonMessage] {
            let messages = state.withLock { state in
                defer { state.messages[client] = [] }
                return state.messages[client] ?? []
            }
            return try messages.map { try DaemonMessageDecoder.decode($0.lineBytes().dropLast(), client: client) }
        }
    }

    final class TestClock: @unchecked Sendable {
        var now = Instant.zero
    }

    let outbox = RecordingOutbox()
    let clock = TestClock()
    let core: DaemonCore
    let a = ClientID("c1")
    let b = ClientID("c2")

    init() throws {
        let clock = clock
        core = try DaemonCore(
            configuration: .defaults, outbox: outbox, clock: { clock.now }, logger: Logger(label: "test"))
    }

    func join(_ client: ClientID, id: RequestID? = nil) {
        outbox.join(client)
        core.handle(.server(.joined(client, version: 1, id: id)))
    }

    func request(_ client: ClientID, _ message: ClientMessage, id: RequestID? = nil) {
        core.handle(.server(.request(client, ClientRequest(id: id, message: message))))
    }

    /// Advances the test clock to the pipeline's deadline and ticks.
    func settle() {
        while let deadline = core.nextDeadline {
            clock.now = deadline
            core.handle(.tick)
        }
    }

    static let view = WireView(
        view: "form",
        description: ViewDescription(frame: Rect(x: 0, y: 0, width: 1280, height: 800), contentSize: Size(width: 1280, height: 2000)))

    @Test func welcomeEchoesTheHellosIdAndCarriesTheState() throws {
        join(a, id: .string("h"))
        let messages = try outbox.take(a)
        guard case .welcome(let version, let client, let state, let id) = messages.first else {
            Issue.record("no welcome: \(messages)")
            return
        }
        #expect(version == 1 && client == "c1" && id == .string("h"))
        #expect(state.screen == WireSize(Size(width: 1280, height: 800)))
        #expect(state.keyboard == nil)
    }

    @Test func aRequestsAdjustmentGoesToItsClientOnlyAndBeforeItsOk() throws {
        join(a)
        join(b)
        _ = try outbox.take(a)
        _ = try outbox.take(b)
        request(a, .register(Self.view), id: .number(2))
        let messages = try outbox.take(a)
        #expect(messages.count == 2, "\(messages)")
        if case .adjustment(let view, _) = messages.first { #expect(view == "form") } else { Issue.record("\(messages)") }
        #expect(messages.last == .ok(id: .number(2)))
        #expect(try outbox.take(b).isEmpty)
    }

    @Test func aKeyboardChangeReachesEveryoneAndIsLocalOnlyForTheFocusOwner() throws {
        join(a)
        join(b)
        _ = try outbox.take(a)
        _ = try outbox.take(b)
        request(a, .register(Self.view))
        request(a, .focus(view: "form", field: Rect(x: 0, y: 700, width: 300, height: 44)))
        settle()
        let toA = try outbox.take(a).compactMap { if case .keyboard(let note, let local) = $0 { (note.phase, local) } else { nil } }
        let toB = try outbox.take(b).compactMap { if case .keyboard(let note, let local) = $0 { (note.phase, local) } else { nil } }
        #expect(toA.first?.0 == .willShow && toA.first?.1 == true, "\(toA)")
        #expect(toB.first?.0 == .willShow && toB.first?.1 == false, "\(toB)")
    }

    @Test func aClientWhoseFocusAnotherClientTakesIsTold() throws {
        join(a)
        join(b)
        request(a, .register(Self.view))
        request(b, .register(Self.view))
        request(a, .focus(view: "form", field: Rect(x: 0, y: 10, width: 300, height: 44)))
        _ = try outbox.take(a)
        request(b, .focus(view: "form", field: Rect(x: 0, y: 10, width: 300, height: 44)), id: .number(9))
        #expect(try outbox.take(a).contains(.focusLost(view: "form")))
        #expect(try outbox.take(b).last == .ok(id: .number(9)), "the ok after everything the request caused")
        // Focus moving within one client tells nobody.
        request(b, .focus(view: "form", field: Rect(x: 0, y: 60, width: 300, height: 44)))
        #expect(!(try outbox.take(a).contains(.focusLost(view: "form"))))
        #expect(!(try outbox.take(b).contains(.focusLost(view: "form"))))
    }

    /// A USB keyboard counts after the 200 ms hold-off (a tick, not the attach
    /// itself): `policy` subscribers hear it then, once, and again when it goes.
    @Test func policySubscribersHearAHardwareKeyboardComeAndGo() throws {
        join(a)
        request(a, .subscribe(topics: [.policy]))
        _ = try outbox.take(a)
        let usb = InputDevice(
            description: FixtureCatalogue.usbKeyboard.description,
            classification: DeviceClassification(kind: .keyboard(.external), reason: "bus usb"))
        core.handle(.input(.keyboardAttached(usb)))
        #expect(try outbox.take(a).isEmpty, "not usable before the hold-off")
        settle()
        #expect(try outbox.take(a) == [.policy(mode: .auto, tabletMode: false, hardwareKeyboard: true)])
        core.handle(.input(.keyboardDetached(usb)))
        settle()
        #expect(try outbox.take(a) == [.policy(mode: .auto, tabletMode: false, hardwareKeyboard: false)])
    }

    @Test func rotateGoesToRotationSubscribersOnly() throws {
        join(a)
        join(b)
        request(a, .subscribe(topics: [.rotation]), id: .number(1))
        _ = try outbox.take(a)
        _ = try outbox.take(b)
        request(b, .command(.rotate), id: .string("r"))
        #expect(try outbox.take(a) == [.rotate(direction: .next)])
        #expect(try outbox.take(b) == [.ok(id: .string("r"))])
    }

    @Test func statusCountsJoinedClientsAndRequestsOfAGoneClientAreSkipped() throws {
        join(a)
        join(b)
        request(b, .register(Self.view))
        outbox.leave(b)
        request(b, .register(WireView(view: "other", description: Self.view.description)))
        core.handle(.server(.left(b)))
        request(a, .status, id: .number(4))
        let status = try outbox.take(a).last
        guard case .status(let id, _, let clients, let views) = status else {
            Issue.record("\(String(describing: status))")
            return
        }
        #expect(id == .number(4) && clients == 1 && views == 0)
    }
}
