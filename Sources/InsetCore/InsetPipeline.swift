/// The pure core, wired in the one direction data flows:
/// `KeyboardPolicy → KeyboardFrameFilter → InsetEngine`.
///
/// Only the daemon's driver owns a clock: it passes `now` to `handle` and calls
/// `advance(to:)` at each returned deadline. The same events at the same instants
/// always give the same outputs, which is what golden files and replays rely on.
public struct InsetPipeline: Sendable {
    public private(set) var policy: KeyboardPolicy
    public private(set) var filter: KeyboardFrameFilter
    public private(set) var engine: InsetEngine
    public private(set) var configuration: PipelineConfiguration
    /// The focused text field and its view. Kept (not queued as a one-off scroll)
    /// because every later keyboard frame, rotation and content change must bring
    /// the field back into view, and a blur must cancel what its focus waited for.
    public private(set) var focus: FocusedField?
    /// The focused field's scroll waits for the filter (a frame is pending or the
    /// filter is suspended): it is made in the pass that delivers.
    private var focusScrollPending = false
    /// The last keyboard show or frame change delivered to the views, and how
    /// it moved: a focus right after it scrolls with it (`focusJoiningShow`).
    private var lastShowDelivered: (at: Instant, animation: Animation)?
    /// When a client last reported a focus while the keyboard was up (the
    /// focus moved to another field, or the same field again): `focusMoveGrace`
    /// runs from it. The focus that brings the keyboard up does not count: a
    /// drop right after the show is insetd-osk's to assert again, and a hide
    /// after it is the user's.
    private var focusMovedAt: Instant?
    private var transition: (endsAt: Instant, animation: Animation)?
    /// A bridge will report the real frame (`frameAwaited`).
    public private(set) var frameAwaited = false
    /// The bridge reported a frame since the screen last changed size: the OSK
    /// as it is laid out on this screen (`measuredOrNil`).
    private var reportedSinceScreenChange = false
    /// A show that waits for the OSK reaches apps when it is delivered.
    private var appsHold = AppsNotificationHold()

    /// The view whose text field has focus.
    public var focusedView: ViewID? { focus?.view }

    /// The keyboard as apps were last told (`policy.frame` is the one
    /// decided): none while a show waits for the OSK, the frame before a
    /// change that waits. A client that joins then is told this one.
    public var keyboardToldApps: Rect? { appsHold.toldApps(decided: policy.frame) }

    /// `rememberedFrames`: the real keyboard's frame per screen size, as OSK
    /// bridges reported it in an earlier run (a first show publishes it, not
    /// the configured guess).
    public init(
        configuration: PipelineConfiguration = PipelineConfiguration(), screen: Size,
        keyboards: [String: KeyboardPlacement] = [:], tabletMode: Bool = false, rememberedFrames: [Size: Rect] = [:]
    ) {
        self.configuration = configuration
        policy = KeyboardPolicy(
            configuration: configuration.policy, screen: screen, keyboards: keyboards, tabletMode: tabletMode,
            reportedFrames: rememberedFrames)
        filter = KeyboardFrameFilter(window: configuration.filterWindow)
        engine = InsetEngine(screen: screen)
    }

    public var nextDeadline: Instant? {
        Instant.earliest(
            Instant.earliest(policy.nextDeadline, filter.nextDeadline),
            Instant.earliest(transition?.endsAt, appsHold.deadline))
    }

    /// Handles one event at `now`, after firing every deadline due by then. An
    /// event naming an unregistered view, or dismissing the keyboard from a view
    /// that does not allow it, throws before anything changes.
    public mutating func handle(_ event: PipelineEvent, now: Instant) throws(PipelineError) -> PipelineStep {
        if let view = event.existingViewRequired {
            guard let description = engine.description(of: view) else { throw .unknownView(view) }
            if case .interactiveDismiss = event, description.options.keyboardDismissMode == .none {
                throw .dismissNotAllowed(view, mode: .none)
            }
        }
        engine.beginStep()
        var out = Outputs()
        fireDeadlines(through: now, into: &out)
        out.now = now
        dispatch(event, now: now, into: &out)
        return PipelineStep(outputs: out.items, nextDeadline: nextDeadline)
    }

