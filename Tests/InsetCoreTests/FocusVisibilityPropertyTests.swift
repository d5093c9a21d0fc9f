import PropertyBased
import Testing

@testable import InsetCore

/// The engine's promise as a property: once the pipeline has nothing pending, a
/// focused field that fits in its view's visible area lies inside it, after any
/// sequence of keyboard, hardware, focus, content, scroll and rotation events.
///
/// The one exception is the client's own doing: a client that moved the view's
/// offset itself (an update stating a new offset, which is the user scrolling, or
/// a scroll request for another rect) has chosen where the view is, and insetd
/// leaves it there until the next change insetd answers for: a focus (or a field
/// restated), a keyboard movement (seen as its `will` notification), a rotation.
/// The test tracks that from the events it sends and the notifications it sees,
/// never from the pipeline's private state.
@Suite struct FocusVisibilityPropertyTests {
    typealias Operation = PipelinePropertyTests.Operation

    static let operations = zip(
        Gen.int(in: 0...14), Gen.int(in: 0...1000), Gen.int(in: 0...1000), Gen.int(in: 0...400)
    ).map { Operation(kind: $0, a: $1, b: $2, delay: $3) }.array(of: 1...40)

    /// Which focused views the client itself moved since insetd last answered for them.
    struct Exemptions {
        var movedByClient: Set<ViewID> = []

        mutating func observe(_ step: PipelineStep) {
            let keyboardMoves = step.outputs.contains {
                if case .keyboard(let note) = $0.output { note.phase.isWill } else { false }
            }
            if keyboardMoves { movedByClient = [] }
        }
    }

    /// A failure: the operations that led to it and what was wrong.
    struct Violation: Error, CustomStringConvertible {
        var description: String
    }

    /// The field, visible area and legal range of the focused view, when the
    /// invariant applies to it (quiet pipeline, field focused, not moved by the
    /// client, field fits); nil otherwise. `fits` means some legal offset shows
    /// the whole field between the adjusted top and bottom insets.
    static func check(_ pipeline: InsetPipeline, _ exemptions: Exemptions) -> Violation? {
        guard pipeline.nextDeadline == nil, let focus = pipeline.focus,
            !exemptions.movedByClient.contains(focus.view),
            let view = pipeline.engine.description(of: focus.view),
            let published = pipeline.engine.adjustment(of: focus.view)
        else { return nil }
        let insets = published.adjustedContentInset
        let height = view.frame.height
        let legal = ViewLayout.legalRange(
            content: published.contentSize.height, length: height, leading: insets.top, trailing: insets.bottom)
        // The offsets that show the whole field: from its bottom edge at the
        // visible bottom to its top edge at the visible top.
        let lowest = focus.field.maxY - height + insets.bottom
        let highest = focus.field.minY - insets.top
        guard lowest <= highest, (lowest...highest).overlaps(legal) else { return nil }
        let y = published.contentOffset.y
        let top = y + insets.top
        let bottom = y + height - insets.bottom
        let epsilon = 1e-9
        guard focus.field.minY >= top - epsilon, focus.field.maxY <= bottom + epsilon else {
            return Violation(
                description: "field \(focus.field) of \(focus.view) outside visible \(top)...\(bottom): \(published)")
        }
        return nil
    }

    /// Runs the operations; after each one, checks the invariant on the pipeline
    /// as it is, and on a copy advanced until nothing is pending (the state the
    /// driver reaches if no further event comes).
    static func run(_ operations: [Operation]) -> Violation? {
        var screen = PipelinePropertyTests.portrait
        var pipeline = InsetPipeline(screen: screen)
        var exemptions = Exemptions()
        var descriptions: [ViewID: ViewDescription] = [:]
        var now = Instant.zero
        var violation: Violation?

        func settle() {
            guard violation == nil else { return }
            if let found = check(pipeline, exemptions) { violation = found; return }
            var copy = pipeline
            var copyExemptions = exemptions
            copyExemptions.observe(copy.advance(to: now + .seconds(10)))
            violation = check(copy, copyExemptions)
        }
        func send(_ event: PipelineEvent) {
            exemptions.observe(pipeline.advance(to: now))
            if case .register(let id, let view) = event { descriptions[id] = view }
            if case .update(let id, let view) = event, descriptions[id] != nil { descriptions[id] = view }
            do {
                let step = try pipeline.handle(event, now: now)
                switch event {
                case .focus(let id, _): exemptions.movedByClient.remove(id)
                case .scrollToVisible(let request): exemptions.movedByClient.insert(request.view)
                default: break
                }
                exemptions.observe(step)
            } catch {
                if case .unknownView(let id) = error { descriptions[id] = nil }
            }
        }
        /// A client update outside a rotation: it moves the view (the user
        /// scrolled) unless it states the offset insetd published.
        func clientUpdate(_ id: ViewID, _ view: ViewDescription) {
            if pipeline.engine.adjustment(of: id)?.contentOffset != view.contentOffset {
                exemptions.movedByClient.insert(id)
            } else {
                exemptions.movedByClient.remove(id)
            }
            send(.update(id, view))
        }

        for (id, view) in PipelinePropertyTests.views(for: screen) { send(.register(id, view)) }
        for op in operations {
            now = now + .milliseconds(op.delay)
            // Deadlines first, so an update states the offset published by now.
            exemptions.observe(pipeline.advance(to: now))
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
                screen = screen == PipelinePropertyTests.portrait
                    ? PipelinePropertyTests.landscape : PipelinePropertyTests.portrait
                send(.transition(duration: .milliseconds(Int64(op.b % 500)), screen: screen))
                for (id, view) in PipelinePropertyTests.views(for: screen) where descriptions[id] != nil {
                    var rotated = view
                    rotated.contentOffset = pipeline.engine.adjustment(of: id)?.contentOffset ?? .zero
                    // A zero-length rotation is over before the views report: their
                    // updates are ordinary ones. Otherwise each is the view's new size.
                    if op.b % 500 == 0 {
                        clientUpdate(id, rotated)
                    } else {
                        exemptions.movedByClient.remove(id)
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
            settle()
        }
        now = now + .seconds(10)
        exemptions.observe(pipeline.advance(to: now))
        settle()
        return violation
    }

    /// 2000 random sequences in every run of the suite; a failure is shrunk to a
    /// minimal sequence, which belongs in `Scenarios/` as a golden file.
    @Test func theFocusedFieldIsVisibleOnceThePipelineIsQuiet() async {
        await propertyCheck(count: 2000, input: Self.operations) { operations in
            let violation = Self.run(operations)
            #expect(violation == nil, "\(operations): \(violation?.description ?? "")")
        }
    }
}
