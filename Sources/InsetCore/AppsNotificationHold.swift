/// When apps hear of a show (or a frame change) that waits for the on-screen keyboard.
///
/// The policy decides a show at once, and OSK bridges carry the decision out
/// (insetd-osk shows the OSK on `willShow`). While the show waits for a bridge
/// to confirm the OSK on the screen (`InsetPipeline.frameReportWait`: up to
/// 700 ms for GNOME Shell's keyboard, 50-120 ms for squeekboard), an app told
/// of it would draw for a keyboard that is not there yet, and of the
/// configured height before the real one (issue 35: a Qt app read a 336 px
/// keyboard over a window sway had shrunk for a 172 px one). So bridges hear
/// the policy's notifications as they come, and apps hear the show when the
/// filter delivers it, with the frame and animation delivered, in the pass
/// that moves their views; its `didShow` follows an animation later. The same
/// for a frame change that waits for the bridge's measurement (the first in
/// an orientation, or a rotation's, before the OSK is laid out on the turned
/// screen): apps hear the frame the OSK has, not the configured guess.
///
/// Pure: every step takes the instant and returns the notifications to send.
struct AppsNotificationHold: Hashable, Sendable {
    private enum State: Hashable, Sendable {
        case idle
        /// A show or frame change apps have not heard of, to the latest frame.
        case held(KeyboardNotification)
        /// Apps heard the held change, and its `did` note (due at `at`,
        /// nil once sent): the policy's notes that close the show are the
        /// bridges' only, up to the next change.
        case delivered(did: KeyboardNotification, at: Instant?)
        /// The held show was hidden before apps heard of it: its `didHide`
        /// is the bridges' only.
        case hiddenUnheard
    }

    private var state = State.idle

    /// The keyboard as apps were last told, where the policy decided
    /// `decided`: none while a show is held, the frame before a held change.
    func toldApps(decided: Rect?) -> Rect? {
        guard case .held(let held) = state else { return decided }
        return held.phase == .willShow ? nil : held.beginFrame
    }

    /// When the apps' `didShow` or `didChangeFrame` is due.
    var deadline: Instant? {
        if case .delivered(_, let at?) = state { at } else { nil }
    }

    /// A policy notification, and whether its show or frame change waits for a bridge.
    mutating func route(_ note: KeyboardNotification, awaitsBridge: Bool) -> [PipelineOutput] {
        switch state {
        case .idle:
            guard note.phase == .willShow || note.phase == .willChangeFrame, awaitsBridge else { return [.keyboard(note)] }
            state = .held(note)
            return [.bridgeKeyboard(note)]
        case .held(var held):
            switch note.phase {
            case .willHide, .didHide:
                state = note.phase == .willHide ? .hiddenUnheard : .idle
            case .willShow:
                state = .held(note)
            case .didShow, .willChangeFrame, .didChangeFrame:
                // The change apps will hear stays the one they have not heard
                // (a show, or a frame change from the frame they know), to
                // the newest frame.
                held.endFrame = note.endFrame
                state = .held(held)
            }
            return [.bridgeKeyboard(note)]
        case .delivered(let did, let due):
            // The policy closing the show apps heard late: theirs closes on its own.
            if !note.phase.isWill { return [.bridgeKeyboard(note)] }
            state = .idle
            return (due != nil ? [.appsKeyboard(did)] : []) + route(note, awaitsBridge: awaitsBridge)
        case .hiddenUnheard:
            state = .idle
            if note.phase == .didHide { return [.bridgeKeyboard(note)] }
            return route(note, awaitsBridge: awaitsBridge)
        }
    }

    /// The keyboard change was delivered to the views at `now`: a held show
    /// or frame change reaches apps, at the frame delivered (the OSK's own,
    /// once its bridge reported it).
    mutating func delivered(_ change: KeyboardFrameChange, now: Instant) -> [PipelineOutput] {
        guard case .held(let held) = state, let frame = change.frame else { return [] }
        let isShow = held.phase == .willShow
        // A show comes from below the screen, as the policy's; a frame change
        // from the frame apps were last told.
        let begin = isShow ? Rect(origin: Point(x: frame.origin.x, y: held.beginFrame.origin.y), size: frame.size) : held.beginFrame
        let show = KeyboardNotification(
            phase: held.phase, beginFrame: begin, endFrame: frame, animation: change.animation, focusOwner: held.focusOwner)
        var did = show
        did.phase = isShow ? .didShow : .didChangeFrame
        guard change.animation.duration > .zero else {
            state = .delivered(did: did, at: nil)
            return [.appsKeyboard(show), .appsKeyboard(did)]
        }
        state = .delivered(did: did, at: now + change.animation.duration)
        return [.appsKeyboard(show)]
    }

    /// The apps' `didShow` or `didChangeFrame`, when due by `now`.
    mutating func advance(to now: Instant) -> [PipelineOutput] {
        guard case .delivered(let did, let at?) = state, at <= now else { return [] }
        state = .delivered(did: did, at: nil)
        return [.appsKeyboard(did)]
    }
}