    /// Fires every deadline due by `now`, each at its own instant, in order.
    public mutating func advance(to now: Instant) -> PipelineStep {
        engine.beginStep()
        var out = Outputs()
        fireDeadlines(through: now, into: &out)
        return PipelineStep(outputs: out.items, nextDeadline: nextDeadline)
    }

    /// Replaces the configuration (a configuration reload).
    public mutating func reconfigure(_ configuration: PipelineConfiguration, now: Instant) -> PipelineStep {
        engine.beginStep()
        var out = Outputs()
        fireDeadlines(through: now, into: &out)
        out.now = now
        self.configuration = configuration
        filter.window = configuration.filterWindow
        route(policy.reconfigure(configuration.policy, now: now), into: &out)
        return PipelineStep(outputs: out.items, nextDeadline: nextDeadline)
    }

    // MARK: - Dispatch

    private mutating func dispatch(_ event: PipelineEvent, now: Instant, into out: inout Outputs) {
        switch event {
        case .keyboardAttached(let id, let placement):
            route(policy.handle(.keyboardAttached(id: id, placement: placement), now: now), into: &out)
        case .keyboardDetached(let id):
            route(policy.handle(.keyboardDetached(id: id), now: now), into: &out)
        case .tabletMode(let on):
            route(policy.handle(.tabletMode(on), now: now), into: &out)
        case .command(let command):
            route(policy.handle(.command(command), now: now), into: &out)
        case .mode(let mode):
            route(policy.handle(.mode(mode), now: now), into: &out)
        case .frameAwaited(let awaited):
            frameAwaited = awaited
            // The bridge is gone: no report will end a show's wait for it.
            if !awaited { deliver(filter.endWait(), into: &out) }
        case .oskAnimation(let animation):
            route(policy.handle(.oskAnimation(animation), now: now), into: &out)
        case .oskRunning(let running):
            route(policy.handle(.oskRunning(running), now: now), into: &out)
        case .oskVisibility(let visible):
            // The OSK's hide right after a focus report, with the field still
            // focused, answers the app's text input change, not the user.
            if !visible, focus != nil, let moved = focusMovedAt, now < moved + Self.focusMoveGrace { break }
            route(policy.handle(.command(visible ? .show : .hide), now: now), into: &out)
        case .floatingFrame(let rect):
            route(policy.handle(.floatingFrame(rect), now: now), into: &out)
            // A reported frame is the OSK on the screen: a show or frame change
            // waiting in the filter has happened, and the views move now, to the
            // real frame (a rotation's filter still waits for its end, but its
            // views move now: `applyMidRotation`).
            if rect != nil {
                reportedSinceScreenChange = true
                deliver(filter.flush(now: now), into: &out)
                applyMidRotation(into: &out)
            }
        case .register(let id, let description):
            out.append(.adjustment(engine.register(id, description)))
        case .update(let id, let description):
            update(id, description, into: &out)
        case .unregister(let id):
            engine.unregister(id)
            if focusedView == id { blurFocus(now: now, into: &out) }
        case .clientGone(let client):
            engine.unregisterAll(of: client)
            if focusedView?.client == client { blurFocus(now: now, into: &out) }
        case .focus(let id, let field):
            // Focus again on the focused view restates where its field is (the
            // content moved): no focus change, so no keyboard movement and a
            // user's hide or show stands.
            let restated = focusedView == id
            focus = FocusedField(view: id, field: field)
            if policy.frame != nil { focusMovedAt = now }
            if !restated { route(policy.handle(.focus(owner: id.client), now: now), into: &out) }
            focusScrollPending = true
            deliver([], into: &out, animation: focusJoiningShow(now: now))
        case .blur(let id):
            if focusedView == id { blurFocus(now: now, into: &out) }
        case .scrollToVisible(let request):
            deliver(filter.request(request, now: now), into: &out)
        case .transition(let duration, let screen):
            beginTransition(duration: duration, screen: screen, now: now, into: &out)
        case .interactiveDismiss(let id):
            if focusedView == id { blurFocus(now: now, into: &out) }
            deliver(filter.flush(now: now), into: &out)
        }
    }

