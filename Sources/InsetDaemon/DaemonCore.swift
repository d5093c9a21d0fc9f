import InsetCore
import InsetInput
import InsetProtocol
import InsetServer
import InsetTrace
import Logging

/// Everything the core reacts to, merged into one ordered stream.
enum CoreEvent: Sendable {
    case input(InputEvent)
    case server(ServerEvent)
    /// The pipeline's deadline has come.
    case tick
    /// A reload's result, from SIGHUP (no requester) or a client's `reload`.
    case reload(ReloadOutcome)
}

/// The daemon's heart: owns the pure `InsetPipeline`, turns input and client
/// events into pipeline events, and routes its outputs to clients by id through
/// an outbox (the server, or a test's recorder). Its time comes from `clock`
/// (the service's monotonic clock, or a test's), so routing is testable in
/// process. Used on one thread only, the event loop (`CoreDriver`), so it needs no locks.
final class DaemonCore {
    private(set) var pipeline: InsetPipeline
    private(set) var configuration: DaemonConfiguration
    private let clock: () -> Instant
    let outbox: any ClientOutbox
    let logger: Logger
    private(set) var devices: [String: InputDevice] = [:]
    private(set) var tabletMode = false
    /// The OSK bridge whose real keyboard frame is in use, and its client (see `reportedFrame`).
    /// The bridge whose real keyboard frames the pipeline uses; `client` nil once
    /// it left (its frames stay learned).
    var frameReporter: (bridge: String, client: ClientID?)?
    /// The bridge that measures the real frame (it reported one, or said it
    /// will): shows wait for its report where no frame is known yet.
    var frameAwaiter: ClientID?
    /// Why a bridge's real keyboard is not on the screen, until it says otherwise or leaves.
    var oskProblem: (bridge: String, client: ClientID, problem: String)?
    /// The bridge whose OSK ended (`oskRunning` false), until it runs again or
    /// the bridge goes.
    var oskEndedUnder: ClientID?
    /// The bridge that gave a show up (its problem, then its hide) and when:
    /// its OSK showing soon after is the late answer to the asks (`lateShowRefused`).
    var showGivenUpBy: (client: ClientID, at: Instant)?
    /// Clients that reported as OSK bridges (any `osk…` message insetd took),
    /// told when the focus moves with the keyboard up (`restateShown`).
    var bridges: Set<ClientID> = []
    /// What `policy` subscribers were last told of the hardware keyboard.
    var publishedHardwareKeyboard = false
    /// The view whose field has focus, as clients last said: the client that
    /// loses it to another client's field is told (`focusLost`).
    private var focused: ViewID?
    /// Each client's window: where it says it is on the screen (its `window`
    /// message; none said: at 0,0), and where insetd placed it. A client
    /// describes its views in its window's coordinates; the pipeline gets them
    /// in screen coordinates, where the keyboard is (DaemonCoreWindows.swift).
    var windows: [ClientID: ClientWindow] = [:]
    /// The compositor's focused window as a bridge last reported it, and the bridge.
    var compositorFocus: (frame: Rect, bridge: ClientID)?
    /// The client that said `focus` last: its window is the one the
    /// compositor focuses (a blur leaves the window focused). Nil once it left.
    var focusHolder: ClientID?
    /// Records every input of the pipeline and its outputs (`--trace`).
    let tracer: TraceRecorder?
    /// Starts reading the configuration file for a client's `reload` (the read
    /// is asynchronous; its outcome comes back as `.reload`).
    var reloadRequested: (ClientID, RequestID?) -> Void = { _, _ in }
    /// Keeps the real keyboard frames learned so far for the next run
    /// (`LearnedFrameStore`); called when a bridge's report changed them.
    var framesLearned: ([Size: Rect]) -> Void = { _ in }
    /// The `events` topic's subscribers and what they are told (DecisionTimeline.swift).
    let timeline: DecisionTimeline

