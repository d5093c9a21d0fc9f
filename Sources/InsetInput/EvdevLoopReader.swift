import CLibevdev
import Glibc
import NIOCore
import NIOPosix
import Synchronization

/// Reads one evdev device on the daemon's event loop: NIO owns the descriptor
/// and reads its `struct input_event`s; this handler matches hotkeys and follows
/// the tablet-mode switch in the same turn of the loop that then answers the
/// clients.
///
/// Why: read on the reader thread, a hotkey crossed to the event loop (the
/// loop's eventfd written, the loop scheduled, woken, a task resumed), a
/// large part of insetd's P1 beyond the C reader, which reads and answers on one
/// thread (docs/PERFORMANCE.md, stop 48). udev discovery stays on the reader
/// thread, which opens a device and hands its descriptor here.
///
/// Privacy, as on the reader thread: a key code is compared with the hotkeys and
/// dropped in the same call; only which modifiers are held is kept. Events
/// discarded after `SYN_DROPPED` are never looked at.
final class EvdevLoopReader: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let descriptor: Int32
    private let token: UInt64
    private let syspath: String
    private let hasTabletSwitch: Bool
    private var matcher: HotkeyMatcher
    private let sink: InputSink
    private var endReason: String?

    init(descriptor: Int32, token: UInt64, syspath: String, hasTabletSwitch: Bool, matcher: HotkeyMatcher, sink: InputSink) {
        self.descriptor = descriptor
        self.token = token
        self.syspath = syspath
        self.hasTabletSwitch = hasTabletSwitch
        self.matcher = matcher
        self.sink = sink
    }

    /// What a read brings is whole events: the kernel never splits one, and
    /// the buffer holds a whole number of them (`register`).
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        let dropped = buffer.withUnsafeReadableBytes { raw -> Bool in
            let size = MemoryLayout<input_event>.size
            var offset = 0
            while offset + size <= raw.count {
                let event = raw.loadUnaligned(fromByteOffset: offset, as: input_event.self)
                offset += size
                switch Int32(event.type) {
                case EV_KEY:
                    if let action = matcher.keyEvent(code: Int(event.code), value: event.value) {
                        sink.emit(.hotkey(action))
                    }
                case EV_SW where Int32(event.code) == SW_TABLET_MODE:
                    sink.setTabletMode(event.value != 0, for: syspath)
                case EV_SYN where Int32(event.code) == SYN_DROPPED:
                    return true
                default: continue
                }
            }
            return false
        }
        if dropped { resynchronize() }
    }

    /// After `SYN_DROPPED`, what libevdev does: what is queued is dropped unread,
    /// then the held modifiers and the switch are set from the kernel's state.
    /// A hotkey pressed inside the lost stretch is lost with it.
    private func resynchronize() {
        EvdevKernelState.discardQueued(descriptor)
        if let keys = EvdevKernelState.keysDown(descriptor) {
            matcher.resync(keyIsDown: keys.contains)
        }
        if hasTabletSwitch, let switches = EvdevKernelState.switchesOn(descriptor) {
            sink.setTabletMode(switches.contains(Int(SW_TABLET_MODE)), for: syspath)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if endReason == nil { endReason = "read failed: \(error)" }
        context.close(promise: nil)
    }

    /// Also after the reader thread closed the channel itself (udev `remove`):
    /// it no longer knows the token then, and ignores the report.
    func channelInactive(context: ChannelHandlerContext) {
        sink.deviceEnded(token: token, why: endReason ?? "hang-up")
    }

    /// Hands `descriptor` to NIO on `eventLoop`; the returned channel closes
    /// it. When NIO cannot take it (not a character device), the descriptor
    /// is closed here and the device reported as ended.
    static func register(
        descriptor: Int32, token: UInt64, syspath: String, hasTabletSwitch: Bool, matcher: HotkeyMatcher,
        sink: InputSink, on eventLoop: any EventLoop
    ) -> LoopChannel {
        let slot = LoopChannel()
        NIOPipeBootstrap(group: eventLoop)
            .channelOption(
                ChannelOptions.recvAllocator,
                value: FixedSizeRecvByteBufferAllocator(capacity: 64 * MemoryLayout<input_event>.size)
            )
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        EvdevLoopReader(
                            descriptor: descriptor, token: token, syspath: syspath, hasTabletSwitch: hasTabletSwitch,
                            matcher: matcher, sink: sink))
                }
            }
            .takingOwnershipOfDescriptor(input: descriptor)
            .whenComplete { result in
                switch result {
                case .success(let channel): slot.attach(channel)
                case .failure(let error):
                    // Refused before a channel owned it (the type check); once
                    // registered, closing the channel closed it.
                    if let error = error as? ChannelError, error == .operationUnsupported { close(descriptor) }
                    sink.deviceEnded(token: token, why: "cannot be read on the event loop: \(error)")
                }
            }
        return slot
    }
}

/// A device's channel as the reader thread holds it: registration completes on
/// the event loop, and a device removed before that must still be closed.
final class LoopChannel: Sendable {
    private let state = Mutex<(channel: (any Channel)?, closed: Bool)>((nil, false))

    fileprivate func attach(_ channel: any Channel) {
        let closeNow = state.withLock { state in
            state.channel = channel
            return state.closed
        }
        if closeNow { channel.close(promise: nil) }
    }

    func close() {
        let channel = state.withLock { state in
            state.closed = true
            return state.channel
        }
        channel?.close(promise: nil)
    }
}