    /// `.none` for a focus less than a filter window after a keyboard show
    /// that appeared at once (nil: the scroll's own animation). An OSK that
    /// shows itself for a field's text input is on the screen before the
    /// app's report of that focus reaches insetd (Chromium's page through the
    /// extension on Mir: 3-30 ms after the bridge confirmed squeekboard): the
    /// field belongs to that show, whose keyboard is drawn whole already, and
    /// is uncovered at once, not over the scroll's 0.3 s (the filter gave the
    /// same when it held every show for its window: the focus met the show in
    /// one pass). After an animated show the scroll keeps its own animation,
    /// beside the keyboard's.
    private func focusJoiningShow(now: Instant) -> Animation? {
        guard let shown = lastShowDelivered, shown.animation.duration == .zero, policy.frame != nil,
            now < shown.at + configuration.filterWindow
        else { return nil }
        return shown.animation
    }

    /// Ends the focus; the scroll it was waiting for goes with it.
    private mutating func blurFocus(now: Instant, into out: inout Outputs) {
        focus = nil
        focusScrollPending = false
        route(policy.handle(.blur, now: now), into: &out)
    }

    /// A client's new description of a view. During a rotation, one with a new
    /// frame is the view's new size, and the offset it carries is the one from
    /// before the rotation: it is pinned upper-left against the new keyboard
    /// (`engine.prepare`), then the focused field is brought into view in the
    /// same adjustment. Any other update, in a rotation or not, is read as
    /// always: one that keeps the offset insetd published, or states an offset
    /// older than it with a layout change (`InsetEngine.statesStaleOffset`), is
    /// a layout or content change, and the focused field is kept in view too;
    /// one that moves the offset is the user scrolling, and stands.
    private mutating func update(_ id: ViewID, _ description: ViewDescription, into out: inout Outputs) {
        let stale = engine.statesStaleOffset(description, of: id)
        let keepsOffset = stale || engine.adjustment(of: id)?.contentOffset == description.contentOffset
        var adjustment: ViewAdjustment?
        if let transition, engine.description(of: id)?.frame != description.frame {
            adjustment = (try? engine.resize(id, description, animation: transition.animation)) ?? nil
            if focusedView == id {
                if let scrolled = scrollFocusedField(animation: transition.animation) { adjustment = scrolled }
                // Scroll requests queued during the rotation run when the filter
                // resumes; the field goes last in that pass too.
                focusScrollPending = true
            }
        } else {
            // Only the height or place: a new width reflows the content, and
            // the field's rect is stale until the client restates it.
            let before = engine.description(of: id)?.frame
            let moved = before != description.frame && before?.width == description.frame.width
            adjustment = (try? engine.update(id, description, keepingPublishedOffset: stale)) ?? nil
            if focusedView == id, keepsOffset {
                // A view that changed place or height (a window the compositor
                // shrank for the OSK's zone before the filter delivered) shows
                // its field in this very frame, against the insets in force;
                // with a frame pending, the delivering pass scrolls it again.
                if filter.isIdle || moved {
                    if let scrolled = scrollFocusedField(animation: .none) { adjustment = scrolled }
                }
                if !filter.isIdle { focusScrollPending = true }
            }
        }
        if let adjustment { out.append(.adjustment(adjustment)) }
    }

