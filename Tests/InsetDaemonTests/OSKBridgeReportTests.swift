import Foundation
import InsetCore
import InsetProtocol
import Logging
import Testing

@testable import InsetDaemon

/// What insetd does with an OSK bridge's reports beyond the decoder's checks:
/// a frame must touch the screen it knows, and a problem shows in `status`
/// and `events` for as long as its bridge says so.
@Suite struct OSKBridgeReportTests {
    typealias Outbox = DaemonCoreRoutingTests.RecordingOutbox
    let outbox = Outbox()
    let core: DaemonCore
    let bridge = ClientID("c1")
    let other = ClientID("c2")

    init() throws {
        // The default screen: 1280x800.
        core = try DaemonCore(configuration: .defaults, outbox: outbox, clock: { .zero }, logger: Logger(label: "test"))
        for client in [bridge, other] {
            outbox.join(client)
            core.handle(.server(.joined(client, version: 1, id: nil)))
            _ = try outbox.take(client)
        }
    }

    func request(_ client: ClientID, _ message: ClientMessage, id: RequestID? = .number(1)) throws -> [DaemonMessage] {
        core.handle(.server(.request(client, ClientRequest(id: id, message: message))))
        return try outbox.take(client)
    }

    func state() throws -> StateSnapshot? {
        for message in try request(other, .status, id: .number(9)) {
            if case .status(_, let state, _, _) = message { return state }
        }
        return nil
    }

