import PropertyBased
import Testing

@testable import InsetCore

/// Invariants over random sequences of show / hide / resize / rotate / scroll
/// requests / view updates / hardware changes, driven through the whole pipeline.
@Suite struct PipelinePropertyTests {
    /// One random operation: which kind, two free parameters, and the time since
    /// the previous one.
    struct Operation: Sendable, CustomStringConvertible {
        var kind: Int
        var a: Int
        var b: Int
        var delay: Int
        var description: String { "op(\(kind), \(a), \(b), +\(delay)ms)" }
    }

    static let operations = zip(
        Gen.int(in: 0...12), Gen.int(in: 0...1000), Gen.int(in: 0...1000), Gen.int(in: 0...400)
    ).map { Operation(kind: $0, a: $1, b: $2, delay: $3) }.array(of: 1...60)

    static let portrait = Size(width: 390, height: 844)
    static let landscape = Size(width: 844, height: 390)

    /// Three views covering the options: default safe-area behaviour with an own
    /// inset; content-size behaviour that resizes and bounces; a half-height view.
    static func views(for screen: Size) -> [(ViewID, ViewDescription)] {
        let portrait = screen.height > screen.width
        let safe = portrait ? EdgeInsets(top: 47, bottom: 34) : EdgeInsets(left: 47, bottom: 21, right: 47)
        let full = Rect(x: 0, y: 0, width: screen.width, height: screen.height)
        return [
            (
                ViewID(client: ClientID("a"), name: "form"),
                ViewDescription(
                    frame: full, safeAreaInsets: safe.withBottom(safe.bottom + 40), additionalBottomInset: 40,
                    contentSize: Size(width: screen.width, height: 1500),
                    options: ViewOptions(visibilityScrollMargin: 12, keyboardDismissMode: .interactive))
            ),
            (
                ViewID(client: ClientID("a"), name: "list"),
                ViewDescription(
                    frame: full, safeAreaInsets: safe, contentInset: EdgeInsets(top: 8, bottom: 16),
                    indicatorInsets: EdgeInsets(bottom: 16), contentSize: Size(width: screen.width, height: 300),
                    minimumContentSize: Size(width: screen.width, height: 200),
                    options: ViewOptions(
                        behavior: .contentSize, resizesContentForKeyboard: true, keyboardDismissMode: .onDrag,
                        alwaysBounceVertical: true))
            ),
            (
                ViewID(client: ClientID("b"), name: "pane"),
                ViewDescription(
                    frame: Rect(x: 0, y: screen.height / 2, width: screen.width, height: screen.height / 2),
                    safeAreaInsets: EdgeInsets(bottom: safe.bottom), contentSize: Size(width: screen.width, height: 900),
                    contentStretches: false, options: ViewOptions(resizesContentForKeyboard: true))
            ),
        ]
    }

