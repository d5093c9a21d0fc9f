import InsetCore

/// insetd-osk's decisions, as a pure state machine: an event and the time in,
/// actions and the next wake out; no clock, no I/O (as the core's modules are).
/// It exists so the timelines that matter (a show confirmed, dropped and
/// asserted again, given up; the user's own hide; an OSK crash; an insetd
/// restart; a keyboard under a full-screen window) are decided in one place
/// and tested with exact times.
package struct BridgeMachine: Sendable {
    package let timing: BridgeTiming

    // insetd's side.
    package private(set) var linked = false
    var screen = Size(width: 0, height: 0)
    var keyboardShown = false
    /// The OSK was seen up since insetd's keyboard was last shown (a hide
    /// seen after it is one on its way, `holdsWindow`).
    var seenUpWhileShown = false
    var hardwareKeyboard = false
    /// The user's (or the OSK's own) last show or hide: it stands, even against a
    /// hardware keyboard, until insetd's keyboard goes the other way.
    var userChoice: Bool?

    // The OSK's side.
    /// The OSK's name in log lines and problems (until it attaches: the configured backend's).
    package private(set) var name: String
    package private(set) var attached = false
    var observable = false
    var configured: ConfiguredHeights?
    var measurable = false
    /// The OSK says where it is (`BridgeEvent.oskAttached`'s `reportsFrame`).
    var reportsFrame = false
    var laysOutOnOutputChange = false
    /// The OSK says whether it is shown; else the compositor's usable area does.
    var reportsVisibility = true
    /// insetd was told, on this link, that the frame is measured and shows confirmed (a nil frame).
    var announcedMeasuring = false
    var animation: Animation?
    /// insetd was told, on this link, how the attached OSK moves.
    var announcedAnimation = false
    var hardwareApplied: Bool?
    /// What the OSK was last asked to do.
    package internal(set) var applied: Bool?
    package private(set) var observed: Bool?
    var visibleSince: Instant?
    /// When insetd last said the keyboard is shown while it already was (the
    /// focus moved): a hide within `settle` of it is a drop, as after a show.
    var restatedAt: Instant?
    var lastShowSent: Instant?
    /// When the bridge last hid the OSK itself (`hide`).
    var lastHideSent: Instant?
    /// When the bridge last gave up on a show (`giveUp`); cleared by the next show asked for.
    var gaveUpAt: Instant?

    // A show being asserted: sends so far in this episode, and when to look again.
    var attempts = 0
    var nextCheck: Instant?
    /// An unrequested hide of a settled keyboard, waiting out `userHideHold`.
    var pendingUserHide: Instant?

    // What insetd was told.
    var showProblem: String?
    var fullscreenProblem: String?
    var reportedProblem: String?
    var nextFullscreenCheck: Instant?
    var realFrame: Rect?
    var reportedFrame: Rect?
    /// The output changed size: the next frame measured is reported even if
    /// insetd has it already, since insetd waits for a report on each new
    /// screen (a quick turn and back measures the frame it had).
    var reportAgain = false
    /// Until when the compositor's usable area is read for the real frame.
    package internal(set) var measureUntil: Instant?
    var gauge = ExclusiveZoneGauge()
    /// When the usable area was last read, and whether a reading is wanted now
    /// (the OSK seen hidden: the gap without it, the baseline).
    var lastAreaRead: Instant?
    var baselineWanted = false
    /// A reading of the usable area was taken with a bus OSK seen hidden:
    /// the gauge's baseline is one without the keyboard.
    var sawHidden = false
    /// The output's size and bottom gap at the last reading of the usable area.
    var lastOutput: Size?
    var lastGap: Double?
    /// When the output last changed size under a shown OSK, and the gap then
    /// (`BridgeTiming.relayoutWait`).
    var outputChanged: (at: Instant, gap: Double)?
    /// The OSK was attached and then ended, and has not attached since: insetd
    /// is told (again on every link), so it shows no keyboard meanwhile.
    var oskEnded = false
    /// The OSK said it shows and the usable area does not show its zone
    /// yet: the show is confirmed to insetd when the area does, or on the
    /// OSK's word at this time (`confirmWindow`).
    var confirmUntil: Instant?
    /// A confirmation waits for the OSK's zone in the usable area.
    var confirmOnArea: Bool { confirmUntil != nil }
    /// Whether the last reading of the usable area showed the OSK's zone.
    var areaCovered = false
    /// insetd moved its keyboard to a frame of its own (a turn): the area is
    /// read every frame until the OSK's frame is measured, or this time.
    var quickReadsUntil: Instant?

    package init(name: String = "the OSK", timing: BridgeTiming = BridgeTiming()) {
        self.name = name
        self.timing = timing
    }

    /// The OSK should be up: insetd shows a full keyboard (not only the bar that a
    /// hardware keyboard leaves, which the app draws), or the user said so.
    var desired: Bool { userChoice ?? (keyboardShown && !hardwareKeyboard) }

    /// Whether a show is waiting for the OSK to confirm it (then every wake reads it again).
    package var asserting: Bool { nextCheck != nil }

    /// insetd shows a keyboard that the OSK was last seen not showing (a
    /// hide on its way: the user's, or the compositor's at a blur, before
    /// insetd hides too). A compositor that moved the focused window out of
    /// the keyboard's way puts it back then: relayed now, insetd would
    /// measure the window back under a keyboard it still shows and pad it
    /// for one that is gone. Where the window is waits until the two agree.
    /// While a show is on its way the window is relayed at once: the
    /// compositor moves it before it says the keyboard is up.
    package var holdsWindow: Bool { hideMayBeUnderway && observed == false }

    /// insetd shows a keyboard the OSK was seen showing: a hide may be under
    /// way that the machine has not heard of yet (KWin moves the window back
    /// just before it says the keyboard is hidden), so the bridge asks the
    /// OSK before it relays a window that moved.
    package var hideMayBeUnderway: Bool { keyboardShown && !hardwareKeyboard && seenUpWhileShown }

    /// Takes one event at `now`: the actions to carry out in order, and the
    /// latest time to come back with a `.tick` (nil: only when something happens).
    package mutating func handle(_ event: BridgeEvent, now: Instant) -> BridgeStep {
        var out: [BridgeAction] = []
        switch event {
        case .linkConnected(let screen, let shown, let hardware, let keyboard):
            linked = true
            self.screen = screen
            gauge.linked()
            // Shown already: the OSK may be up from before this insetd-osk (or
            // this link) began, and no reading has seen it hidden.
            if shown, let keyboard { gauge.expect(height: keyboard.height, screen: screen) }
            keyboardShown = shown
            seenUpWhileShown = false
            hardwareKeyboard = hardware
            userChoice = nil
            resetEpisode()
            // A restarted insetd knows nothing: frame and problem are sent again.
            reportedFrame = nil
            reportedProblem = nil
            if oskEnded { out.append(.reportRunning(false)) }
            announcedMeasuring = false
            announcedAnimation = false
            announceAnimation(&out)
            reportConfiguredFrame(&out)
            if let realFrame { report(frame: realFrame, &out) }
            announceMeasuring(&out)
        case .linkLost:
            linked = false
            resetEpisode()
        case .keyboard(let shown):
            // Shown again while shown: insetd restates it when the focus moves
            // to another field, at which an OSK that follows the app's text
            // input (squeekboard) may drop it, as right after a show.
            if shown, keyboardShown { restatedAt = now }
            if shown != keyboardShown { seenUpWhileShown = shown && observed == true }
            keyboardShown = shown
            if let choice = userChoice, choice != shown { userChoice = nil }
            // A hide seen while insetd hides anyway (squeekboard on blur) is not news.
            if !shown { pendingUserHide = nil }
        case .keyboardMoved(let frame):
            movedByInsetd(to: frame, now: now)
        case .hardwareKeyboard(let usable):
            hardwareKeyboard = usable
        case .oskAttached(
            let name, let observable, let configured, let measurable, let reportsVisibility, let animation, let reportsFrame,
            let laysOutOnOutputChange):
            self.name = name
            moves(animation)
            self.observable = observable
            self.configured = configured
            self.measurable = measurable
            self.reportsFrame = reportsFrame
            self.reportsVisibility = reportsVisibility
            self.laysOutOnOutputChange = laysOutOnOutputChange
            attached = true
            if oskEnded {
                oskEnded = false
                if linked { out.append(.reportRunning(true)) }
            }
            // Whatever the OSK shows now, it gets insetd's decision again, at once.
            applied = nil
            observed = nil
            hardwareApplied = nil
            visibleSince = nil
            if nextCheck != nil { nextCheck = now }
            announceAnimation(&out)
            reportConfiguredFrame(&out)
            announceMeasuring(&out)
        case .oskAnimation(let animation):
            if attached {
                moves(animation)
                announceAnimation(&out)
            }
        case .oskDetached:
            // No keyboard is on the screen now, whatever insetd decided.
            if attached, !oskEnded {
                oskEnded = true
                if linked { out.append(.reportRunning(false)) }
            }
            // A show that had settled counts as done: its return is a new episode.
            if settled(now: now) { attempts = 0 }
            attached = false
            applied = nil
            observed = nil
            visibleSince = nil
            pendingUserHide = nil
            confirmUntil = nil
        case .oskObserved(let visible):
            if !visible { baselineWanted = true }
            observe(visible, now: now, &out)
        case .frameMeasured(let frame, let source):
            measured(frame, source: source, now: now, &out)
        case .usableArea(let area):
            lastAreaRead = now
            baselineWanted = false
            if area != nil, observed == false { sawHidden = true }
            if let area { read(area, now: now, &out) }
        case .fullscreen(let window):
            fullscreen(window, &out)
        case .frameRefused:
            // Not known to insetd after all: measured and reported again, at
            // the next readings, until insetd's screen has turned too.
            reportedFrame = nil
            if attached, observed == true { measureUntil = now + timing.measureWindow }
        case .tick:
            break
        }
        confirmWithoutZone(now: now, &out)
        reconcile(now: now, &out)
        return BridgeStep(actions: out, wake: wake, readArea: readArea(now: now))
    }

    // MARK: - The OSK's word

    mutating func observe(_ visible: Bool, now: Instant, _ out: inout [BridgeAction]) {
        guard attached, visible != observed else { return }
        let previous = observed
        let since = visibleSince
        observed = visible
        if visible {
            seenUpWhileShown = keyboardShown
            visibleSince = now
            pendingUserHide = nil
            measureUntil = now + timing.measureWindow
            nextFullscreenCheck = now
            if nextCheck != nil {
                out.append(.trace("\(name) shown (confirmed at attempt \(attempts))"))
                nextCheck = nil
                confirmShown(now: now, &out)
            }
            showProblem = nil
            // The first reading, or the OSK doing what it was asked: not news.
            guard previous == false, !desired else { return }
            if let sent = lastShowSent, now < sent + timing.settle {
                // A show sent just before insetd hid again, arriving late: hide it again.
                out.append(.trace("\(name) showed after insetd hid again: hiding it"))
                applied = nil
                return
            }
            if let hidden = lastHideSent, now < hidden + timing.settle {
                // Shown again by its compositor as the app's text input
                // settles (KWin shows maliit again after the bridge's hide
                // while Chromium still has text input on): no user is that quick.
                out.append(.trace("\(name) showed right after insetd-osk hid it: hiding it again"))
                applied = nil
                return
            }
            if let gaveUp = gaveUpAt, now < gaveUp + timing.lateShowAfterGivingUp {
                // The asks the bridge gave up on, answered late (maliit's first
                // show after it starts): reported as shown, and insetd, which
                // knows whether the field that asked is still focused, keeps
                // it or says hidden (then it is hidden here).
                gaveUpAt = nil
                out.append(.log("\(name) showed after insetd-osk gave up on it: insetd decides whether it stays"))
                userSaid(true, now: now, &out)
                return
            }
            out.append(.log("\(name) was shown by itself or its user"))
            userSaid(true, now: now, &out)
            return
        }
        visibleSince = nil
        areaCovered = false
        confirmUntil = nil
        // Hidden from the start, or hidden while insetd hides anyway: not news.
        guard previous == true, desired else { return }
        // The bridge's own hide, seen (a show waits for it: `assertShow`).
        if applied == false { return }
        if settled(since: since, now: now) {
            pendingUserHide = now
        } else {
            // Dropped before it settled (squeekboard's reset at a text-input change): assert again now.
            out.append(.trace("\(name) hid again right after showing: asserting the show again"))
            nextCheck = now
        }
    }

    /// Visible, and no show sent, for `settle`: a hide now is no drop.
    func settled(since: Instant? = nil, now: Instant) -> Bool {
        guard let since = since ?? visibleSince else { return false }
        return now >= max(since, lastShowSent ?? since, restatedAt ?? since) + timing.settle
    }

    /// The user (or the OSK by itself) showed or hid it: insetd treats it as the
    /// show / hide command, and until its notification arrives nothing undoes it.
    mutating func userSaid(_ visible: Bool, now: Instant, _ out: inout [BridgeAction]) {
        applied = visible
        keyboardShown = visible
        seenUpWhileShown = visible
        userChoice = visible
        resetEpisode()
        if linked { out.append(.reportVisibility(visible)) }
        // The user's show is on the screen already: insetd's show waits for this.
        if visible { confirmShown(now: now, &out) }
    }

    /// The OSK says it is shown: insetd is told so by the frame again, though
    /// it has it (the report is the keyboard on the screen, and insetd moves
    /// the views now instead of waiting). A bus OSK says it shows before the
    /// compositor maps its surface (20-80 ms before, squeekboard on sway under
    /// load): where the usable area is read, the report waits for its zone
    /// there, read every frame (`readArea`), for at most `confirmWindow`. With
    /// no frame reported yet the measurement is the confirmation, and the area
    /// is read at that pace too.
    mutating func confirmShown(now: Instant, _ out: inout [BridgeAction]) {
        guard linked else { return }
        let awaitZone = measurable && reportsVisibility && !areaCovered
        confirmUntil = awaitZone ? now + timing.confirmWindow : nil
        if !awaitZone, let frame = reportedFrame { out.append(.reportFrame(frame)) }
    }

    /// A zone that never came (the OSK on another output than the one
    /// measured, or none applied over a full-screen view): the show is
    /// confirmed by the OSK's word alone, and the area no longer read every frame.
    private mutating func confirmWithoutZone(now: Instant, _ out: inout [BridgeAction]) {
        guard let until = confirmUntil, now >= until else { return }
        confirmUntil = nil
        out.append(.trace("\(name)'s zone is not in the usable area: its show is taken on its word"))
        if linked, let frame = reportedFrame { out.append(.reportFrame(frame)) }
    }

    private mutating func fullscreen(_ window: String?, _ out: inout [BridgeAction]) {
        if let window {
            guard fullscreenProblem == nil else { return }
            let problem =
                "\(name) is shown under the full-screen window \(window), which sway draws over top-layer surfaces: "
                + "use a maximized or app window, or an OSK on the overlay layer"
            fullscreenProblem = problem
            out.append(.log(problem))
        } else if fullscreenProblem != nil {
            fullscreenProblem = nil
            out.append(.log("\(name) is no longer under a full-screen window"))
        }
    }

    private var wake: Instant? {
        guard linked else { return nil }
        var times: [Instant] = []
        if let nextCheck { times.append(nextCheck) }
        if let pendingUserHide { times.append(pendingUserHide + timing.userHideHold) }
        if desired, observed == true, let nextFullscreenCheck { times.append(nextFullscreenCheck) }
        if let confirmUntil { times.append(confirmUntil) }
        return times.min()
    }
}
