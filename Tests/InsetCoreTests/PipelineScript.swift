@testable import InsetCore

/// The property tests' one interpreter of random operations: it turns each
/// `PipelinePropertyTests.Operation` into the events a driver and its clients
/// would send (focus, blur, commands, hardware, scrolling, content changes,
/// rotations with every view reporting its new size, navigation, floating
/// frames, views coming and going, modes, a restated field), advancing the
/// clock first. What a property checks, it observes through `observe` (every
/// step, with the event that caused it) and `clientUpdated`.
struct PipelineScript {
    private(set) var pipeline: InsetPipeline
    private(set) var screen = PipelinePropertyTests.portrait
    /// Each registered view as its client last described it.
    private(set) var descriptions: [ViewID: ViewDescription] = [:]
    private(set) var now = Instant.zero
    /// Every step the pipeline takes: with the event that caused it (nil: time
    /// passing) and the views' descriptions as of that event.
    let observe: (PipelineStep, PipelineEvent?, [ViewID: ViewDescription]) -> Void
    /// A client's update: true when it moves the view (the user scrolling),
    /// false when it states the offset insetd published, nil when it is the
    /// view's new size in a rotation.
    let clientUpdated: (ViewID, Bool?) -> Void

    init(
        observe: @escaping (PipelineStep, PipelineEvent?, [ViewID: ViewDescription]) -> Void,
        clientUpdated: @escaping (ViewID, Bool?) -> Void = { _, _ in }
    ) {
        pipeline = InsetPipeline(screen: screen)
        self.observe = observe
        self.clientUpdated = clientUpdated
        for (id, view) in PipelinePropertyTests.views(for: screen) { send(.register(id, view)) }
    }

    mutating func send(_ event: PipelineEvent) {
        observe(pipeline.advance(to: now), nil, descriptions)
        if case .register(let id, let view) = event { descriptions[id] = view }
        if case .update(let id, let view) = event, descriptions[id] != nil { descriptions[id] = view }
        do {
            observe(try pipeline.handle(event, now: now), event, descriptions)
        } catch {
            if case .unknownView(let id) = error { descriptions[id] = nil }
        }
    }

    /// An update outside a rotation: it moves the view (the user scrolled)
    /// unless it states the offset insetd published.
    private mutating func clientUpdate(_ id: ViewID, _ view: ViewDescription) {
        clientUpdated(id, pipeline.engine.adjustment(of: id)?.contentOffset != view.contentOffset)
        send(.update(id, view))
    }

    /// Lets `seconds` pass with no event: every deadline falls due.
    mutating func settle(for seconds: Int64 = 10) {
        now = now + .seconds(seconds)
        observe(pipeline.advance(to: now), nil, descriptions)
    }

    mutating func apply(_ op: PipelinePropertyTests.Operation) {
        now = now + .milliseconds(op.delay)
        // Deadlines first, so an update states the offset published by now.
        observe(pipeline.advance(to: now), nil, descriptions)
        let ids = descriptions.keys.sorted()
        let target = ids.isEmpty ? ViewID(client: ClientID("a"), name: "form") : ids[op.a % ids.count]
        switch op.kind {
        case 0: send(.focus(target, field: Rect(x: 0, y: Double(op.b * 2), width: 100, height: 44)))
        case 1: send(.blur(pipeline.focusedView ?? target))
        case 2: send(.command([KeyboardCommand.show, .hide, .toggle][op.b % 3]))
        case 3:
            send(
                op.b % 2 == 0
                    ? .keyboardAttached(id: "kb\(op.a % 2)", placement: op.a % 4 < 2 ? .internal : .external)
                    : .keyboardDetached(id: "kb\(op.a % 2)"))
        case 4: send(.tabletMode(op.b % 2 == 0))
        case 5:
            // The user scrolls, and the content changes height.
            if var view = descriptions[target] {
                view.contentOffset = Point(x: Double(op.a - 500), y: Double(op.b * 3 - 500))
                view.contentSize.height = Double(100 + op.b * 2)
                clientUpdate(target, view)
            }
        case 6:
            let rect = Rect(x: Double(op.a % 300), y: Double(op.b * 2), width: 80, height: Double(op.a % 90))
            send(.scrollToVisible(ScrollRequest(view: target, rect: rect, margin: op.a % 3 == 0 ? nil : 20)))
        case 7:
            screen = screen == PipelinePropertyTests.portrait ? PipelinePropertyTests.landscape : PipelinePropertyTests.portrait
            send(.transition(duration: .milliseconds(Int64(op.b % 500)), screen: screen))
            for (id, view) in PipelinePropertyTests.views(for: screen) where descriptions[id] != nil {
                var rotated = view
                rotated.contentOffset = pipeline.engine.adjustment(of: id)?.contentOffset ?? .zero
                // A zero-length rotation is over before the views report: their
                // updates are ordinary ones. Otherwise each is the view's new size.
                if op.b % 500 == 0 {
                    clientUpdate(id, rotated)
                } else {
                    clientUpdated(id, nil)
                    send(.update(id, rotated))
                }
            }
        case 8: send(.transition(duration: .milliseconds(Int64(op.b)), screen: nil))
        case 9: send(.interactiveDismiss(pipeline.focusedView ?? target))
        case 10:
            let frame = Rect(x: 20, y: Double(op.b % 400), width: 300, height: Double(100 + op.a % 300))
            send(.floatingFrame(op.a % 3 == 0 ? nil : frame))
        case 11:
            if descriptions[target] != nil {
                send(.unregister(target))
                descriptions[target] = nil
            } else if let view = PipelinePropertyTests.views(for: screen).first(where: { $0.0 == target }) {
                send(.register(view.0, view.1))
            }
        case 12: send(.mode([KeyboardMode.auto, .always, .never][op.b % 3]))
        case 13:
            // The content changes under the view; the offset is the one insetd published.
            if var view = descriptions[target] {
                view.contentOffset = pipeline.engine.adjustment(of: target)?.contentOffset ?? .zero
                view.contentSize.height = Double(200 + op.b * 2)
                clientUpdate(target, view)
            }
        default:
            // The focused field moves with the content: the client restates it.
            if let focused = pipeline.focusedView {
                send(.focus(focused, field: Rect(x: 10, y: Double(op.b * 2), width: 120, height: 30)))
            }
        }
    }
}
