/// Decides whether the on-screen keyboard is up, and where, from what the daemon
/// knows: focus, hardware keyboards, tablet mode, the user's overrides, the screen.
///
/// It is a pure state machine: each call takes `now` and returns the lifecycle
/// notifications it caused plus the next deadline it needs (`advance(to:)` must be
/// called then). It never reads a clock.
///
/// Hardware hold-off (the only timed rule besides animation completion), modelled on
/// squeekboard's 200 ms hide timeout:
///
/// ```
///  raw hardware:   none ──attach──────────────────────────────────────────────
///  settled:        none ·························(t+hold)── usable
///  OSK (focused):  full ─────────────────────────────────── willChangeFrame→bar
///
///  raw hardware:   usable ──detach──attach (flap < hold)──────────────────────
///  settled:        usable ─────────────────────────────────  (nothing happens)
/// ```
///
/// Presentation rules (a user override from show/hide/toggle wins until the next
/// focus change or mode change):
///
/// | mode   | focused, no usable hardware | focused, usable hardware | not focused |
/// |--------|-----------------------------|--------------------------|-------------|
/// | auto   | full keyboard               | accessory bar (0: none)  | hidden      |
/// | always | full keyboard               | full keyboard            | hidden      |
/// | never  | hidden                      | hidden                   | hidden      |
///
/// A hardware keyboard is usable when it is external (unless external keyboards
/// are ignored), or internal while tablet mode is off.
public struct KeyboardPolicy: Sendable {
    /// Everything the policy reacts to.
    public enum Input: Hashable, Sendable {
        /// A text input of `owner` gained focus (focus belongs to one client at a time).
        case focus(owner: ClientID)
        /// The focused text input lost focus.
        case blur
        case keyboardAttached(id: String, placement: KeyboardPlacement)
        case keyboardDetached(id: String)
        case tabletMode(Bool)
        case command(KeyboardCommand)
        case mode(KeyboardMode)
        case screen(Size)
        /// The real keyboard's frame as its OSK reports it (docked or floating), on
        /// the screen as it is now; nil forgets every reported frame (back to the
        /// configured heights; scenarios and traces only: the daemon keeps them).
        case floatingFrame(Rect?)
        /// How the real keyboard moves on the screen as its OSK bridge knows it
        /// (none: it appears at once); nil: not known, the configured animation
        /// stands.
        case oskAnimation(Animation?)
        /// The OSK ended (false) or runs again (true), as its bridge saw it:
        /// while it does not run the keyboard is hidden, with no override, so
        /// the decision that stands (a field focused) shows it again when it
        /// is back. Where no bridge says, it runs.
        case oskRunning(Bool)
    }

    /// What one call produced.
    public struct Step: Hashable, Sendable {
        public var notifications: [KeyboardNotification]
        public var nextDeadline: Instant?
    }

    /// Hardware usability, debounced by the hold-off. One case per state.
    private enum HardwareSettling: Hashable, Sendable {
        case settled(usable: Bool)
        case holding(settled: Bool, until: Instant)

        var usable: Bool {
            switch self {
            case .settled(let usable): usable
            case .holding(let settled, _): settled
            }
        }
    }

    private enum Override: Hashable, Sendable { case shown, hidden }

    public private(set) var configuration: KeyboardPolicyConfiguration
    public private(set) var screen: Size
    public private(set) var focusOwner: ClientID?
    /// Where the keyboard is now (its end frame once animations finish); nil = hidden.
    public private(set) var frame: Rect?
    private var blurredOwner: ClientID?
    private var keyboards: [String: KeyboardPlacement]
    private var tabletMode: Bool
    private var hardware: HardwareSettling
    private var override: Override?
    /// The OSK runs (`Input.oskRunning`).
    public private(set) var oskRunning = true
    /// The real keyboard's frame reported for each screen size (an orientation
    /// of an output). Kept when the screen rotates and back, and when the
    /// reporting bridge goes, so a show after a rotation back or a bridge's
    /// restart publishes the keyboard that will be on the screen, not the
    /// configured guess.
    public private(set) var reportedFrames: [Size: Rect] = [:]
    /// How the real keyboard moves, as its bridge reported it: notifications
    /// carry it instead of the configured animation, so clients move with the
    /// keyboard on the screen (not at all where it appears at once). Kept when
    /// the bridge goes, as its frames are.
    public private(set) var reportedAnimation: Animation?
    /// How the keyboard moves: as its OSK's bridge reported, else as configured.
    public var keyboardAnimation: Animation { reportedAnimation ?? configuration.animation }
    /// The reported frame for the screen as it is now.
    private var floatingFrame: Rect? { reportedFrames[screen] }