    /// `devices` and `tabletMode` are what the first enumeration found: they count
    /// at once, without the hold-off that damps later hot-plugging.
    /// `rememberedFrames` are the real keyboard frames an earlier run learned.
    /// Throws only when a trace is configured and its file cannot be written.
    init(
        configuration: DaemonConfiguration, devices: [InputDevice] = [], tabletMode: Bool = false,
        rememberedFrames: [Size: Rect] = [:], outbox: any ClientOutbox, clock: @escaping () -> Instant, logger: Logger
    ) throws(TraceOpenError) {
        self.configuration = configuration
        self.logger = logger
        self.outbox = outbox
        timeline = DecisionTimeline(outbox: outbox)
        self.clock = clock
        var keyboards: [String: KeyboardPlacement] = [:]
        for device in devices {
            self.devices[device.description.syspath] = device
            if case .keyboard(let placement) = device.classification.kind { keyboards[device.description.syspath] = placement }
        }
        self.tabletMode = tabletMode
        pipeline = InsetPipeline(
            configuration: configuration.pipeline, screen: configuration.screen, keyboards: keyboards,
            tabletMode: tabletMode, rememberedFrames: rememberedFrames)
        publishedHardwareKeyboard = pipeline.policy.hardwareKeyboardUsable
        if configuration.trace.path != nil {
            let header = TraceHeader(
                screen: configuration.screen, configuration: configuration.pipeline, keyboards: keyboards,
                tabletMode: tabletMode, rememberedFrames: rememberedFrames,
                devices: devices.map(Self.wire).sorted { $0.syspath < $1.syspath })
            tracer = try TraceRecorder(settings: configuration.trace, header: header, logger: logger)
        } else {
            tracer = nil
        }
    }

    /// The core's time, from its clock.
    var now: Instant { clock() }

    /// When the pipeline next needs a `.tick`, on the core's clock.
    var nextDeadline: Instant? { pipeline.nextDeadline }

    func handle(_ event: CoreEvent) {
        // Decision timeline (`events` topic): the state before the event, for what it changed.
        // Stamped when the event is taken, before any of its handling: the
        // pipeline reads its instants after that, so an entry's time is never
        // later than the deadlines its decisions set (a hold-off's expiry is
        // at least the hold-off after the attach that started it).
        let timelineBefore = timeline.isActive ? (state: timelineState(tabletMode: tabletMode, devices: devices.count), at: now) : nil
        defer {
            if let timelineBefore {
                let after = timelineState(tabletMode: tabletMode, devices: devices.count)
                timeline.publish(
                    event, before: timelineBefore.state, after: after, configuration: configuration.pipeline, now: timelineBefore.at)
            }
        }
        defer {
            // A usable hardware keyboard comes and goes after its hold-off (a
            // tick), not only with the event that caused it: `policy`
            // subscribers hear each change whatever brought it.
            if pipeline.policy.hardwareKeyboardUsable != publishedHardwareKeyboard { publishPolicy() }
        }
        switch event {
        case .input(let input): handle(input)
        case .server(let server): handle(server)
        case .tick:
            let now = now
            tracer?.record(.tick(at: now))
            route(pipeline.advance(to: now))
        case .reload(let outcome): reload(outcome)
        }
    }

    // MARK: - Input

    private func handle(_ event: InputEvent) {
        switch event {
        case .keyboardAttached(let device):
            devices[device.description.syspath] = device
            if case .keyboard(let placement) = device.classification.kind {
                feed(.keyboardAttached(id: device.description.syspath, placement: placement), from: .device(Self.wire(device)))
            }
            publish(device: device, event: "attached")
        case .keyboardDetached(let device):
            devices[device.description.syspath] = nil
            feed(.keyboardDetached(id: device.description.syspath), from: .device(Self.wire(device)))
            publish(device: device, event: "detached")
        case .deviceWatched(let device):
            devices[device.description.syspath] = device
            publish(device: device, event: "watched")
        case .deviceIgnored(let device):
            devices[device.description.syspath] = device
            publish(device: device, event: "ignored")
        case .deviceRemoved(let device):
            devices[device.description.syspath] = nil
            publish(device: device, event: "removed")
        case .tabletMode(let on):
            logger.info("tablet mode changed", metadata: ["tabletMode": "\(on ? "on" : "off")"])
            tabletMode = on
            feed(.tabletMode(on), from: .device(nil))
            publishPolicy()
        case .hotkey(let action):
            switch action {
            case .show: feed(.command(.show), from: .hotkey)
            case .hide: feed(.command(.hide), from: .hotkey)
            case .toggle: feed(.command(.toggle), from: .hotkey)
            // Rotating the screen is the shell's or compositor's job: passed on
            // to them; they report the new size with a transition.
            case .rotate: publishRotation(.next)
            case .rotateLeft: publishRotation(.left)
            case .rotateRight: publishRotation(.right)
            }
            // Debug, not info: a log line (timestamp formatting and a write to
            // the journal) was a third of the work between a hotkey and its
            // notification. The action only, never the keys.
            logger.debug("hotkey", metadata: ["action": "\(action.rawValue)"])
        }
    }

