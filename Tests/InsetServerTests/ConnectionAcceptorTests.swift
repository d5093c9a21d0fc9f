import Foundation
import Glibc
import InsetSocket
import Logging
import NIOCore
import NIOPosix
import NIOConcurrencyHelpers
import Testing

@testable import InsetServer

/// insetd's own accepting: every waiting connection is handed on, ready for
/// NIO (non-blocking) and never inherited by a child (close-on-exec), and none
/// is handed on once `stop()` has returned.
@Suite struct ConnectionAcceptorTests {
    private static let loop = MultiThreadedEventLoopGroup.singleton.any()

    /// A listening socket on a fresh path.
    private static func listener() throws -> (path: String, descriptor: Int32) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("insetd-accept-\(UUID().uuidString.prefix(8)).sock").path
        return (path, try UnixSocket.bind(path))
    }

    private static func remove(_ path: String, _ listener: Int32) {
        close(listener)
        unlink(path)
    }

    private static func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<300 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @Test func everyConnectionIsHandedOnNonBlockingAndCloseOnExec() async throws {
        let (path, listener) = try Self.listener()
        defer { Self.remove(path, listener) }
        let accepted = NIOLockedValueBox<[Int32]>([])
        let acceptor = try ConnectionAcceptor(listener: listener, refusals: RefusalLog(logger: Logger(label: "test"))) { fd in
            accepted.withLockedValue { $0.append(fd) }
            return Self.loop.makeSucceededVoidFuture()
        }
        try acceptor.start()
        let clients = try (0..<5).map { _ in try UnixSocket.connect(path) }
        defer { clients.forEach { close($0) } }
        #expect(await Self.eventually { accepted.withLockedValue { $0.count } == 5 })
        for fd in accepted.withLockedValue({ $0 }) {
            #expect(fcntl(fd, F_GETFL) & O_NONBLOCK != 0)
            #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
        }

        acceptor.stop()
        let late = try UnixSocket.connect(path)  // waits in the backlog, never accepted
        defer { close(late) }
        try await Task.sleep(for: .milliseconds(200))
        #expect(accepted.withLockedValue { $0.count } == 5)
        accepted.withLockedValue { $0.forEach { close($0) } }
    }

    /// No more than `handOverLimit` connections are on their way to the event
    /// loop at once: under a flood the thread waits for the loop instead of
    /// taking every queued connection's descriptor.
    @Test func theThreadWaitsForTheLoopToTakeWhatItHandedOver() async throws {
        let (path, listener) = try Self.listener()
        defer { Self.remove(path, listener) }
        let handed = NIOLockedValueBox<[(fd: Int32, channel: EventLoopPromise<Void>)]>([])
        let acceptor = try ConnectionAcceptor(listener: listener, refusals: RefusalLog(logger: Logger(label: "test"))) { fd in
            let promise = Self.loop.makePromise(of: Void.self)
            handed.withLockedValue { $0.append((fd, promise)) }
            return promise.futureResult
        }
        try acceptor.start()
        let clients = try (0..<40).map { _ in try UnixSocket.connect(path) }
        defer { clients.forEach { close($0) } }
        #expect(await Self.eventually { handed.withLockedValue { $0.count } == 16 })
        try await Task.sleep(for: .milliseconds(100))
        #expect(handed.withLockedValue { $0.count } == 16, "handed over beyond the limit")

        // The loop takes them, and the rest follow.
        var completed = 0
        while completed < 40, await Self.eventually({ handed.withLockedValue { $0.count } > completed }) {
            let next = handed.withLockedValue { Array($0[completed...]) }
            next.forEach { $0.channel.succeed() }
            completed += next.count
        }
        #expect(completed == 40)
        acceptor.stop()
        handed.withLockedValue { $0.forEach { close($0.fd) } }
    }

    /// `accept` failing at once (here: not a socket at all, which polls
    /// readable for ever) pauses the thread instead of spinning it, and a
    /// pause does not hold up `stop()`.
    @Test func aFailingAcceptPausesAndStopsPromptly() async throws {
        let pipe = try #require(CloseOnExecPipe.make())
        defer {
            close(pipe.read)
            close(pipe.write)
        }
        var byte: UInt8 = 1
        #expect(write(pipe.write, &byte, 1) == 1)
        let handedOn = NIOLockedValueBox(0)
        let acceptor = try ConnectionAcceptor(listener: pipe.read, refusals: RefusalLog(logger: Logger(label: "test"))) { _ in
            handedOn.withLockedValue { $0 += 1 }
            return Self.loop.makeSucceededVoidFuture()
        }
        try acceptor.start()
        try await Task.sleep(for: .milliseconds(600))
        let started = ContinuousClock.now
        acceptor.stop()
        #expect(ContinuousClock.now - started < .milliseconds(200), "stop waited out the pause")
        #expect(handedOn.withLockedValue { $0 } == 0)
    }
}