    /// Frames against the 1280x800 screen: accepted when they share area with it
    /// and are no wider than it (+1 pt).
    @Test(arguments: [
        (Rect(x: 5000, y: 5000, width: 390, height: 280), false),
        (Rect(x: 0, y: 800, width: 1280, height: 300), false),  // only touches the bottom edge
        (Rect(x: -400, y: 0, width: 400, height: 800), false),  // only touches the left edge
        (Rect(x: 0, y: -300, width: 1280, height: 200), false),
        (Rect(x: 0, y: 500, width: 1280, height: 300), true),
        (Rect(x: 0, y: 700, width: 1280, height: 300), true),  // partly below the screen
        (Rect(x: -100, y: 600, width: 200, height: 100), true),
        (Rect(x: 0, y: 600, width: 1281, height: 200), true),  // within a point of the width
        (Rect(x: 0, y: 600, width: 1920, height: 200), false),  // measured in another orientation
    ])
    func aFrameMustIntersectTheScreen(frame: Rect, accepted: Bool) throws {
        let replies = try request(bridge, .oskFrame(bridge: "wvkbd", frame: frame))
        if accepted {
            #expect(replies == [.ok(id: .number(1))], "\(replies)")
            #expect(try state()?.frameSource == "reported by wvkbd")
        } else {
            guard case .error(let error) = replies.last else {
                Issue.record("\(replies)")
                return
            }
            #expect(error.code == .invalidField && error.id == .number(1))
            #expect(
                error.message.contains("must intersect the screen") || error.message.contains("wider than the screen"),
                "\(error.message)")
            #expect(try state()?.frameSource == "configured", "a refused frame changes nothing")
        }
    }

    /// insetd-osk restarting (or crashing) does not send insetd back to its
    /// configured guess: the OSK it drove is still the one that will show.
    /// On the default 1280x800 screen the configured landscape keyboard would be
    /// 0,591,1280,209; the bridge's 0,500,1280,300 stays after it left.
    @Test func aFrameStaysLearnedWhenItsBridgeLeaves() throws {
        let real = Rect(x: 0, y: 500, width: 1280, height: 300)
        #expect(try request(bridge, .oskFrame(bridge: "wvkbd", frame: real)) == [.ok(id: .number(1))])
        outbox.leave(bridge)
        core.handle(.server(.left(bridge)))
        #expect(try state()?.frameSource == "learned from wvkbd")
        _ = try request(other, .command(.keyboard(.show)), id: nil)
        #expect(try state()?.keyboard?.rect == real)
    }

    /// A device that switches OSKs: wvkbd's bridge reported 0,500,1280,300 and
    /// left. A bridge of another OSK (squeekboard) forgets those frames at its
    /// first report, so a show uses the configured landscape keyboard,
    /// 0,591,1280,209 (800 - 209 = 591), until it reports its own. A bridge of
    /// the same OSK keeps them (insetd-osk restarted), and so does any report
    /// while wvkbd's bridge is still connected (it is still the one on screen).
    @Test(arguments: [
        ("squeekboard", false, Rect(x: 0, y: 591, width: 1280, height: 209), "configured"),
        ("wvkbd", false, Rect(x: 0, y: 500, width: 1280, height: 300), "learned from wvkbd"),
        ("squeekboard", true, Rect(x: 0, y: 500, width: 1280, height: 300), "reported by wvkbd"),
    ])
    func anotherOSKsBridgeForgetsTheFramesOfOneThatLeft(next: String, firstStays: Bool, shown: Rect, source: String) throws {
        #expect(try request(bridge, .oskFrame(bridge: "wvkbd", frame: Rect(x: 0, y: 500, width: 1280, height: 300))) == [.ok(id: .number(1))])
        if !firstStays {
            outbox.leave(bridge)
            core.handle(.server(.left(bridge)))
        }
        #expect(try request(other, .oskAnimation(bridge: next, animation: nil)) == [.ok(id: .number(1))])
        #expect(try state()?.frameSource == source)
        _ = try request(other, .command(.keyboard(.show)), id: nil)
        #expect(try state()?.keyboard?.rect == shown)
    }

    /// A restarted insetd-osk still waiting for its OSK reports its problems
    /// under a placeholder ("osk"), and a refused frame proves nothing: the
    /// frames wvkbd's bridge left stay (0,500,1280,300).
    @Test func aWaitingBridgeOrARefusedFrameForgetsNothing() throws {
        #expect(try request(bridge, .oskFrame(bridge: "wvkbd", frame: Rect(x: 0, y: 500, width: 1280, height: 300))) == [.ok(id: .number(1))])
        outbox.leave(bridge)
        core.handle(.server(.left(bridge)))
        _ = try request(other, .oskProblem(bridge: "osk", problem: "osk did not show after 4 attempts (it is not running)"))
        _ = try request(other, .oskRunning(bridge: "osk", running: false))
        _ = try request(other, .oskFrame(bridge: "squeekboard", frame: Rect(x: 5000, y: 5000, width: 390, height: 280)))
        #expect(try state()?.frameSource == "learned from wvkbd")
    }

    @Test func aProblemShowsInStatusUntilItsBridgeClearsItOrLeaves() throws {
        let problem = "squeekboard did not show after 4 attempts"
        #expect(try request(bridge, .oskProblem(bridge: "squeekboard", problem: problem)) == [.ok(id: .number(1))])
        #expect(try state()?.oskProblem == problem)
        // Another client cannot clear it.
        _ = try request(other, .oskProblem(bridge: "kwin", problem: nil))
        #expect(try state()?.oskProblem == problem)
        _ = try request(bridge, .oskProblem(bridge: "squeekboard", problem: nil))
        #expect(try state()?.oskProblem == nil)
        _ = try request(bridge, .oskProblem(bridge: "squeekboard", problem: problem))
        outbox.leave(bridge)
        core.handle(.server(.left(bridge)))
        #expect(try state()?.oskProblem == nil, "gone with its bridge")
    }

    @Test func aProblemIsATimelineEntryNamingItsBridge() throws {
        let state = TimelineState(keyboard: .shown, hardwareKeyboard: false, tabletMode: false, mode: .auto, devices: 0)
        let report = ClientRequest(message: .oskProblem(bridge: "squeekboard", problem: "squeekboard did not show after 4 attempts"))
        let entries = DecisionTimeline.entries(
            for: .server(.request(bridge, report)), before: state, after: state, outputs: [],
            configuration: PipelineConfiguration(), now: .zero)
        #expect(entries.map(\.decision) == [.oskProblem(bridge: "squeekboard", problem: "squeekboard did not show after 4 attempts")])
        #expect(entries.first?.cause == .client(bridge, message: "oskProblem", view: nil, detail: nil))
        let line = String(decoding: DaemonMessage.event(try #require(entries.first)).lineBytes(), as: UTF8.self)
        #expect(line.contains(#""decision":"osk-problem""#) && line.contains(#""bridge":"squeekboard""#), "\(line)")
        #expect(line.contains(#""problem":"squeekboard did not show after 4 attempts""#), "\(line)")
    }
}