    /// The real keyboard frame reported for a screen size, if any.
    public func reportedFrame(for screen: Size) -> Rect? { reportedFrames[screen] }
    private var pendingCompletion: (notification: KeyboardNotification, at: Instant)?

    /// A policy whose hardware state is already settled: the devices found by the
    /// daemon's first enumeration count at once, without a hold-off.
    /// `reportedFrames` are real keyboard frames known from an earlier run.
    public init(
        configuration: KeyboardPolicyConfiguration = .default,
        screen: Size,
        keyboards: [String: KeyboardPlacement] = [:],
        tabletMode: Bool = false,
        reportedFrames: [Size: Rect] = [:]
    ) {
        self.configuration = configuration
        self.reportedFrames = reportedFrames
        self.screen = screen
        self.keyboards = keyboards
        self.tabletMode = tabletMode
        self.hardware = .settled(usable: false)
        self.hardware = .settled(usable: rawHardwareUsable)
    }

    /// Whether a usable hardware keyboard is present, after the hold-off.
    public var hardwareKeyboardUsable: Bool { hardware.usable }

    /// The earliest time `advance(to:)` has work to do.
    public var nextDeadline: Instant? {
        let holdOff: Instant? = if case .holding(_, let until) = hardware { until } else { nil }
        return Instant.earliest(holdOff, pendingCompletion?.at)
    }

    public mutating func handle(_ input: Input, now: Instant) -> Step {
        var notifications = completions(dueBy: now)
        switch input {
        case .focus(let owner):
            focusOwner = owner
            override = nil
        case .blur:
            blurredOwner = focusOwner ?? blurredOwner
            focusOwner = nil
            override = nil
        case .keyboardAttached(let id, let placement):
            keyboards[id] = placement
            hardwareChanged(now: now)
        case .keyboardDetached(let id):
            keyboards[id] = nil
            hardwareChanged(now: now)
        case .tabletMode(let on):
            tabletMode = on
            hardwareChanged(now: now)
        case .command(let command):
            override = overrideFor(command)
        case .mode(let mode):
            configuration.mode = mode
            override = nil
        case .screen(let size):
            screen = size
        case .floatingFrame(let rect):
            if let rect { reportedFrames[screen] = rect } else { reportedFrames = [:] }
        case .oskAnimation(let animation):
            reportedAnimation = animation
        case .oskRunning(let running):
            oskRunning = running
        }
        notifications += moveKeyboard(to: desiredFrame, now: now)
        return Step(notifications: notifications, nextDeadline: nextDeadline)
    }

    /// Fires what is due by `now`: animation completions and a settled hold-off.
    public mutating func advance(to now: Instant) -> Step {
        var notifications = completions(dueBy: now)
        if case .holding(_, let until) = hardware, until <= now {
            hardware = .settled(usable: rawHardwareUsable)
            notifications += moveKeyboard(to: desiredFrame, now: now)
        }
        notifications += completions(dueBy: now)
        return Step(notifications: notifications, nextDeadline: nextDeadline)
    }

    /// Replaces the configuration; the keyboard moves at once if the new one says so.
    public mutating func reconfigure(_ configuration: KeyboardPolicyConfiguration, now: Instant) -> Step {
        self.configuration = configuration
        var notifications = completions(dueBy: now)
        notifications += moveKeyboard(to: desiredFrame, now: now)
        return Step(notifications: notifications, nextDeadline: nextDeadline)
    }

