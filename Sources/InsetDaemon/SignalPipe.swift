import Glibc
import InsetInput
import InsetSocket
import NIOCore
import NIOPosix

/// Delivers the daemon's signals (SIGTERM, SIGINT, SIGHUP) on its event loop
/// through a self-pipe: the handler writes the signal's number into a pipe
/// whose read end is a NIO channel.
///
/// Why not swift-service-lifecycle's UnixSignals (insetd has its own
/// `ServiceGroup` now, without signals): it is built on `DispatchSource`, which
/// starts libdispatch's worker pool (four threads in insetd) and the pool's 1 s
/// monitor that `DaemonRuntime` exists to avoid; under the unit's
/// `SystemCallFilter=~@resources` each of those workers also logs "Failed to set
/// thread priority" because `setpriority` is denied. A self-pipe needs no thread.
///
/// One per process: `start` replaces the dispositions of the signals it traps
/// until `stop` restores the default ones.
final class SignalPipe: Sendable {
    private let channel: any Channel
    private let writeEnd: Int32
    private let signals: [Int32]

    private init(channel: any Channel, writeEnd: Int32, signals: [Int32]) {
        self.channel = channel
        self.writeEnd = writeEnd
        self.signals = signals
    }

    /// Traps `signals` and calls `deliver` on `eventLoop` once per signal
    /// received (signals of one kind that arrive together may coalesce, as
    /// the kernel's pending signals do).
    static func start(
        trapping signals: [Int32], on eventLoop: any EventLoop, deliver: @escaping @Sendable (Int32) -> Void
    ) async throws -> SignalPipe {
        // Not inherited by children (close-on-exec from the start: another
        // thread may be spawning); a full pipe never blocks the handler (NIO
        // makes the read end non-blocking itself).
        guard let pipe = CloseOnExecPipe.make() else { throw InputSystemError("pipe", errno: errno) }
        _ = fcntl(pipe.write, F_SETFL, O_NONBLOCK)
        let channel: any Channel
        do {
            channel = try await NIOPipeBootstrap(group: eventLoop)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(SignalReader(deliver: deliver))
                    }
                }
                .takingOwnershipOfDescriptor(input: pipe.read).get()
        } catch {
            close(pipe.read)
            close(pipe.write)
            throw error
        }
        // A parent may have started insetd with these signals blocked (a
        // libdispatch worker's mask passes through posix_spawn): unblocked on
        // the event loop's thread, which then takes them.
        try await eventLoop.submit {
            var set = sigset_t()
            sigemptyset(&set)
            for signal in signals { sigaddset(&set, signal) }
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
        }.get()
        signalPipeWriteEnd = pipe.write
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = forwardSignal
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
        return SignalPipe(channel: channel, writeEnd: pipe.write, signals: signals)
    }

    /// Restores the default dispositions and closes the pipe.
    func stop() async {
        for signal in signals { Glibc.signal(signal, SIG_DFL) }
        signalPipeWriteEnd = -1
        close(writeEnd)
        try? await channel.close()
    }
}

/// The pipe's write end, read by the signal handler (set before any handler
/// is installed, and reset only after they are removed).
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// The signal handler: one async-signal-safe `write` of the signal's number.
/// A full pipe drops the byte; the signals already queued in it are handled.
private func forwardSignal(_ signal: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = saved
}

/// Reads signal numbers from the pipe's read end.
private final class SignalReader: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    private let deliver: @Sendable (Int32) -> Void

    init(deliver: @escaping @Sendable (Int32) -> Void) { self.deliver = deliver }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        for byte in unwrapInboundIn(data).readableBytesView { deliver(Int32(byte)) }
    }
}