    /// A keyboard frame for views resized mid-rotation: none until the
    /// measuring bridge reports the OSK on this screen. The OSK lays itself
    /// out anew for the turned output, or not at all (squeekboard's zone is
    /// gone for about 120 ms, then 270 px where 209 were configured; shown
    /// through D-Bus for an app with no text input, it keeps its 172 px panel
    /// on the turned output), so neither the configured guess nor the frame
    /// remembered for this screen is known to be on the screen; the report
    /// moves the views when it comes.
    private func measuredOrNil(_ frame: Rect?) -> Rect? {
        guard frame != nil, frameAwaited, !policy.hardwareKeyboardUsable, !reportedSinceScreenChange else { return frame }
        return nil
    }

    /// A bridge's report mid-rotation is the OSK laid out on the turned screen,
    /// drawn there already: the views, which had no keyboard until it came
    /// (`measuredOrNil`), move to it now as the keyboard moves (at once for an
    /// OSK that appears whole, where the transition's animation would leave
    /// the field under it), and the focused field with them. The filter's
    /// delivery at the transition's end then changes nothing.
    private mutating func applyMidRotation(into out: inout Outputs) {
        guard transition != nil, let frame = policy.frame else { return }
        let animation = policy.keyboardAnimation
        let change = KeyboardFrameChange(frame: frame, screen: policy.screen, animation: animation)
        for output in appsHold.delivered(change, now: out.now) { out.append(output) }
        var pass = PassAdjustments()
        pass.collect(engine.apply(change))
        if let scrolled = scrollFocusedField(animation: animation) { pass.collect(scrolled) }
        for adjustment in pass.adjustments { out.append(.adjustment(adjustment)) }
    }

    /// Rotation: the filter waits out the transition (at least
    /// `rotationReportWindow`), but the new keyboard frame is announced now, so
    /// views are laid out against the new screen and the new keyboard as they
    /// report their new sizes (one adjustment each, animated with the
    /// transition, clamped to the final range), with no keyboard while a
    /// measuring bridge has not reported it on the new screen
    /// (`measuredOrNil`); the frame the filter delivers afterwards then changes
    /// nothing for them.
    private mutating func beginTransition(duration: Duration, screen: Size?, now: Instant, into out: inout Outputs) {
        if let screen, screen != policy.screen {
            reportedSinceScreenChange = false
            filter.suspend(now: now)
            let endsAt = max(transition?.endsAt ?? now, now + max(duration, configuration.rotationReportWindow))
            // A turn of 0 s is the screen changing at once: the views follow unanimated.
            transition = (endsAt, duration > .zero ? Animation(duration: duration, curve: .easeInOut) : .none)
            route(policy.handle(.screen(screen), now: now), into: &out)
            engine.prepare(keyboard: measuredOrNil(policy.frame), screen: screen)
        } else if duration > configuration.navigationThreshold {
            deliver(filter.flush(now: now), into: &out)
        }
    }

    // MARK: - Plumbing

    /// Publishes the policy's notifications and feeds each movement to the filter.
    private mutating func route(_ step: KeyboardPolicy.Step, into out: inout Outputs) {
        for note in step.notifications {
            guard note.phase.isWill else {
                for output in appsHold.route(note, awaitsBridge: false) { out.append(output) }
                continue
            }
            let change = KeyboardFrameChange(
                frame: note.phase == .willHide ? nil : note.endFrame, screen: policy.screen,
                animation: note.animation)
            // Mid-rotation, views still reporting their new size use the newest
            // frame, once the bridge has reported it on the new screen.
            if transition != nil { engine.prepare(keyboard: measuredOrNil(change.frame), screen: change.screen) }
            // With a bridge that measures the OSK, a show moves the views when
            // the bridge confirms the OSK on the screen (its report of the
            // frame), and a configured frame is a guess it is about to
            // correct: the views wait for the report (bounded), to move once,
            // in the frame the keyboard appears, to the real keyboard.
            // Not the accessory bar a hardware keyboard leaves: the app draws
            // it, and the bridge keeps the OSK hidden then.
            // A rotation's frame waits for the report too: the OSK on the
            // turned screen may not be the one remembered for it (`measuredOrNil`).
            let known = policy.reportedFrame(for: change.screen) != nil
            let turned = transition != nil && !reportedSinceScreenChange
            let awaited = frameAwaited && change.frame != nil && !policy.hardwareKeyboardUsable
                && (note.phase == .willShow || !known || turned)
            let wait = awaited ? (known ? Self.frameReportWait : Self.frameMeasureWait) : nil
            for output in appsHold.route(note, awaitsBridge: awaited) { out.append(output) }
            deliver(filter.submit(change, now: out.now, wait: wait), into: &out)
        }
    }

