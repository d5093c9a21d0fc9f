import Glibc
import InsetSocket
import NIOConcurrencyHelpers
import NIOCore

/// Accepts connections on a listening socket, on a thread of its own, and hands
/// each connected descriptor on (to NIO, which owns the connection from then).
///
/// Why insetd accepts rather than NIO's `ServerBootstrap`: a connection insetd
/// accepted is one whose descriptor it knows, so what a keyboard change sends
/// each client can leave with one `send(2)` straight from the loop task that
/// staged it (`ClientConnection.flush`), instead of one trip through NIO's
/// pipeline per client. NIO hides the descriptors of the channels it accepts.
///
/// Out of descriptors or memory (EMFILE, ENFILE, ENOBUFS, ENOMEM), `accept`
/// fails at once every time it is tried: the thread pauses for a moment
/// instead of spinning a core, and tries again once sessions may have ended
/// (the hello deadline closes idle ones) and freed some.
///
/// The thread keeps pace with the event loop: at most `handOverLimit`
/// connections are on their way to NIO at a time (accepted, not yet made
/// channels). A flood of connections is then taken at the rate the loop admits
/// them, refuses them or closes the oldest unfinished ones, as when the loop
/// accepted them itself; a thread accepting freely would hold every queued
/// connection's descriptor at once and run insetd out of them. It also waits
/// while its listener says it has no room (`hasRoom`): the connections stay
/// queued in the kernel, which keeps them at no cost to insetd.
final class ConnectionAcceptor: Sendable {
    /// How long accepting pauses after it failed for want of resources.
    static let pauseMilliseconds: Int32 = 250
    /// Connections handed to NIO and not yet channels, at most.
    static let handOverLimit = 16

    private let listener: Int32
    /// Written to by `stop()`; the thread waits on it beside the listener.
    private let wake: (read: Int32, write: Int32)
    private let refusals: RefusalLog
    private let accepted: @Sendable (Int32) -> EventLoopFuture<Void>
    private let thread = NIOLockedValueBox<pthread_t?>(nil)
    private let handingOver = NIOLockedValueBox(0)
    private let hasRoom: @Sendable () -> Bool

    /// `listener` stays the caller's to close (after `stop()`); it is made
    /// non-blocking. `accepted` gets each connection's descriptor, non-blocking
    /// and close-on-exec, on the acceptor's thread; it owns the descriptor, and
    /// its future completes once the connection is a channel (or failed to be).
    /// While `hasRoom` is false nothing is accepted (it is asked again each
    /// millisecond).
    init(
        listener: Int32, refusals: RefusalLog, hasRoom: @escaping @Sendable () -> Bool = { true },
        accepted: @escaping @Sendable (Int32) -> EventLoopFuture<Void>
    ) throws(ServerError) {
        let flags = fcntl(listener, F_GETFL)
        guard flags >= 0, fcntl(listener, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw ServerError("make the listening socket non-blocking", errno: errno)
        }
        guard let ends = CloseOnExecPipe.make() else { throw ServerError("pipe", errno: errno) }
        self.listener = listener
        wake = ends
        self.refusals = refusals
        self.accepted = accepted
        self.hasRoom = hasRoom
    }

    deinit {
        close(wake.read)
        close(wake.write)
    }

    /// Starts accepting.
    func start() throws(ServerError) {
        let box = Unmanaged.passRetained(self)
        var handle = pthread_t()
        let rc = pthread_create(
            &handle, nil,
            { argument in
                let acceptor = Unmanaged<ConnectionAcceptor>.fromOpaque(argument!).takeRetainedValue()
                nameThisThread("insetd-accept")
                acceptor.run()
                return nil
            }, box.toOpaque())
        guard rc == 0 else {
            box.release()
            throw ServerError("pthread_create", errno: rc)
        }
        thread.withLockedValue { $0 = handle }
    }

    /// Stops accepting and waits until the thread has ended: no descriptor is
    /// handed on after this returns.
    func stop() {
        guard let handle = thread.withLockedValue({ $0.take() }) else { return }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        pthread_join(handle, nil)
    }

    private func run() {
        var watched = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
        while true {
            guard poll(&watched, 2, -1) >= 0 || errno == EINTR else { return }
            if watched[1].revents != 0 { return }
            guard watched[0].revents != 0 else { continue }
            switch acceptAll() {
            case .drained: continue
            case .stopped: return
            case .pause: if waitForStop(milliseconds: Self.pauseMilliseconds) { return }
            }
        }
    }

    private enum Outcome { case drained, pause, stopped }

    /// Accepts until none is waiting, or accepting fails for want of resources.
    private func acceptAll() -> Outcome {
        while true {
            // The loop catches up first (a millisecond at a time, for `stop()`).
            while handingOver.withLockedValue({ $0 >= Self.handOverLimit }) || !hasRoom() {
                if waitForStop(milliseconds: 1) { return .stopped }
            }
            let fd = UnixSocket.acceptConnection(on: listener)
            if fd >= 0 {
                handingOver.withLockedValue { $0 += 1 }
                accepted(fd).whenComplete { [handingOver] _ in handingOver.withLockedValue { $0 -= 1 } }
                continue
            }
            let error = errno
            switch error {
            case EAGAIN, EWOULDBLOCK:
                return .drained
            case EINTR, ECONNABORTED, EPROTO, EPERM:
                // A connection that went away while queued, or a firewall's
                // refusal: the next one may be fine.
                continue
            default:
                // EMFILE, ENFILE, ENOBUFS, ENOMEM mostly: failing again at once.
                refusals.refused(
                    "accept failed: \(String(cString: strerror(error))); pausing accept", metadata: ["errno": "\(error)"])
                return .pause
            }
        }
    }

    /// Waits `milliseconds` for `stop()`; true when it came.
    private func waitForStop(milliseconds: Int32) -> Bool {
        var wakeOnly = pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)
        return poll(&wakeOnly, 1, milliseconds) > 0
    }
}

/// Names the calling thread in top, perf and /proc (a new thread inherits its
/// creator's name). Glibc's `pthread_setname_np` needs `_GNU_SOURCE`; the
/// kernel's file does not.
private func nameThisThread(_ name: String) {
    let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = name.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
    close(fd)
}
