/// The timing curve a client should use to move in step with the keyboard.
public enum AnimationCurve: String, Hashable, Sendable, Codable, CaseIterable {
    case easeInOut
    case easeIn
    case easeOut
    case linear
}

/// How a client should animate a change: a duration and a curve, or not at all.
///
/// Every keyboard notification and every view adjustment carries one, so a client
/// can move its views together with the on-screen keyboard instead of jumping.
public struct Animation: Hashable, Sendable, Codable, CustomStringConvertible {
    public var duration: Duration
    public var curve: AnimationCurve

    public init(duration: Duration, curve: AnimationCurve) {
        self.duration = duration
        self.curve = curve
    }

    /// Apply at once.
    public static let none = Animation(duration: .zero, curve: .linear)

    /// The on-screen keyboard's own slide, as the reference platform animates it.
    public static let keyboardDefault = Animation(duration: .milliseconds(250), curve: .easeInOut)

    /// A scroll that is not tied to a keyboard movement.
    public static let scrollDefault = Animation(duration: .milliseconds(300), curve: .easeInOut)

    public var isAnimated: Bool { duration > .zero }

    public var description: String {
        isAnimated ? "\(duration.millisecondsDescription)/\(curve.rawValue)" : "none"
    }
}

/// Identifies one connected client (one socket connection, or one replayed client).
public struct ClientID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static func < (lhs: ClientID, rhs: ClientID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { rawValue }
}

/// Identifies one scroll view: the client that owns it and the name the client chose.
/// Two clients may use the same view name without colliding.
public struct ViewID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public var client: ClientID
    public var name: String

    public init(client: ClientID, name: String) {
        self.client = client
        self.name = name
    }

    public static func < (lhs: ViewID, rhs: ViewID) -> Bool {
        (lhs.client, lhs.name) < (rhs.client, rhs.name)
    }

    public var description: String { "\(client.rawValue)/\(name)" }
}

/// The six points of the on-screen keyboard's lifecycle, named after the platform
/// notifications clients already know how to handle.
public enum KeyboardPhase: String, Hashable, Sendable, Codable, CaseIterable {
    case willShow
    case didShow
    case willHide
    case didHide
    case willChangeFrame
    case didChangeFrame

    /// A `will` phase announces a movement about to start; its `did` follows when the
    /// animation has run its course.
    public var isWill: Bool {
        switch self {
        case .willShow, .willHide, .willChangeFrame: true
        case .didShow, .didHide, .didChangeFrame: false
        }
    }

    /// The `did` phase that closes this `will` phase (a `did` phase closes itself).
    public var completion: KeyboardPhase {
        switch self {
        case .willShow, .didShow: .didShow
        case .willHide, .didHide: .didHide
        case .willChangeFrame, .didChangeFrame: .didChangeFrame
        }
    }
}

/// One keyboard lifecycle notification, as every client receives it.
///
/// `focusOwner` is the client whose text input caused the change, if any: the server
/// turns it into the per-recipient `isLocal` flag (true only for that client), as iOS
/// marks the notification local to the app that owns the first responder.
public struct KeyboardNotification: Hashable, Sendable, Codable, CustomStringConvertible {
    public var phase: KeyboardPhase
    public var beginFrame: Rect
    public var endFrame: Rect
    public var animation: Animation
    public var focusOwner: ClientID?

    public init(
        phase: KeyboardPhase, beginFrame: Rect, endFrame: Rect, animation: Animation,
        focusOwner: ClientID?
    ) {
        self.phase = phase
        self.beginFrame = beginFrame
        self.endFrame = endFrame
        self.animation = animation
        self.focusOwner = focusOwner
    }

    /// Whether `client` owns the focused text input this notification is about.
    public func isLocal(for client: ClientID) -> Bool { focusOwner == client }

    public var description: String {
        "\(phase.rawValue) begin=\(formatRect(beginFrame)) end=\(formatRect(endFrame))"
            + " animate=\(animation) owner=\(focusOwner?.rawValue ?? "-")"
    }
}

/// A change of the keyboard's frame that the engine acts on: where the keyboard now
/// is (nil when hidden), on which screen, and how to animate the views that follow it.
public struct KeyboardFrameChange: Hashable, Sendable {
    public var frame: Rect?
    public var screen: Size
    public var animation: Animation

    public init(frame: Rect?, screen: Size, animation: Animation) {
        self.frame = frame
        self.screen = screen
        self.animation = animation
    }
}

/// Compact `x,y,w,h` text for a rectangle, the form golden files and logs use.
public func formatRect(_ rect: Rect) -> String {
    [rect.minX, rect.minY, rect.width, rect.height].map(formatPoints).joined(separator: ",")
}
