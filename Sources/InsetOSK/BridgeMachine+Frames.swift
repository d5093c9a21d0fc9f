import InsetCore

/// The machine's measurement of the OSK's frame: the compositor's usable area
/// read while a show settles, the frame reported to insetd (measured, or the
/// configured height), and what insetd is told the bridge can measure and how
/// the OSK moves. Apart from `BridgeMachine.swift` because it changes with
/// the compositors' ways of saying where a keyboard is, not with the show and
/// hide timelines.
extension BridgeMachine {
    /// The OSK's real frame, measured: kept for the next links, and reported.
    mutating func measured(_ frame: Rect, source: String, now: Instant, _ out: inout [BridgeAction]) {
        realFrame = frame
        quickReadsUntil = nil
        // An OSK that keeps its zone through a turn is measured at once, and
        // read for `relayoutWait` still in case it lays itself out after all.
        measureUntil = outputChanged.map { $0.at + timing.relayoutWait }.flatMap { $0 > now ? $0 : nil }
        if linked, frame != reportedFrame { out.append(.log("\(name)'s real frame: \(frame) (from \(source))")) }
        report(frame: frame, &out)
    }

    /// The compositor's usable area: whether an OSK that cannot say is shown,
    /// and, while a show settles, its real frame once two readings agree.
    mutating func read(_ area: UsableArea, now: Instant, _ out: inout [BridgeAction]) {
        // The output turned (or changed size) under a shown OSK: its frame
        // there is measured anew (wvkbd keeps showing through a turn).
        if let last = lastOutput, last != area.output, observed == true || applied == true {
            measureUntil = now + timing.measureWindow
            if let lastGap { outputChanged = (now, lastGap) }
            reportAgain = true
        }
        lastOutput = area.output
        lastGap = area.bottomGap
        // The zone from before the change is the old panel of an OSK that lays
        // itself out anew (squeekboard's 230 px on the 540 output it has
        // left), not yet its keyboard there: reported, insetd would keep it
        // for that screen and pad for it.
        let oldPanel =
            laysOutOnOutputChange
            && (outputChanged.map { area.bottomGap == $0.gap && now < $0.at + timing.relayoutWait } ?? false)
        let covered = gauge.read(area)
        areaCovered = covered
        if !reportsVisibility { observe(covered, now: now, &out) }
        if confirmOnArea, covered { confirmShown(now: now, &out) }
        guard measuring(now: now), !oldPanel, let frame = gauge.settledFrame(area, screen: screen) else { return }
        measured(frame, source: "the usable area", now: now, &out)
    }

    /// insetd moved its keyboard: to the frame the bridge reported (its echo),
    /// or to one of its own, its guess for a screen its clients said turned
    /// (or changed size). The output has turned already, and insetd waits for
    /// the OSK's frame there: the area is read at once and every frame, and
    /// the frame measured is reported even if insetd had it (a turn and back
    /// between two readings, a kept zone reported before insetd's screen
    /// turned), at most `turnReadWindow`.
    mutating func movedByInsetd(to frame: Rect, now: Instant) {
        guard frame != reportedFrame, attached, measurable, oskUp else {
            quickReadsUntil = nil
            return
        }
        quickReadsUntil = now + timing.turnReadWindow
        reportAgain = true
        measureUntil = max(measureUntil ?? now, now + timing.turnReadWindow)
    }

    /// The OSK is wanted up, and asked or seen up.
    var oskUp: Bool { desired && (observed == true || applied == true) }

    /// A show was asked for or seen, and its frame is not measured yet.
    func measuring(now: Instant) -> Bool {
        guard attached, observed == true || applied == true, let measureUntil else { return false }
        return now < measureUntil
    }

    /// When the usable area is to be read next: every `confirmInterval` while
    /// a show or hide asked of an OSK that cannot say whether it is shown is
    /// not seen yet (insetd moves the views at the confirmation, so each
    /// reading late is a frame with the field under the keyboard), and after
    /// insetd moved its keyboard for a turn until the frame there is measured
    /// (its views wait for that report), every
    /// `measureInterval` while a show settles, every `watchInterval` for such
    /// an OSK otherwise and for any OSK while it is shown (sway's output may
    /// turn under it: its frame is measured again), at once when it was seen
    /// hidden (the baseline).
    func readArea(now: Instant) -> Instant? {
        guard attached, measurable else { return nil }
        if baselineWanted { return now }
        let turning = oskUp && quickReadsUntil.map { now < $0 } ?? false
        let confirming = (!reportsVisibility && applied != nil && applied != observed) || confirmOnArea || turning
        let interval =
            confirming
            ? timing.confirmInterval
            : measuring(now: now)
                ? timing.measureInterval
                // A bus OSK says when it shows; while it is up, the output may turn under it.
                : reportsVisibility && observed != true ? nil : timing.watchInterval
        guard let interval else { return nil }
        return lastAreaRead.map { $0 + interval } ?? now
    }

    /// The OSK's configured height (wvkbd's `-H` / `-L`) as a frame at the
    /// screen's bottom, for the screen's orientation, before any measurement.
    mutating func reportConfiguredFrame(_ out: inout [BridgeAction]) {
        guard attached, let configured, screen.width > 0 else { return }
        guard let height = screen.width > screen.height ? configured.landscape : configured.portrait else { return }
        report(frame: Rect(x: 0, y: screen.height - height, width: screen.width, height: height), &out)
    }

    /// Tells insetd of `frame` once per change (again when `reportAgain`).
    mutating func report(frame: Rect, _ out: inout [BridgeAction]) {
        guard linked, frame != reportedFrame || reportAgain else { return }
        reportAgain = false
        reportedFrame = frame
        out.append(.reportFrame(frame))
    }

    /// An OSK the bridge measures (in the usable area, or by its own
    /// report) and whose shows it confirms: insetd is told so (a nil frame),
    /// once a link. insetd then holds each show for the
    /// confirmation (the frame reported again) and the first show of an
    /// orientation for the measurement, instead of moving the views before the
    /// keyboard is there, or twice (configured, then real).
    mutating func announceMeasuring(_ out: inout [BridgeAction]) {
        guard linked, attached, measurable || reportsFrame, observable, !announcedMeasuring else { return }
        announcedMeasuring = true
        out.append(.reportFrame(nil))
    }

    /// The attached OSK moves this way: said to insetd again only if it is news.
    mutating func moves(_ animation: Animation?) {
        if animation != self.animation { announcedAnimation = false }
        self.animation = animation
    }

    /// How the attached OSK moves, once a link (also when not known: insetd
    /// keeps an earlier bridge's word otherwise). Before its frame, so the
    /// first show already moves the views as the keyboard will move.
    mutating func announceAnimation(_ out: inout [BridgeAction]) {
        guard linked, attached, !announcedAnimation else { return }
        announcedAnimation = true
        out.append(.reportAnimation(animation))
    }
}
