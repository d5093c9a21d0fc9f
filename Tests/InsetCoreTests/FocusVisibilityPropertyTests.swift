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
        var exemptions = Exemptions()
        var script = PipelineScript(
            observe: { step, event, _ in
                switch event {
                case .focus(let id, _): exemptions.movedByClient.remove(id)
                case .scrollToVisible(let request): exemptions.movedByClient.insert(request.view)
                default: break
                }
                exemptions.observe(step)
            },
            clientUpdated: { id, movesView in
                if movesView == true { exemptions.movedByClient.insert(id) } else { exemptions.movedByClient.remove(id) }
            })
        var violation: Violation?
        func settle() {
            guard violation == nil else { return }
            if let found = check(script.pipeline, exemptions) { violation = found; return }
            var copy = script.pipeline
            var copyExemptions = exemptions
            copyExemptions.observe(copy.advance(to: script.now + .seconds(10)))
            violation = check(copy, copyExemptions)
        }
        for op in operations {
            script.apply(op)
            settle()
        }
        script.settle()
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
