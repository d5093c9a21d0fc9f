#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InsetCore

/// The daemon's state as a client sees it on connecting.
public struct StateSnapshot: Decodable, Hashable, Sendable {
    /// Where the keyboard is; absent when hidden.
    public var keyboard: WireRect?
    public var screen: WireSize
    public var orientation: Orientation
    public var mode: KeyboardMode
    public var tabletMode: Bool
    public var hardwareKeyboard: Bool
    /// Where the keyboard's frame comes from: `configured`, or `reported by BRIDGE`
    /// when an OSK bridge reported the real keyboard's frame. Absent from older daemons.
    public var frameSource: String?
    /// Why the real keyboard is not on the screen, as an OSK bridge reported it
    /// (it would not show; a full-screen window covers it). Absent: no problem known.
    public var oskProblem: String?

    public init(
        keyboard: Rect?, screen: Size, mode: KeyboardMode, tabletMode: Bool, hardwareKeyboard: Bool
    ) {
        self.keyboard = keyboard.map(WireRect.init)
        self.screen = WireSize(screen)
        self.orientation = Orientation(screen: screen)
        self.mode = mode
        self.tabletMode = tabletMode
        self.hardwareKeyboard = hardwareKeyboard
    }
}

/// One input device as `insetctl devices` lists it.
public struct WireDevice: Decodable, Hashable, Sendable {
    public var name: String
    public var devnode: String?
    /// `keyboard-internal`, `keyboard-external`, `tablet-switch`, `hotkeys`, `ignored`.
    public var `class`: String
    public var external: Bool
    public var reason: String
    public var vendorProduct: String
    public var syspath: String

    public init(
        name: String, devnode: String?, class: String, external: Bool, reason: String, vendorProduct: String,
        syspath: String
    ) {
        self.name = name
        self.devnode = devnode
        self.class = `class`
        self.external = external
        self.reason = reason
        self.vendorProduct = vendorProduct
        self.syspath = syspath
    }
}

/// Everything the daemon sends. Encoded as one JSON object per line with a
/// `type`: written by `lineBytes()` (DaemonMessageWriter.swift) and read back by
/// `DaemonMessageDecoder`, the only writer and reader of these lines.
public enum DaemonMessage: Hashable, Sendable {
    /// The answer to `hello`, echoing its `id`.
    case welcome(version: Int, client: String, state: StateSnapshot, id: RequestID? = nil)
    /// A keyboard lifecycle notification, with `isLocal` for this recipient.
    case keyboard(KeyboardNotification, isLocal: Bool)
    /// A view's complete adjusted state (`view` is the client's own view name).
    case adjustment(view: String, ViewAdjustment)
    case device(event: String, WireDevice)
    case policy(mode: KeyboardMode, tabletMode: Bool, hardwareKeyboard: Bool)
    case status(id: RequestID?, state: StateSnapshot, clients: Int, views: Int)
    case devices(id: RequestID?, [WireDevice])
    case ok(id: RequestID?)
    case error(ProtocolError)
    /// The daemon is going away (`shutdown`) or dropping this client.
    case bye(reason: String)
    /// The answer to `reload`: the file read (nil, no `config`: built-in defaults), the keys
    /// whose new values apply now, and those that take effect after a restart.
    case reloaded(id: RequestID?, config: String?, changed: [String], restart: [String])
    /// Another client's field took the focus from this client's `view`.
    case focusLost(view: String)
    /// Where insetd measures this client's window: the compositor draws the
    /// window the client said the size of (`window`'s `toplevel`) at `origin`
    /// on the screen; 0,0: at the top-left, where the client took it to be.
    case placed(origin: Point)
    /// Someone asked to rotate the screen (hotkey or command); for `rotation`
    /// subscribers.
    case rotate(direction: RotationDirection)
    /// One entry of the decision timeline, for `events` subscribers.
    case event(TimelineEntry)

    /// The message's `type` on the wire.
    public var type: String {
        switch self {
        case .welcome: "welcome"
        case .keyboard: "keyboard"
        case .adjustment: "adjustment"
        case .device: "device"
        case .policy: "policy"
        case .status: "status"
        case .devices: "devices"
        case .ok: "ok"
        case .error: "error"
        case .bye: "bye"
        case .reloaded: "reloaded"
        case .focusLost: "focusLost"
        case .placed: "placed"
        case .rotate: "rotate"
        case .event: "event"
        }
    }

    /// The id of the request this message answers, when it is a reply.
    public var requestID: RequestID? {
        switch self {
        case .welcome(_, _, _, let id), .status(let id, _, _, _), .devices(let id, _), .ok(let id),
            .reloaded(let id, _, _, _):
            id
        case .error(let error): error.id
        case .keyboard, .adjustment, .device, .policy, .bye, .focusLost, .placed, .rotate, .event: nil
        }
    }
}