    // MARK: - Hardware

    private var rawHardwareUsable: Bool {
        keyboards.values.contains { placement in
            switch placement {
            case .internal: !tabletMode
            case .external: !configuration.ignoreExternalKeyboards
            }
        }
    }

    private mutating func hardwareChanged(now: Instant) {
        let raw = rawHardwareUsable
        switch hardware {
        case .settled(let usable):
            guard raw != usable else { return }
            hardware =
                configuration.hardwareHoldOff > .zero
                ? .holding(settled: usable, until: now + configuration.hardwareHoldOff)
                : .settled(usable: raw)
        case .holding(let settled, _):
            // Back where it settled before the hold-off ran out: the flap is absorbed.
            if raw == settled { hardware = .settled(usable: settled) }
        }
    }

    // MARK: - Presentation

    private func overrideFor(_ command: KeyboardCommand) -> Override {
        switch command {
        case .show: .shown
        case .hide: .hidden
        case .toggle: frame == nil ? .shown : .hidden
        }
    }

    private var desiredFrame: Rect? {
        guard oskRunning else { return nil }
        let fullHeight = configuration.keyboardHeight(for: Orientation(screen: screen))
        if let override {
            switch override {
            case .shown: return floatingFrame ?? dockedFrame(height: fullHeight)
            case .hidden: return nil
            }
        }
        let focused = focusOwner != nil
        let height: Double?
        switch configuration.mode {
        case .never: height = nil
        case .always: height = focused ? fullHeight : nil
        case .auto:
            if !focused {
                height = nil
            } else if hardware.usable {
                height = configuration.accessoryBarHeight > 0 ? configuration.accessoryBarHeight : nil
            } else {
                height = fullHeight
            }
        }
        guard let height else { return nil }
        if height == fullHeight, let floatingFrame { return floatingFrame }
        return dockedFrame(height: height)
    }

    private func dockedFrame(height: Double) -> Rect {
        Rect(x: 0, y: screen.height - height, width: screen.width, height: height)
    }

    /// Where a keyboard of `frame`'s size waits when hidden: just below the screen.
    private func offscreen(_ frame: Rect) -> Rect {
        Rect(x: frame.minX, y: screen.height, width: frame.width, height: frame.height)
    }

    private mutating func moveKeyboard(to target: Rect?, now: Instant) -> [KeyboardNotification] {
        let owner = focusOwner ?? blurredOwner
        blurredOwner = nil
        let will: KeyboardNotification
        switch (frame, target) {
        case (nil, nil):
            return []
        case (nil, let shown?):
            will = notification(.willShow, from: offscreen(shown), to: shown, owner: owner)
        case (let shown?, nil):
            will = notification(.willHide, from: shown, to: offscreen(shown), owner: owner)
        case (let old?, let new?):
            guard old != new else { return [] }
            will = notification(.willChangeFrame, from: old, to: new, owner: owner)
        }
        // A movement that starts before the previous one finished still closes it
        // first, so every client sees each `will` followed by its `did`.
        var out: [KeyboardNotification] = []
        if let pending = pendingCompletion { out.append(pending.notification) }
        out.append(will)
        frame = target
        var did = will
        did.phase = will.phase.completion
        pendingCompletion = (did, now + will.animation.duration)
        return out + completions(dueBy: now)
    }

    private func notification(
        _ phase: KeyboardPhase, from begin: Rect, to end: Rect, owner: ClientID?
    ) -> KeyboardNotification {
        KeyboardNotification(
            phase: phase, beginFrame: begin, endFrame: end,
            animation: keyboardAnimation, focusOwner: owner)
    }

    private mutating func completions(dueBy now: Instant) -> [KeyboardNotification] {
        guard let pending = pendingCompletion, pending.at <= now else { return [] }
        pendingCompletion = nil
        return [pending.notification]
    }
}