    // MARK: - Clients

    private func handle(_ event: ServerEvent) {
        switch event {
        case .joined(let client, let version, let id):
            // The keyboard as apps were told it: a show still waiting for the
            // OSK is not on the screen yet (`status` says the decision).
            var state = snapshot
            state.keyboard = pipeline.keyboardToldApps.map(WireRect.init)
            outbox.send(.welcome(version: version, client: client.rawValue, state: state, id: id), to: client)
        case .left(let id):
            if focused?.client == id { focused = nil }
            windowClientLeft(id)
            bridges.remove(id)
            timeline.remove(id)
            feed(.clientGone(id), from: .client(id))
            bridgeLeft(id)
        case .request(let client, let request):
            // Requests still queued from a client the server has dropped: skip.
            guard outbox.isConnected(client) else { return }
            handle(request, from: client)
        }
    }

    private func handle(_ request: ClientRequest, from client: ClientID) {
        func view(_ name: String) -> ViewID { ViewID(client: client, name: name) }
        func reply(_ message: DaemonMessage) { outbox.send(message, to: client) }
        func acknowledge() { if let id = request.id { reply(.ok(id: id)) } }
        switch request.message {
        case .hello:
            return  // the server answers a repeated hello itself
        case .unregister(let name) where pipeline.engine.description(of: view(name)) == nil:
            reply(.error(ProtocolError(.unknownView, "no view \(view(name)) is registered", id: request.id)))
            return
        case .subscribe(let topics):
            outbox.subscribe(client, to: topics)
            acknowledge()
            if topics.contains(.events) {
                timeline.subscribe(client, state: timelineState(tabletMode: tabletMode, devices: devices.count), now: now)
            }
            return
        case .command(let command):
            logger.info("control command", metadata: ["command": "\(command.rawValue)", "client": "\(client)"])
            if command == .rotate { publishRotation(.next) }
        case .status:
            reply(.status(id: request.id, state: snapshot, clients: outbox.clientCount, views: pipeline.engine.viewIDs.count))
            return
        case .devices:
            reply(.devices(id: request.id, wireDevices))
            return
        case .oskVisibility(let bridge, let visible):
            if visible, lateShowRefused(by: bridge, client: client) { return acknowledge() }
            logger.info("OSK changed by itself or its user", metadata: ["bridge": "\(bridge)", "visible": "\(visible)"])
        case .oskAnimation(let bridge, let animation):
            // Said once per link and OSK, only while one is attached: the OSK's own name.
            bridgeReported(as: bridge, client: client)
            reportedAnimation(animation, by: bridge)
        case .oskRunning(let bridge, let running):
            reportedRunning(running, by: bridge, client: client)
        case .oskFrame(let bridge, let frame):
            // Only the daemon knows the screen: a keyboard wholly off it covers
            // nothing, and one wider than it was measured in another
            // orientation; either is a bridge's mistake, and would be kept.
            let screen = pipeline.policy.screen
            if let frame, frame.intersection(Rect(origin: .zero, size: screen)) == nil {
                reply(.error(ProtocolError(
                    .invalidField, "oskFrame: \"frame\" must intersect the screen (0,0 \(formatPoints(screen.width))x\(formatPoints(screen.height)))",
                    id: request.id)))
                return
            }
            if let frame, frame.width > screen.width + 1 {
                reply(.error(ProtocolError(
                    .invalidField,
                    "oskFrame: \"frame\" is \(formatPoints(frame.width)) wide, wider than the screen (\(formatPoints(screen.width))): measured in another orientation?",
                    id: request.id)))
                return
            }
            if frame != nil { bridgeReported(as: bridge, client: client) }
            reportedFrame(frame, by: bridge, client: client)
        case .oskProblem(let bridge, let problem):
            reportedProblem(problem, by: bridge, client: client)
            return acknowledge()
        case .reload:
            reloadRequested(client, request.id)
            return
        case .window(let frame, let toplevel):
            said(frame, toplevel: toplevel, by: client)
            return acknowledge()
        case .focusedWindow(_, let frame):
            compositorFocused(frame, by: client)
            return acknowledge()
        case .focus(let name, _) where pipeline.engine.description(of: view(name)) != nil:
            // Before the focus is measured: the window it is in may be drawn
            // elsewhere. A focus the pipeline will refuse moves nothing.
            holdFocus(client)
        default:
            break
        }
        guard let event = onScreen(request.message, from: client).pipelineEvent(for: client) else { return acknowledge() }
        do {
            // Only a bridge's frame report changes the learned frames: every
            // other request skips the comparison.
            var learned: [Size: Rect]?
            if case .oskFrame = request.message { learned = pipeline.policy.reportedFrames }
            try step(event, from: .client(client))
            if request.message.isBridgeReport { bridges.insert(client) }
            if case .oskVisibility(let bridge, false) = request.message, let frame = pipeline.policy.frame {
                oskHideOutlived(frame, by: bridge, client: client)
            }
            if case .oskVisibility(_, let visible) = request.message { showGivenUp(visible ? nil : client) }
            if let learned, pipeline.policy.reportedFrames != learned { framesLearned(pipeline.policy.reportedFrames) }
            if case .policy(let mode) = request.message {
                logger.info("keyboard mode changed", metadata: ["mode": "\(mode.rawValue)", "by": "\(client)"])
                publishPolicy()
            }
            trackFocus(request.message, from: client)
            acknowledge()
        } catch {
            // A dismiss the view's keyboardDismissMode does not allow is a bad field value.
            let code: ErrorCode = if case .dismissNotAllowed = error { .invalidField } else { .unknownView }
            reply(.error(ProtocolError(code, error.description, id: request.id)))
        }
    }
    /// A view's frame as the pipeline measures it: in screen coordinates, moved
    /// by the origin its client's window is placed at.
    private func onScreen(_ message: ClientMessage, from client: ClientID) -> ClientMessage {
        guard let origin = windows[client]?.placedAt, origin.x != 0 || origin.y != 0 else { return message }
        switch message {
        case .register(var wire):
            wire.description.frame = wire.description.frame.offsetBy(dx: origin.x, dy: origin.y)
            return .register(wire)
        case .update(var wire):
            wire.description.frame = wire.description.frame.offsetBy(dx: origin.x, dy: origin.y)
            return .update(wire)
        default:
            return message
        }
    }

