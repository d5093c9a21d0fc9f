/// A request to scroll a rectangle of a view's content into its visible area.
public struct ScrollRequest: Hashable, Sendable {
    public var view: ViewID
    /// The rectangle in the view's content coordinates.
    public var rect: Rect
    /// Vertical margin kept around `rect`; nil uses the view's `visibilityScrollMargin`.
    public var margin: Double?

    public init(view: ViewID, rect: Rect, margin: Double? = nil) {
        self.view = view
        self.rect = rect
        self.margin = margin
    }
}

/// What the filter hands on to the engine, in order.
public enum FilteredEvent: Hashable, Sendable {
    case keyboard(KeyboardFrameChange)
    case scroll(ScrollRequest)
}

/// A trailing debounce for keyboard frames, so a burst of frames (an accessory
/// view that changes its height, a floating keyboard dragged, a show whose real
/// frame follows the configured one) moves the views once, to the last frame.
/// Hides are the exception: they are delivered at once (see `submit`).
///
/// Scroll requests queue behind the same timer: they are computed after the inset
/// they depend on, in the same pass, never against a stale inset.
///
/// ```
///  window w = 100 ms                     deliver
///  submit A  submit B      submit C        │          (a hide: delivered at submit)
///  ──┬─────────┬─────────────┬─────────────▼──────────  one delivery: C
///    └── w ──┘ └──── w ────┘ └──── w ────┘
///
///  suspend (rotation starts)           resume (rotation ends)
///  ──┬──────┬────────────────────────────┬──────────────▼──  deliver B
///   submit A │ remaining r kept    submit B  └ max(r, w) ┘
///
///  flush: delivers now; while suspended, delivers at resume.
/// ```
///
/// Pure: every method takes `now`; `nextDeadline` says when `advance(to:)` is due.
public struct KeyboardFrameFilter: Sendable {
    private enum State: Hashable, Sendable {
        /// Nothing pending.
        case idle
        /// Pending work, delivered at `deadline`.
        case waiting(deadline: Instant)
        /// Timer stopped. `remaining` is what was left of a running window;
        /// `restarted` is set when a frame arrived while suspended.
        case suspended(remaining: Duration?, restarted: Bool, flushRequested: Bool)
    }

    public var window: Duration
    private var state: State = .idle
    private var pendingFrame: KeyboardFrameChange?
    /// The pending frame's own wait (`submit`'s), kept for a resume.
    private var pendingWait: Duration?
    private var pendingRequests: [ScrollRequest] = []

    public init(window: Duration = .milliseconds(100)) {
        self.window = window
    }

    public var isSuspended: Bool {
        if case .suspended = state { true } else { false }
    }

    /// Nothing pending and not suspended: a scroll request would be handled at once.
    public var isIdle: Bool { state == .idle }

    /// When `advance(to:)` has something to deliver; nil while idle or suspended.
    public var nextDeadline: Instant? {
        if case .waiting(let deadline) = state { deadline } else { nil }
    }

    /// A new keyboard frame: replaces any pending one and restarts the window. The
    /// window only ever moves later: a submit never shortens a longer wait.
    ///
    /// A hide is not held: it replaces whatever was pending and is delivered at
    /// once, with the scroll requests queued behind it. The on-screen keyboard
    /// leaves as soon as it is told to, so an inset held for the window would pad
    /// every view, and every window the compositor grows back, for a keyboard no
    /// longer there. While suspended (a rotation) it waits like any frame: the
    /// views that report their new size are laid out against it at once.
    ///
    /// `wait` replaces the window for this frame (a show that waits for the
    /// OSK's real frame: `InsetPipeline.frameReportWait`).
    public mutating func submit(_ change: KeyboardFrameChange, now: Instant, wait: Duration? = nil) -> [FilteredEvent] {
        pendingFrame = change
        pendingWait = wait
        if change.frame == nil, !isSuspended { return deliver() }
        let window = wait ?? self.window
        switch state {
        case .idle:
            state = .waiting(deadline: now + window)
        case .waiting(let deadline):
            state = .waiting(deadline: max(deadline, now + window))
        case .suspended(let remaining, _, let flushRequested):
            state = .suspended(remaining: remaining, restarted: true, flushRequested: flushRequested)
        }
        return deliverIfWindowIsZero(now: now)
    }

    /// A scroll request: handled at once when nothing is pending, otherwise queued
    /// behind the pending keyboard frame.
    public mutating func request(_ scroll: ScrollRequest, now: Instant) -> [FilteredEvent] {
        switch state {
        case .idle:
            return [.scroll(scroll)]
        case .waiting, .suspended:
            pendingRequests.append(scroll)
            return []
        }
    }

    /// Stops the timer for a transition (rotation), keeping what is left of it.
    public mutating func suspend(now: Instant) {
        switch state {
        case .idle:
            state = .suspended(remaining: nil, restarted: false, flushRequested: false)
        case .waiting(let deadline):
            let left = deadline - now
            state = .suspended(
                remaining: left > .zero ? left : .zero, restarted: false, flushRequested: false)
        case .suspended:
            break
        }
    }

    /// Restarts the timer after a transition. Frames submitted while suspended wait
    /// `max(remaining, window)` (their own wait instead of the window, when they
    /// were submitted with one); otherwise the kept remainder runs out. A hide
    /// submitted while suspended is delivered at once.
    public mutating func resume(now: Instant) -> [FilteredEvent] {
        switch state {
        case .idle, .waiting:
            return []
        case .suspended(let remaining, let restarted, let flushRequested):
            if flushRequested || (pendingFrame == nil && !pendingRequests.isEmpty) {
                return deliver()
            }
            guard let pendingFrame else {
                state = .idle
                return []
            }
            if pendingFrame.frame == nil { return deliver() }
            let wait = restarted ? max(remaining ?? .zero, pendingWait ?? window) : (remaining ?? .zero)
            state = .waiting(deadline: now + wait)
            return advance(to: now)
        }
    }

    /// The report a frame was submitted to wait for will not come (its bridge
    /// left): that frame is delivered now. A frame held only by the window
    /// keeps its window; while suspended the frame forgets its wait and
    /// resumes with the window.
    public mutating func endWait() -> [FilteredEvent] {
        guard pendingWait != nil else { return [] }
        pendingWait = nil
        if case .waiting = state { return deliver() }
        return []
    }

    /// Delivers pending work now; while suspended, as soon as the filter resumes.
    public mutating func flush(now: Instant) -> [FilteredEvent] {
        switch state {
        case .idle:
            return []
        case .waiting:
            return deliver()
        case .suspended(let remaining, let restarted, _):
            state = .suspended(remaining: remaining, restarted: restarted, flushRequested: true)
            return []
        }
    }

    /// Delivers pending work whose window has run out by `now`.
    public mutating func advance(to now: Instant) -> [FilteredEvent] {
        switch state {
        case .idle, .suspended:
            return []
        case .waiting(let deadline):
            return deadline <= now ? deliver() : []
        }
    }

    private mutating func deliverIfWindowIsZero(now: Instant) -> [FilteredEvent] {
        window > .zero ? [] : advance(to: now)
    }

    private mutating func deliver() -> [FilteredEvent] {
        var out: [FilteredEvent] = []
        if let pendingFrame { out.append(.keyboard(pendingFrame)) }
        out += pendingRequests.map(FilteredEvent.scroll)
        pendingFrame = nil
        pendingWait = nil
        pendingRequests = []
        state = .idle
        return out
    }
}
