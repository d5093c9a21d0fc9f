import InsetCore

/// The machine applying insetd's word to the OSK: a show asked and asked
/// again until the OSK confirms it or the bridge gives up, a hide, and the
/// problem insetd is told of. Apart from `BridgeMachine.swift` because it
/// changes with how OSKs must be driven, not with what the bridge hears.
extension BridgeMachine {
    mutating func reconcile(now: Instant, _ out: inout [BridgeAction]) {
        if linked {
            if attached, hardwareApplied != hardwareKeyboard {
                out.append(.setHardwareKeyboard(hardwareKeyboard))
                hardwareApplied = hardwareKeyboard
            }
            if let seen = pendingUserHide, now >= seen + timing.userHideHold {
                pendingUserHide = nil
                out.append(.log("\(name) was hidden by itself or its user"))
                userSaid(false, now: now, &out)
            }
            if desired { assertShow(now: now, &out) } else { hide(now: now, &out) }
            if desired, observed == true, let check = nextFullscreenCheck, now >= check {
                out.append(.checkFullscreen)
                nextFullscreenCheck = now + timing.fullscreenInterval
            }
        }
        reportProblem(&out)
    }

    mutating func reportProblem(_ out: inout [BridgeAction]) {
        let problem = fullscreenProblem ?? showProblem
        guard linked, problem != reportedProblem else { return }
        out.append(.reportProblem(problem))
        reportedProblem = problem
    }

    mutating func assertShow(now: Instant, _ out: inout [BridgeAction]) {
        guard pendingUserHide == nil else { return }
        // Confirmed only by a reading after the last show sent; a hide still in
        // flight (insetd hid and showed again quickly) needs a new show.
        if applied == true, observed == true || (attached && !observable) {
            // Shown and never seen hidden (insetd hid and showed again
            // quickly): the OSK is on the screen, so confirm it to insetd.
            if nextCheck != nil, observed == true { confirmShown(now: now, &out) }
            nextCheck = nil
            return
        }
        // No reading of sway's area without the keyboard yet (the baseline
        // its frame is measured against: the OSK may have been up when the
        // bridge attached), and the bridge's hide on its way: a show sent now
        // would fold into the hide (squeekboard takes a hide and a show sent
        // together for nothing) and leave the frame unmeasured. The show
        // waits for the hide to be seen and the area read, at most `settle`.
        if reportsVisibility, measurable, !sawHidden, applied == false,
            let hidden = lastHideSent, now < hidden + timing.settle
        {
            nextCheck = hidden + timing.settle
            return
        }
        if attached, applied != true { nextCheck = now }
        guard now >= nextCheck ?? now else { return }
        guard attempts < timing.confirmDelays.count else { return giveUp(now: now, &out) }
        attempts += 1
        gaveUpAt = nil
        nextCheck = now + timing.confirmDelays[attempts - 1]
        guard attached else { return }
        if attempts > 1 { out.append(.trace("\(name) not shown yet: asking again (attempt \(attempts))")) }
        out.append(.setOSKVisible(true))
        applied = true
        lastShowSent = now
        measureUntil = now + timing.measureWindow
        // Nothing will confirm it: sent once, as asked.
        if !observable { nextCheck = nil }
    }

    mutating func giveUp(now: Instant, _ out: inout [BridgeAction]) {
        gaveUpAt = now
        var problem = "\(name) did not show after \(attempts) attempt\(attempts == 1 ? "" : "s")"
        if !attached { problem += " (it is not running)" }
        showProblem = problem
        out.append(.log("\(problem); insetd hides its keyboard so that views are not padded for it"))
        // The reason first, so insetd's timeline has it before the hide it causes.
        reportProblem(&out)
        userSaid(false, now: now, &out)
        // Told to hide explicitly: a show that arrives late must not stay up unknown to insetd.
        applied = nil
        hide(now: now, &out)
    }

    mutating func hide(now: Instant, _ out: inout [BridgeAction]) {
        resetEpisode()
        guard attached, applied != false else { return }
        out.append(.setOSKVisible(false))
        applied = false
        lastHideSent = now
    }

    mutating func resetEpisode() {
        confirmUntil = nil
        attempts = 0
        nextCheck = nil
        pendingUserHide = nil
    }
}