    private func trackFocus(_ message: ClientMessage, from client: ClientID) {
        switch message {
        case .focus(let name, _):
            let view = ViewID(client: client, name: name)
            if let previous = focused, previous.client != client {
                outbox.send(.focusLost(view: previous.name), to: previous.client)
            }
            focused = view
            if let frame = pipeline.policy.frame {
                for bridge in bridges { restateShown(frame, to: bridge) }
            }
        case .blur(let name), .unregister(let name):
            if focused == ViewID(client: client, name: name) { focused = nil }
        default:
            break
        }
    }

    // MARK: - Outputs

    /// Records the event, then hands it to the pipeline at the same instant (a
    /// replay feeds it at that instant too), and routes the outputs.
    private func step(_ event: PipelineEvent, from source: TraceSource) throws(PipelineError) {
        let now = now
        tracer?.record(.event(at: now, event, source: source))
        route(try pipeline.handle(event, now: now))
    }

    /// `step` for events that name no view, which the pipeline cannot reject.
    func feed(_ event: PipelineEvent, from source: TraceSource) {
        try? step(event, from: source)
    }

    private var snapshot: StateSnapshot {
        var state = StateSnapshot(
            keyboard: pipeline.policy.frame, screen: pipeline.policy.screen, mode: pipeline.policy.configuration.mode,
            tabletMode: tabletMode, hardwareKeyboard: pipeline.policy.hardwareKeyboardUsable)
        state.frameSource = frameSource
        state.oskProblem = oskProblem?.problem
        return state
    }

    /// Runs with `configuration` from now on, its pipeline part as given (the
    /// reload keeps a mode chosen at run time), recorded in the trace.
    func apply(_ configuration: DaemonConfiguration, pipeline pipelineConfiguration: PipelineConfiguration) {
        self.configuration = configuration
        let now = now
        tracer?.record(.reconfigure(at: now, pipelineConfiguration))
        route(pipeline.reconfigure(pipelineConfiguration, now: now))
    }
}
