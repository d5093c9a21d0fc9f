// What the pure core speaks: the events it takes, the outputs it gives, and
// its settings. Kept apart from `InsetPipeline`'s logic: clients of the core
// (the daemon, traces, replays, tests) change with these, the wiring does not.

/// Everything that reaches the pure core: hardware facts from the input module,
/// view and focus events from clients, and user commands.
public enum PipelineEvent: Hashable, Sendable {
    case keyboardAttached(id: String, placement: KeyboardPlacement)
    case keyboardDetached(id: String)
    case tabletMode(Bool)
    case command(KeyboardCommand)
    case mode(KeyboardMode)
    case floatingFrame(Rect?)
    /// How the real keyboard moves on the screen (nil: not known; the
    /// configured animation stands). Reported by an OSK bridge.
    case oskAnimation(Animation?)
    /// The OSK was shown or hidden by itself or its user, as its bridge saw it
    /// happen: the show or hide command, except a hide within
    /// `InsetPipeline.focusMoveGrace` of a focus reported while the keyboard
    /// was up, with a field still focused. An OSK that follows the app's text input (squeekboard) hides
    /// when the app moves its text input to another field, after the app told
    /// insetd of the new focus: that hide is the OSK's, and the keyboard stays.
    case oskVisibility(Bool)
    /// Whether the OSK an OSK bridge drives runs: while it does not (it ended
    /// or crashed), no keyboard is on the screen, whatever the policy would
    /// show (`KeyboardPolicy.Input.oskRunning`).
    case oskRunning(Bool)
    /// An OSK bridge that measures the real keyboard's frame is there (or gone):
    /// a show in an orientation with no reported frame waits for its report.
    case frameAwaited(Bool)
    case register(ViewID, ViewDescription)
    case update(ViewID, ViewDescription)
    case unregister(ViewID)
    /// A client disconnected: its views go, and so does its focus.
    case clientGone(ClientID)
    /// A text field inside a view gained focus; `field` is in content coordinates.
    case focus(ViewID, field: Rect)
    case blur(ViewID)
    case scrollToVisible(ScrollRequest)
    /// A client's views animate for `duration`: with a new `screen` size it is a
    /// rotation; without one, a navigation push or pop.
    case transition(duration: Duration, screen: Size?)
    /// The user dragged the keyboard away in a view whose dismiss mode allows it.
    case interactiveDismiss(ViewID)
}

/// The text field that has focus: its view, and where the field is in that
/// view's content coordinates (a client restates it when its content moves).
public struct FocusedField: Hashable, Sendable {
    public var view: ViewID
    public var field: Rect

    public init(view: ViewID, field: Rect) {
        self.view = view
        self.field = field
    }
}

/// What the core tells clients.
public enum PipelineOutput: Hashable, Sendable, CustomStringConvertible {
    /// To every client.
    case keyboard(KeyboardNotification)
    /// To OSK bridges only: the policy's decision, which they carry out, while
    /// apps wait for the OSK on the screen (`AppsNotificationHold`).
    case bridgeKeyboard(KeyboardNotification)
    /// To apps: a show the bridges heard of when it was decided, now that the
    /// keyboard is on the screen.
    case appsKeyboard(KeyboardNotification)
    case adjustment(ViewAdjustment)

    public var description: String {
        switch self {
        case .keyboard(let note): "keyboard \(note)"
        case .bridgeKeyboard(let note): "bridges: keyboard \(note)"
        case .appsKeyboard(let note): "apps: keyboard \(note)"
        case .adjustment(let adjustment): "adjust \(adjustment)"
        }
    }
}

/// An output and the instant it was produced (a deadline's own instant when the
/// driver woke late, so replays are exact).
public struct TimedOutput: Hashable, Sendable {
    public var at: Instant
    public var output: PipelineOutput
}

/// The outputs of one call and the next instant the driver must call `advance(to:)`.
public struct PipelineStep: Hashable, Sendable {
    public var outputs: [TimedOutput]
    public var nextDeadline: Instant?
}

/// Settings of the whole core, each defaulting to the reference's constants.
public struct PipelineConfiguration: Hashable, Sendable {
    public var policy: KeyboardPolicyConfiguration
    /// The keyboard frame filter's debounce window (reference: 0.1 s).
    public var filterWindow: Duration
    /// Transitions longer than this without a size change are navigations, which
    /// flush the filter so a pushed view gets the keyboard state at once.
    public var navigationThreshold: Duration
    /// How long a rotation lasts at least, whatever its animation: the views'
    /// new sizes reported within it are the rotation's (pinned, the filter
    /// suspended). A compositor that turns the output at once (a transition of
    /// 0 s, nothing to animate) still has its clients report their views over
    /// the next frames.
    public var rotationReportWindow: Duration

    public init(
        policy: KeyboardPolicyConfiguration = .default,
        filterWindow: Duration = .milliseconds(100),
        navigationThreshold: Duration = .milliseconds(300),
        rotationReportWindow: Duration = .milliseconds(300)
    ) {
        self.policy = policy
        self.filterWindow = filterWindow
        self.navigationThreshold = navigationThreshold
        self.rotationReportWindow = rotationReportWindow
    }
}

extension PipelineEvent {
    /// The view an event acts on that must already be registered.
    var existingViewRequired: ViewID? {
        switch self {
        case .update(let id, _), .focus(let id, _), .interactiveDismiss(let id): id
        case .scrollToVisible(let request): request.view
        default: nil
        }
    }
}
