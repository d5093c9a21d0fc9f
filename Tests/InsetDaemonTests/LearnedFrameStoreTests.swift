import Foundation
import InsetCore
import InsetProtocol
import Logging
import Testing

@testable import InsetDaemon

/// The real keyboard frames kept between runs: what the file may say, that
/// what insetd writes it reads back, and that a start with remembered frames
/// publishes the real keyboard at its first show.
@Suite struct LearnedFrameStoreTests {
    /// One line each, against the rules: WIDTHxHEIGHT X Y W H, a frame that
    /// could be on that screen (as a bridge's `oskFrame` must).
    @Test(arguments: [
        ("540x960 0 788 540 172", Rect(x: 0, y: 788, width: 540, height: 172)),
        ("960x540\t0 390 960 150", Rect(x: 0, y: 390, width: 960, height: 150)),
        ("  1280x800 0 500.5 1280 299.5", Rect(x: 0, y: 500.5, width: 1280, height: 299.5)),
        ("540x960 0 788 541 172", Rect(x: 0, y: 788, width: 541, height: 172)),  // within a point of the width
        ("540x960 0 788 960 172", nil),  // measured in the other orientation
        ("540x960 0 960 540 172", nil),  // below the screen
        ("540x960 0 788 540 0", nil),
        ("540x960 0 788 540", nil),
        ("540 960 0 788 540 172", nil),
        ("540x960 0 788 540 nan", nil),
        ("540x960 0 788 540 1e400", nil),
        ("0x960 0 788 540 172", nil),
    ] as [(String, Rect?)])
    func aLineIsAFrameOnItsScreenOrSkipped(line: String, frame: Rect?) {
        let loaded = LearnedFrameStore.parse("# comment\n\n\(line)\n")
        if let frame {
            #expect(loaded.frames.values.first == frame && loaded.frames.count == 1, "\(loaded)")
            #expect(loaded.problems.isEmpty)
        } else {
            #expect(loaded.frames.isEmpty, "\(loaded)")
            #expect(loaded.problems.count == 1 && loaded.problems[0].hasPrefix("line 3: "), "\(loaded.problems)")
        }
    }

    @Test func aDamagedLineCostsOnlyItself() {
        let loaded = LearnedFrameStore.parse("540x960 0 788 540 172\ngarbage\n960x540 0 390 960 150\n")
        #expect(loaded.frames == [
            Size(width: 540, height: 960): Rect(x: 0, y: 788, width: 540, height: 172),
            Size(width: 960, height: 540): Rect(x: 0, y: 390, width: 960, height: 150),
        ])
        #expect(loaded.problems == ["line 2: not WIDTHxHEIGHT X Y W H"])
    }

    @Test func whatIsSavedIsLoadedAndAMissingFileIsNoProblem() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frames-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try #require(LearnedFrameStore.fromEnvironment(["STATE_DIRECTORY": "\(directory.path):/elsewhere"]))
        #expect(store.path == "\(directory.path)/keyboard-frames")
        #expect(store.load() == LearnedFrameStore.Loaded())
        let frames = [
            Size(width: 540, height: 960): Rect(x: 0, y: 788, width: 540, height: 172),
            Size(width: 960, height: 540): Rect(x: 0, y: 390.5, width: 960, height: 149.5),
        ]
        #expect(store.save(frames) == nil)
        #expect(store.load() == LearnedFrameStore.Loaded(frames: frames))
        let text = try String(contentsOfFile: store.path, encoding: .utf8)
        #expect(text.hasSuffix("540x960 0 788 540 172\n960x540 0 390.5 960 149.5\n"), "\(text)")
        #expect(LearnedFrameStore.fromEnvironment([:]) == nil)
        #expect(LearnedFrameStore.fromEnvironment(["STATE_DIRECTORY": "relative"]) == nil)
    }

    /// A run that remembers squeekboard's 540x172 keyboard for the 540x960
    /// screen shows it at the first show, before any bridge reported: the
    /// configured portrait height (336) is never published. A bridge's new
    /// report is handed on to be kept; the same report again is not.
    @Test func aRememberedFrameIsTheFirstShowsKeyboard() throws {
        let outbox = DaemonCoreRoutingTests.RecordingOutbox()
        var configuration = DaemonConfiguration.defaults
        configuration.screen = Size(width: 540, height: 960)
        let remembered = Rect(x: 0, y: 788, width: 540, height: 172)
        let clock = DaemonCoreRoutingTests.TestClock()
        let core = try DaemonCore(
            configuration: configuration, rememberedFrames: [configuration.screen: remembered], outbox: outbox,
            clock: { clock.now }, logger: Logger(label: "test"))
        var kept: [[Size: Rect]] = []
        core.framesLearned = { kept.append($0) }
        let bridge = ClientID("c1")
        outbox.join(bridge)
        core.handle(.server(.joined(bridge, version: 1, id: nil)))
        _ = try outbox.take(bridge)
        func send(_ message: ClientMessage) throws -> [DaemonMessage] {
            core.handle(.server(.request(bridge, ClientRequest(id: .number(1), message: message))))
            return try outbox.take(bridge)
        }
        func state() throws -> StateSnapshot? {
            for case .status(_, let state, _, _) in try send(.status) { return state }
            return nil
        }
        #expect(try state()?.frameSource == "remembered (reported by an OSK bridge in an earlier run)")
        var shown = try send(.command(.keyboard(.show)))
        // The filter's 100 ms, then the animation's end.
        while let deadline = core.nextDeadline {
            clock.now = deadline
            core.handle(.tick)
            shown += try outbox.take(bridge)
        }
        let willShow = shown.compactMap { message -> Rect? in
            if case .keyboard(let note, _) = message, note.phase == .willShow { return note.endFrame }
            return nil
        }
        #expect(willShow == [remembered], "\(shown)")
        #expect(kept.isEmpty, "nothing new learned")
        _ = try send(.oskFrame(bridge: "squeekboard", frame: remembered))
        #expect(kept.isEmpty, "the same frame again is nothing new")
        let taller = Rect(x: 0, y: 744, width: 540, height: 216)
        _ = try send(.oskFrame(bridge: "squeekboard", frame: taller))
        #expect(kept == [[configuration.screen: taller]])
        #expect(try state()?.frameSource == "reported by squeekboard")
    }
}