    /// Runs the operations; checks every published offset against the legal range
    /// of the view it was published for; returns the final pipeline and instant and
    /// every output.
    static func run(_ operations: [Operation]) -> (InsetPipeline, Instant, [PipelineOutput]) {
        var screen = portrait
        var pipeline = InsetPipeline(screen: screen)
        var descriptions: [ViewID: ViewDescription] = [:]
        var now = Instant.zero
        var outputs: [PipelineOutput] = []

        func check(_ step: PipelineStep) {
            outputs += step.outputs.map(\.output)
            for case .adjustment(let adjustment) in step.outputs.map(\.output) {
                guard let view = descriptions[adjustment.view] else { continue }
                let insets = adjustment.adjustedContentInset
                let yRange = ViewLayout.legalRange(
                    content: adjustment.contentSize.height, length: view.frame.height, leading: insets.top,
                    trailing: insets.bottom)
                let xRange = ViewLayout.legalRange(
                    content: adjustment.contentSize.width, length: view.frame.width, leading: insets.left,
                    trailing: insets.right)
                #expect(yRange.contains(adjustment.contentOffset.y), "y out of range: \(adjustment)")
                #expect(xRange.contains(adjustment.contentOffset.x), "x out of range: \(adjustment)")
            }
        }
        func send(_ event: PipelineEvent) {
            check(pipeline.advance(to: now))
            if case .register(let id, let view) = event { descriptions[id] = view }
            if case .update(let id, let view) = event, descriptions[id] != nil { descriptions[id] = view }
            do {
                check(try pipeline.handle(event, now: now))
            } catch {
                if case .unknownView(let id) = error { descriptions[id] = nil }
            }
        }

        for (id, view) in views(for: screen) { send(.register(id, view)) }
        for op in operations {
            now = now + .milliseconds(op.delay)
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
                if var view = descriptions[target] {
                    view.contentOffset = Point(x: Double(op.a - 500), y: Double(op.b * 3 - 500))
                    view.contentSize.height = Double(100 + op.b * 2)
                    send(.update(target, view))
                }
            case 6:
                let rect = Rect(x: Double(op.a % 300), y: Double(op.b * 2), width: 80, height: Double(op.a % 90))
                send(.scrollToVisible(ScrollRequest(view: target, rect: rect, margin: op.a % 3 == 0 ? nil : 20)))
            case 7:
                screen = screen == portrait ? landscape : portrait
                send(.transition(duration: .milliseconds(Int64(op.b % 500)), screen: screen))
                for (id, view) in views(for: screen) where descriptions[id] != nil {
                    var rotated = view
                    rotated.contentOffset = descriptions[id]!.contentOffset
                    send(.update(id, rotated))
                }
            case 8: send(.transition(duration: .milliseconds(350), screen: nil))
            case 9: send(.interactiveDismiss(pipeline.focusedView ?? target))
            case 10:
                let frame = Rect(x: 20, y: Double(op.b % 400), width: 300, height: Double(100 + op.a % 300))
                send(.floatingFrame(op.a % 3 == 0 ? nil : frame))
            case 11:
                if descriptions[target] != nil {
                    send(.unregister(target))
                    descriptions[target] = nil
                } else if let view = views(for: screen).first(where: { $0.0 == target }) {
                    send(.register(view.0, view.1))
                }
            default: send(.mode([KeyboardMode.auto, .always, .never][op.b % 3]))
            }
        }
        check(pipeline.advance(to: now + .seconds(10)))
        return (pipeline, now + .seconds(10), outputs)
    }

    @Test func noPublishedOffsetIsEverOutsideTheLegalRange() async {
        await propertyCheck(count: 300, input: Self.operations) { operations in
            _ = Self.run(operations)
        }
    }

    @Test func afterTheKeyboardHidesEveryViewIsExactlyAsItWas() async {
        await propertyCheck(count: 300, input: Self.operations) { operations in
            var (pipeline, now, _) = Self.run(operations)
            if let focused = pipeline.focusedView { _ = try? pipeline.handle(.blur(focused), now: now) }
            _ = try? pipeline.handle(.command(.hide), now: now)
            _ = pipeline.advance(to: now + .seconds(10))
            #expect(pipeline.policy.frame == nil)
            #expect(pipeline.engine.keyboardFrame == nil)
            for id in pipeline.engine.viewIDs {
                let own = pipeline.engine.description(of: id)!
                let published = pipeline.engine.adjustment(of: id)!
                #expect(published.additionalBottomInset == own.additionalBottomInset)
                #expect(published.contentInset == own.contentInset)
                #expect(published.indicatorInsets == own.indicatorInsets)
                #expect(published.alwaysBounceVertical == own.options.alwaysBounceVertical)
                let resting = ViewLayout.adjust(
                    id, own, offset: .zero, keyboard: nil, screen: pipeline.engine.screen, animation: .none)
                #expect(published.contentSize == resting.contentSize)
                #expect(published.adjustedContentInset == resting.adjustedContentInset)
            }
        }
    }

    @Test func everyWillIsFollowedByItsDid() async {
        await propertyCheck(count: 300, input: Self.operations) { operations in
            let phases = Self.run(operations).2.compactMap { output -> KeyboardPhase? in
                if case .keyboard(let note) = output { note.phase } else { nil }
            }
            // Phases alternate will, did, will, did ... in matching pairs, and the
            // run (advanced past every deadline) ends with no movement left open.
            #expect(phases.count % 2 == 0)
            for pair in stride(from: 0, to: phases.count - 1, by: 2) {
                #expect(phases[pair].isWill)
                #expect(phases[pair + 1] == phases[pair].completion)
            }
        }
    }
}
