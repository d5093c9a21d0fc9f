import Foundation
import InputTestbed
import InsetClient
import InsetCore
import InsetProtocol
import Synchronization
import Testing

/// Starts insetd on `socket` with the real system's environment.
func startDaemon(socket: String) async throws -> SpawnedProcess {
    try InsetdLauncher.start(socket: socket)
}

final class Events: Sendable {
    private final class Storage: Sendable {
        let events = Mutex<[InsetClient.Event]>([])
    }

    private let storage = Storage()
    private let task: Task<Void, Never>

    init(_ stream: AsyncStream<InsetClient.Event>) {
        let storage = self.storage
        task = Task { for await event in stream { storage.events.withLock { $0.append(event) } } }
    }

    var all: [InsetClient.Event] { storage.events.withLock { $0 } }

    /// Waits (up to 5 s) until `predicate` holds for the events so far.
    func wait(until predicate: @escaping ([InsetClient.Event]) -> Bool) async -> Bool {
        for _ in 0..<500 {
            if predicate(all) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
}

@Suite struct InsetClientTests {
    static let view = ViewDescription(
        frame: Rect(x: 0, y: 0, width: 1280, height: 800), contentSize: Size(width: 1280, height: 2000))

    static func adjustments(_ events: [InsetClient.Event]) -> [ViewAdjustment] {
        events.compactMap { if case .adjustment("form", let adjustment) = $0 { adjustment } else { nil } }
    }

    @Test func registersFocusesAndResyncsAfterADaemonRestart() async throws {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("client-\(UUID().uuidString.prefix(8)).sock").path
        var daemon = try await startDaemon(socket: socket)
        let client = InsetClient(socketPath: socket, name: "test")
        let events = Events(client.events)
        await client.start()
        await client.register("form", Self.view)
        await client.focus("form", field: Rect(x: 0, y: 600, width: 300, height: 44))

        // 1280x800: the 209 pt landscape keyboard; field bottom 644 -> 644 - 800 + 209 = 53.
        let shown = await events.wait { Self.adjustments($0).last?.additionalBottomInset == 209 }
        #expect(shown)
        let before = try #require(Self.adjustments(events.all).last)
        #expect(before.contentOffset == Point(x: 0, y: 53))
        #expect(events.all.contains { if case .keyboard(let note, true) = $0 { note.phase == .willShow } else { false } })

        await daemon.terminate()
        #expect(await events.wait { $0.contains(.disconnected) })
        let adjustmentsBefore = Self.adjustments(events.all).count
        daemon = try await startDaemon(socket: socket)

        // Reconnected: the view and its focus were restored without the app doing anything.
        let resynced = await events.wait { events in
            Self.adjustments(events).count > adjustmentsBefore && Self.adjustments(events).last?.additionalBottomInset == 209
        }
        #expect(resynced)
        let after = try #require(Self.adjustments(events.all).last)
        var comparable = after
        comparable.animation = before.animation
        #expect(comparable == before, "the same adjustment as before the restart")
        #expect(events.all.filter { if case .connected = $0 { true } else { false } }.count == 2)

        await client.stop()
        await daemon.terminate()
        try? FileManager.default.removeItem(atPath: socket)
    }

    @Test func aClientInAWindowGetsTheCoveredPartAgainAfterARestart() async throws {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("client-\(UUID().uuidString.prefix(8)).sock").path
        var daemon = try await startDaemon(socket: socket)
        let client = InsetClient(socketPath: socket, name: "test")
        let events = Events(client.events)
        await client.start()
        // The window covers screen 100...700 and the 209 pt keyboard 591...800: 109.
        await client.window(Rect(x: 0, y: 100, width: 1280, height: 600))
        await client.register("form", ViewDescription(
            frame: Rect(x: 0, y: 0, width: 1280, height: 600), contentSize: Size(width: 1280, height: 2000)))
        await client.focus("form", field: Rect(x: 0, y: 400, width: 300, height: 44))
        #expect(await events.wait { Self.adjustments($0).last?.additionalBottomInset == 109 })

        await daemon.terminate()
        #expect(await events.wait { $0.contains(.disconnected) })
        let adjustmentsBefore = Self.adjustments(events.all).count
        daemon = try await startDaemon(socket: socket)
        // The window is said again before the view, so the view is placed in it at once.
        let resynced = await events.wait { events in
            Self.adjustments(events).count > adjustmentsBefore && Self.adjustments(events).last?.additionalBottomInset == 109
        }
        #expect(resynced, "\(Self.adjustments(events.all).map(\.additionalBottomInset))")
        #expect(!Self.adjustments(events.all).dropFirst(adjustmentsBefore).contains { $0.additionalBottomInset == 9 })

        await client.stop()
        await daemon.terminate()
        try? FileManager.default.removeItem(atPath: socket)
    }
}
