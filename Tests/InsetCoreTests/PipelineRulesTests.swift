import Testing

@testable import InsetCore

/// Rules of issue 13 at the pipeline's API, beside their golden scenarios (29-35).
@Suite struct PipelineRulesTests {
    static let screen = Size(width: 390, height: 844)
    static let form = ViewID(client: ClientID("app"), name: "form")

    static func pipeline(dismiss: KeyboardDismissMode) throws -> InsetPipeline {
        var pipeline = InsetPipeline(screen: screen)
        let view = ViewDescription(
            frame: Rect(x: 0, y: 0, width: 390, height: 844), safeAreaInsets: EdgeInsets(top: 47, bottom: 34),
            contentSize: Size(width: 390, height: 2000), options: ViewOptions(keyboardDismissMode: dismiss))
        _ = try pipeline.handle(.register(form, view), now: .zero)
        _ = try pipeline.handle(.focus(form, field: Rect(x: 16, y: 100, width: 358, height: 44)), now: .zero)
        _ = pipeline.advance(to: .milliseconds(1000))
        return pipeline
    }

    /// Refused with the mode named, and the keyboard, the focus and the view's
    /// published state are as they were.
    @Test func dismissOnAViewWithoutADismissModeIsRefusedAndChangesNothing() throws {
        var pipeline = try Self.pipeline(dismiss: .none)
        let before = (pipeline.policy.frame, pipeline.focus, pipeline.engine.adjustment(of: Self.form))
        #expect(before.0 == Rect(x: 0, y: 508, width: 390, height: 336))
        #expect(throws: PipelineError.dismissNotAllowed(Self.form, mode: .none)) {
            try pipeline.handle(.interactiveDismiss(Self.form), now: .milliseconds(2000))
        }
        #expect(
            PipelineError.dismissNotAllowed(Self.form, mode: .none).description
                == "dismiss: view app/form has keyboardDismissMode none; only onDrag or interactive views can dismiss the keyboard")
        let after = pipeline.advance(to: .milliseconds(3000))
        #expect(after.outputs.isEmpty)
        #expect(pipeline.policy.frame == before.0)
        #expect(pipeline.focus == before.1)
        #expect(pipeline.engine.adjustment(of: Self.form) == before.2)
    }

    @Test(arguments: [KeyboardDismissMode.onDrag, .interactive])
    func dismissOnAViewThatAllowsItHidesTheKeyboard(_ mode: KeyboardDismissMode) throws {
        var pipeline = try Self.pipeline(dismiss: mode)
        let step = try pipeline.handle(.interactiveDismiss(Self.form), now: .milliseconds(2000))
        #expect(step.outputs.map(\.output.description).first?.hasPrefix("keyboard willHide") == true)
        #expect(pipeline.focus == nil)
        // Flushed: the view's own bottom inset (0 additional) is back at once.
        #expect(pipeline.engine.adjustment(of: Self.form)?.additionalBottomInset == 0)
    }

    @Test func dismissOnAnUnregisteredViewIsAnUnknownView() throws {
        var pipeline = try Self.pipeline(dismiss: .interactive)
        let ghost = ViewID(client: ClientID("app"), name: "ghost")
        #expect(throws: PipelineError.unknownView(ghost)) {
            try pipeline.handle(.interactiveDismiss(ghost), now: .milliseconds(2000))
        }
        #expect(pipeline.policy.frame != nil)
    }

    /// Restating the focused field is no focus change: a user's hide stands.
    @Test func restatingTheFieldKeepsAUsersHide() throws {
        var pipeline = try Self.pipeline(dismiss: .none)
        _ = try pipeline.handle(.command(.hide), now: .milliseconds(2000))
        _ = pipeline.advance(to: .milliseconds(3000))
        let step = try pipeline.handle(
            .focus(Self.form, field: Rect(x: 16, y: 1400, width: 358, height: 44)), now: .milliseconds(4000))
        #expect(pipeline.policy.frame == nil)
        #expect(!step.outputs.contains { if case .keyboard = $0.output { true } else { false } })
        // Scrolled at once against the resting insets: 1444 - (844 - 34) = 634.
        #expect(pipeline.engine.adjustment(of: Self.form)?.contentOffset == Point(x: 0, y: 634))
    }
}