    /// Hands filtered events to the engine. A pass publishes one adjustment per
    /// view, its final state: a scroll queued behind a keyboard frame moves with
    /// that frame's animation instead of starting a second one.
    ///
    /// After every applied keyboard frame, and for a focus that waited for the
    /// filter, the focused field is scrolled into view against the new insets
    /// (iOS scrolls the first responder to visible after every keyboard change).
    /// It goes last in the pass, after the client's own queued requests, so a
    /// request for a rect around the field keeps its effect and a request for
    /// anything else cannot leave the field under the keyboard. `animation`:
    /// the pass's when it applies no keyboard frame (else the scroll's own).
    private mutating func deliver(_ events: [FilteredEvent], into out: inout Outputs, animation: Animation? = nil) {
        var passAnimation = animation ?? Animation.scrollDefault
        var keyboardApplied = false
        var pass = PassAdjustments()
        for event in events {
            switch event {
            case .keyboard(let change):
                // An OSK that does not animate (reported by its bridge, or keyboard.animation-ms 0: squeekboard
                // and wvkbd on sway) moves the views, and the scrolls with them,
                // in one frame, as the keyboard appears.
                passAnimation = change.animation
                keyboardApplied = true
                lastShowDelivered = change.frame != nil ? (out.now, change.animation) : nil
                for output in appsHold.delivered(change, now: out.now) { out.append(output) }
                pass.collect(engine.apply(change))
            case .scroll(let request):
                // The view may have gone while the request waited: nothing to scroll.
                if let adjustment = (try? engine.scrollToVisible(request, animation: passAnimation)) ?? nil {
                    pass.collect(adjustment)
                }
            }
        }
        if keyboardApplied || focusScrollPending, filter.isIdle {
            focusScrollPending = false
            if let adjustment = scrollFocusedField(animation: passAnimation) { pass.collect(adjustment) }
        }
        out.items.reserveCapacity(out.items.count + pass.adjustments.count)
        for adjustment in pass.adjustments { out.append(.adjustment(adjustment)) }
    }

    /// Scrolls the focused field into view with its view's margin; the adjustment
    /// when that changed what was published.
    private mutating func scrollFocusedField(animation: Animation) -> ViewAdjustment? {
        guard let focus else { return nil }
        return (try? engine.scrollToVisible(ScrollRequest(view: focus.view, rect: focus.field), animation: animation))
            ?? nil
    }

    private mutating func fireDeadlines(through now: Instant, into out: inout Outputs) {
        while let due = nextDeadline, due <= now {
            out.now = due
            route(policy.advance(to: due), into: &out)
            for output in appsHold.advance(to: due) { out.append(output) }
            deliver(filter.advance(to: due), into: &out)
            if let transition, transition.endsAt <= due {
                self.transition = nil
                deliver(filter.resume(now: due), into: &out)
            }
        }
    }
}

/// Collects outputs, stamping each with the instant being processed.
private struct Outputs {
    var now: Instant = .zero
    var items: [TimedOutput] = []

    mutating func append(_ output: PipelineOutput) {
        items.append(TimedOutput(at: now, output: output))
    }
}
