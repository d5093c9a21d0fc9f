import InsetCore
import InsetProtocol
import Logging

/// What the core keeps of OSK bridges (insetd-osk): the real keyboard frame
/// one reports, whether one measures it, why its OSK is not on the screen, and
/// what is left of each when a bridge goes.
extension DaemonCore {
    /// A bridge's real keyboard frame replaces the configured height for the
    /// screen's orientation (the pipeline's `floatingFrame`) for as long as
    /// insetd runs. A nil frame says the bridge measures the OSK and confirms
    /// its shows (the pipeline's `frameAwaited`, the request's own event).
    func reportedFrame(_ frame: Rect?, by bridge: String, client: ClientID) {
        if frame != nil {
            if frameReporter?.bridge != bridge { logger.info("keyboard frame reported by an OSK bridge", metadata: ["bridge": "\(bridge)"]) }
            frameReporter = (bridge, client)
        } else {
            // The pipeline hears it as `frameAwaited(true)` (the request's event).
            frameAwaiter = client
        }
    }

    /// Logged when it changes what the keyboard's notifications carry.
    func reportedAnimation(_ animation: Animation?, by bridge: String) {
        guard animation != pipeline.policy.reportedAnimation else { return }
        logger.info(
            "keyboard animation reported by an OSK bridge",
            metadata: ["bridge": "\(bridge)", "animation": "\(animation.map { "\($0)" } ?? "not known: the configured one")"])
    }

    /// The bridge's OSK hid itself right after a focus and the keyboard stays
    /// (`PipelineEvent.oskVisibility`). The bridge took that hide for
    /// the user's and leaves the OSK hidden until insetd's word: it hears that
    /// the keyboard is shown, and shows the OSK again.
    func oskHideOutlived(_ frame: Rect, by bridge: String, client: ClientID) {
        logger.info("the OSK hid as the focus moved to another field: the keyboard stays", metadata: ["bridge": "\(bridge)"])
        restateShown(frame, to: client)
    }

    /// A `didShow` of the keyboard as it is, to one bridge only: the keyboard
    /// is shown, still or again (apps are told nothing; nothing changed). A
    /// bridge hears it when the focus moves with the keyboard up, and after a
    /// hide of its OSK that insetd did not take.
    func restateShown(_ frame: Rect, to bridge: ClientID) {
        restate(.didShow, frame, to: bridge)
    }

    /// The keyboard as insetd has it, `phase` (`didShow` or `didHide`) at
    /// `frame`, to one bridge whose OSK does otherwise.
    private func restate(_ phase: KeyboardPhase, _ frame: Rect, to bridge: ClientID) {
        let note = KeyboardNotification(
            phase: phase, beginFrame: frame, endFrame: frame, animation: .none, focusOwner: pipeline.policy.focusOwner)
        outbox.send(.keyboard(note, isLocal: false), to: bridge)
    }

    /// An OSK that ended shows no keyboard (the pipeline's `oskRunning`); the
    /// bridge that said so is remembered, so that its leaving ends it too (no
    /// one is left to say the OSK is back).
    func reportedRunning(_ running: Bool, by bridge: String, client: ClientID) {
        if running {
            if oskEndedUnder != nil { logger.info("the OSK runs again", metadata: ["bridge": "\(bridge)"]) }
            oskEndedUnder = nil
        } else {
            logger.notice("the OSK ended: no keyboard until it runs again", metadata: ["bridge": "\(bridge)"])
            oskEndedUnder = client
        }
    }

    func reportedProblem(_ problem: String?, by bridge: String, client: ClientID) {
        if let problem {
            logger.notice("the OSK is not on the screen", metadata: ["bridge": "\(bridge)", "problem": "\(problem)"])
            oskProblem = (bridge, client, problem)
        } else if oskProblem?.client == client {
            logger.info("OSK problem resolved", metadata: ["bridge": "\(bridge)"])
            oskProblem = nil
        }
    }

    /// A bridge's hide (`hider`), or a show: a hide right after the bridge
    /// said its OSK did not show is the bridge giving the show up.
    func showGivenUp(_ hider: ClientID?) {
        guard let hider else { return showGivenUpBy = nil }
        showGivenUpBy = oskProblem?.client == hider ? (hider, now) : nil
    }

