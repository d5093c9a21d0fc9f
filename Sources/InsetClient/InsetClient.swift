import Foundation
import InsetCore
import InsetProtocol
import NIOCore
import NIOPosix

/// A Swift client for insetd: connects, registers views, streams keyboard
/// notifications and adjustments, and survives daemon restarts. After a
/// reconnect it says hello again, re-registers every view with its last
/// description and restores its focus, so the daemon ends in the same state.
public actor InsetClient {
    /// What the client hears.
    public enum Event: Sendable, Equatable {
        /// Connected (again); the daemon's state at that moment.
        case connected(StateSnapshot)
        case keyboard(KeyboardNotification, isLocal: Bool)
        case adjustment(view: String, ViewAdjustment)
        case error(ProtocolError)
        /// Another client's field took the focus from this view's field; the
        /// client forgets its focus (a reconnect does not restore it).
        case focusLost(view: String)
        /// The connection dropped; the client keeps trying to reconnect.
        case disconnected
    }

    public nonisolated let events: AsyncStream<Event>
    private let eventSink: AsyncStream<Event>.Continuation
    /// The path given; nil: insetd's socket by the rule every client
    /// follows, looked up again at each attempt (InsetdSocketPath.forClient).
    private let path: String?
    private let name: String
    private var views: [String: ViewDescription] = [:]
    private var viewOrder: [String] = []
    private var focus: (view: String, field: Rect)?
    private var window: Rect?
    private var outgoing: AsyncStream<Data>.Continuation?
    private var loop: Task<Void, Never>?

    /// A client of the insetd at `socketPath`, or (nil) at the socket the
    /// rule in docs/PROTOCOL.md finds: `$INSETD_SOCKET`, a user's own insetd,
    /// the system one.
    public init(socketPath: String? = nil, name: String = "swift-client") {
        path = socketPath
        self.name = name
        (events, eventSink) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
    }

    /// Starts connecting (and reconnecting) in the background.
    public func start() {
        guard loop == nil else { return }
        loop = Task { await self.run() }
    }

    /// Disconnects for good and finishes `events`.
    public func stop() {
        loop?.cancel()
        loop = nil
        outgoing?.finish()
        eventSink.finish()
    }

    // MARK: - Requests (kept for resync, sent when connected)

    public func register(_ view: String, _ description: ViewDescription) {
        if views.updateValue(description, forKey: view) == nil { viewOrder.append(view) }
        send(.register(WireView(view: view, description: description)))
    }

    public func update(_ view: String, _ description: ViewDescription) {
        guard views[view] != nil else { return register(view, description) }
        views[view] = description
        send(.update(WireView(view: view, description: description)))
    }

    public func unregister(_ view: String) {
        views[view] = nil
        viewOrder.removeAll { $0 == view }
        if focus?.view == view { focus = nil }
        send(.unregister(view: view))
    }

    public func focus(_ view: String, field: Rect) {
        focus = (view, field)
        send(.focus(view: view, field: field))
    }

    public func blur(_ view: String) {
        if focus?.view == view { focus = nil }
        send(.blur(view: view))
    }

    public func scroll(_ view: String, to rect: Rect, margin: Double? = nil) {
        send(.scroll(view: view, rect: rect, margin: margin))
    }

    /// Where this client's window (the origin of its views' frames) is on the
    /// screen, in screen points: insetd measures the views there against the
    /// keyboard. Restated after a reconnect. Without it the window is at 0,0.
    public func window(_ frame: Rect) {
        window = frame
        send(.window(frame: frame))
    }

    public func transition(duration: Double, screen: Size?) {
        send(.transition(duration: duration, screen: screen))
    }

    // MARK: - Connection

    private func run() async {
        var backoff: Duration = .milliseconds(50)
        while !Task.isCancelled {
            do {
                try await connectOnce()
                backoff = .milliseconds(50)
            } catch {
                // Not running yet, or restarting: try again, a little later each time.
            }
            outgoing = nil
            guard !Task.isCancelled else { break }
            try? await Task.sleep(for: backoff)
            backoff = min(backoff * 2, .seconds(2))
        }
    }

    private func connectOnce() async throws {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(unixDomainSocketPath: InsetdConnection.socketPath(explicit: path)) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let (stream, continuation) = AsyncStream.makeStream(of: Data.self, bufferingPolicy: .unbounded)
        // However the connection ends: the daemon's end of stream, or a reset
        // when it died with our requests unread.
        defer {
            continuation.finish()
            eventSink.yield(.disconnected)
        }
        try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(bytes: InsetdLines.hello(client: name).lineBytes()))
            // Split and decoded as every Swift client of insetd reads it.
            var lines = InsetdLines()
            var welcomed = false
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await data in stream { try await outbound.write(ByteBuffer(bytes: data)) }
                }
                defer { group.cancelAll() }
                for try await buffer in inbound {
                    for line in try lines.split(buffer.readableBytesView) {
                        let message = lines.decode(line)
                        if !welcomed, case .welcome(_, _, let state, _) = message {
                            welcomed = true
                            resync(into: continuation)
                            eventSink.yield(.connected(state))
                        } else if let message {
                            deliver(message)
                        }
                    }
                }
            }
        }
    }

    /// A new connection: from now on requests go out through `continuation`;
    /// first, everything the daemon must know again.
    private func resync(into continuation: AsyncStream<Data>.Continuation) {
        outgoing = continuation
        if let window { send(.window(frame: window)) }
        for view in viewOrder {
            if let description = views[view] { send(.register(WireView(view: view, description: description))) }
        }
        if let focus { send(.focus(view: focus.view, field: focus.field)) }
    }

    private func deliver(_ message: DaemonMessage) {
        switch message {
        case .keyboard(let note, let isLocal): eventSink.yield(.keyboard(note, isLocal: isLocal))
        case .adjustment(let view, let adjustment): eventSink.yield(.adjustment(view: view, adjustment))
        case .error(let error): eventSink.yield(.error(error))
        case .focusLost(let view):
            if focus?.view == view { focus = nil }
            eventSink.yield(.focusLost(view: view))
        // It never says `toplevel`, so it is never placed.
        case .welcome, .device, .policy, .status, .devices, .ok, .bye, .rotate, .reloaded, .event, .placed: break
        }
    }

    private func send(_ message: ClientMessage) {
        outgoing?.yield(message.line())
    }
}
