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
        var outputs: [PipelineOutput] = []
        var script = PipelineScript { step, _, descriptions in
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
        for op in operations { script.apply(op) }
        script.settle()
        return (script.pipeline, script.now, outputs)
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