    /// How long after a bridge gave a show up its OSK showing is the late
    /// answer to the asks, not a user's show: insetd-osk's own bound
    /// (`BridgeTiming.lateShowAfterGivingUp`).
    static let givenUpShowAnswered: Duration = .seconds(5)

    /// The OSK a bridge gave up on showed after all (maliit's first show after
    /// it starts can take seconds): the keyboard stays only if a field is
    /// still focused, as the show was asked for one. With none (the app blurred
    /// meanwhile) the show is refused and the bridge told the keyboard is
    /// hidden, so it hides the OSK: shown, it would be padded for with
    /// nothing to type into.
    func lateShowRefused(by bridge: String, client: ClientID) -> Bool {
        guard let givenUp = showGivenUpBy, givenUp.client == client else { return false }
        showGivenUpBy = nil
        guard now < givenUp.at + Self.givenUpShowAnswered else { return false }
        if pipeline.focusedView != nil {
            logger.info("the OSK showed after its bridge gave up on it: a field is focused, so it stays", metadata: ["bridge": "\(bridge)"])
            return false
        }
        logger.info("the OSK showed after its bridge gave up on it, with no field focused: hidden again", metadata: ["bridge": "\(bridge)"])
        let screen = pipeline.policy.screen
        restate(.didHide, Rect(x: 0, y: screen.height, width: screen.width, height: 0), to: client)
        return true
    }

    /// The bridge that reported the frame is gone. The OSK it drove is most
    /// likely still the one that will show (insetd-osk restarts, the OSK does
    /// not change size), so the frames it reported stay: a show before the next
    /// bridge reports publishes them, not the configured guess.
    func bridgeLeft(_ id: ClientID) {
        if oskProblem?.client == id { oskProblem = nil }
        if showGivenUpBy?.client == id { showGivenUpBy = nil }
        if oskEndedUnder == id {
            oskEndedUnder = nil
            feed(.oskRunning(true), from: .client(id))
        }
        if frameAwaiter == id {
            frameAwaiter = nil
            feed(.frameAwaited(false), from: .client(id))
        }
        guard let reporter = frameReporter, reporter.client == id else { return }
        frameReporter = (reporter.bridge, nil)
        logger.info("OSK bridge gone; the keyboard frames it reported stay", metadata: ["bridge": "\(reporter.bridge)"])
    }

    /// A bridge of another OSK than the one whose frames insetd keeps, once
    /// that one's bridge has left: the device switched OSKs (wvkbd's 300 px
    /// would pad for squeekboard's 172). The kept frames are the old keyboard's
    /// and are forgotten, here and in the learned-frames file: the configured
    /// guess stands until the new bridge reports its own. Heard only from
    /// reports a bridge makes with an OSK attached (its animation, an accepted
    /// frame), which carry that OSK's name; a bridge waiting for its OSK
    /// reports problems under a placeholder, which must not count.
    func bridgeReported(as bridge: String, client: ClientID) {
        guard let reporter = frameReporter, reporter.client == nil, reporter.bridge != bridge else { return }
        frameReporter = nil
        logger.info(
            "keyboard frames of another OSK forgotten", metadata: ["bridge": "\(bridge)", "reported by": "\(reporter.bridge)"])
        feed(.floatingFrame(nil), from: .client(client))
        framesLearned(pipeline.policy.reportedFrames)
    }

    /// Where the keyboard frame in use comes from (`state.frameSource`).
    var frameSource: String {
        let reported = pipeline.policy.reportedFrame(for: pipeline.policy.screen) != nil
        switch frameReporter {
        case let reporter? where !reported: return "configured (none reported by \(reporter.bridge) for this orientation yet)"
        case let reporter? where reporter.client == nil: return "learned from \(reporter.bridge)"
        case let reporter?: return "reported by \(reporter.bridge)"
        case nil where reported: return "remembered (reported by an OSK bridge in an earlier run)"
        case nil: return "configured"
        }
    }
}
