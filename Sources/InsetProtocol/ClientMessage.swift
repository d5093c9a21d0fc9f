#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InsetCore

/// The protocol versions this build speaks. `hello` picks the highest in common.
public let supportedProtocolVersions = [1]

/// A scroll view as a client describes it (see `ViewDescription`): only `view`,
/// `frame` and `contentSize` are required; everything else has the default a
/// plain scroll view has.
public struct WireView: Decodable, Hashable, Sendable {
    public var view: String
    public var description: ViewDescription

    enum CodingKeys: String, CodingKey {
        case view, frame, safeArea, additionalBottomInset, contentInset, indicatorInsets, contentSize
        case minimumContentSize, contentStretches, contentOffset, behavior, resizesContentForKeyboard
        case visibilityScrollMargin, keyboardDismissMode, alwaysBounceVertical
    }

    public init(view: String, description: ViewDescription) {
        self.view = view
        self.description = description
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        view = try c.viewName(.view)
        let defaults = ViewOptions()
        let options = ViewOptions(
            behavior: try c.decodeIfPresent(KeyboardAdjustmentBehavior.self, forKey: .behavior) ?? defaults.behavior,
            resizesContentForKeyboard: try c.decodeIfPresent(Bool.self, forKey: .resizesContentForKeyboard) ?? false,
            visibilityScrollMargin: try c.coordinateIfPresent(.visibilityScrollMargin) ?? 0,
            keyboardDismissMode: try c.decodeIfPresent(KeyboardDismissMode.self, forKey: .keyboardDismissMode) ?? .none,
            alwaysBounceVertical: try c.decodeIfPresent(Bool.self, forKey: .alwaysBounceVertical) ?? false)
        description = ViewDescription(
            frame: try c.decode(WireRect.self, forKey: .frame).rect,
            safeAreaInsets: try c.decodeIfPresent(WireInsets.self, forKey: .safeArea)?.insets ?? .zero,
            additionalBottomInset: try c.coordinateIfPresent(.additionalBottomInset) ?? 0,
            contentInset: try c.decodeIfPresent(WireInsets.self, forKey: .contentInset)?.insets ?? .zero,
            indicatorInsets: try c.decodeIfPresent(WireInsets.self, forKey: .indicatorInsets)?.insets ?? .zero,
            contentSize: try c.decode(WireSize.self, forKey: .contentSize).size,
            minimumContentSize: try c.decodeIfPresent(WireSize.self, forKey: .minimumContentSize)?.size,
            contentStretches: try c.decodeIfPresent(Bool.self, forKey: .contentStretches) ?? true,
            contentOffset: try c.decodeIfPresent(WirePoint.self, forKey: .contentOffset)?.point ?? .zero,
            options: options)
    }
}

extension KeyedDecodingContainer {
    /// A view's name: a non-empty string (a client's views are told apart by it).
    func viewName(_ key: Key) throws -> String {
        let name = try decode(String.self, forKey: key)
        guard !name.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "must not be empty")
        }
        return name
    }
}

/// Topics a client can subscribe to beyond keyboard notifications and its own
/// views' adjustments, which every client gets.
public enum Topic: String, Decodable, Hashable, Sendable, CaseIterable {
    case devices
    case policy
    /// The decision timeline (`TimelineEntry`): what insetd decided, when and why.
    case events
    /// Requests to rotate the screen (a rotate hotkey or command), for the
    /// shell or compositor that rotates it.
    case rotation
}

/// Which way a rotate request asks to turn the screen: `next` (the rotate key,
/// or the `rotate` command: the next orientation, as the shell sees fit),
/// `left` (counter-clockwise) or `right` (clockwise).
public enum RotationDirection: String, Decodable, Hashable, Sendable, CaseIterable {
    case next, left, right
}

/// A control command. Needs authorization (see `docs/PROTOCOL.md`). `rotate`
/// does not rotate anything itself: insetd passes it on to `rotation`
/// subscribers, and a shell that rotates reports the new size with a
/// `transition`.
/// The keyboard's show, hide and toggle are the core's own `KeyboardCommand`
/// (one type from the wire to the policy), beside `rotate`.
public enum ControlCommand: Hashable, Sendable, CaseIterable, RawRepresentable, Decodable {
    case keyboard(KeyboardCommand)
    case rotate

    public static let show = ControlCommand.keyboard(.show)
    public static let hide = ControlCommand.keyboard(.hide)
    public static let toggle = ControlCommand.keyboard(.toggle)

    public static var allCases: [ControlCommand] { KeyboardCommand.allCases.map(keyboard) + [.rotate] }

    public init?(rawValue: String) {
        if rawValue == "rotate" { self = .rotate } else if let command = KeyboardCommand(rawValue: rawValue) {
            self = .keyboard(command)
        } else {
            return nil
        }
    }

    public var rawValue: String {
        switch self {
        case .keyboard(let command): command.rawValue
        case .rotate: "rotate"
        }
    }

    /// As its raw value, a string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let command = ControlCommand(rawValue: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "Cannot initialize ControlCommand from invalid String value \(text)")
        }
        self = command
    }
}

/// Everything a client can send. Every message may carry an `id`.
public enum ClientMessage: Hashable, Sendable {
    case hello(versions: [Int], client: String?)
    case register(WireView)
    case update(WireView)
    case unregister(view: String)
    case focus(view: String, field: Rect)
    case blur(view: String)
    case scroll(view: String, rect: Rect, margin: Double?)
    case transition(duration: Double, screen: Size?)
    case dismiss(view: String)
    /// Where this client's window (its viewport: the origin of its views'
    /// frames) lies on the screen, in screen points. insetd places the client's
    /// views there before it measures them against the keyboard, which is in
    /// screen coordinates; a client that never sends it is at 0,0 and covers
    /// the whole screen, as before. `toplevel`: the client cannot know where
    /// its window is (Wayland); `frame` takes that window, `toplevel` in size,
    /// at the screen's top-left, and insetd moves it to where an OSK bridge
    /// says the compositor's focused window of that size is
    /// (`focusedWindow`), while this client holds the focus.
    case window(frame: Rect, toplevel: Size? = nil)
    case subscribe(topics: [Topic])
    case command(ControlCommand)
    case policy(mode: KeyboardMode)
    case status
    case devices
    // MARK: OSK bridge feedback (insetd-osk; authorized like control commands)
    /// The real on-screen keyboard was shown or hidden by the user or by itself.
    case oskVisibility(bridge: String, visible: Bool)
    /// The real keyboard's full frame as the bridge observed it; nil: the
    /// bridge measures it but has none for the screen as it is now (insetd
    /// keeps what it learned, and a show with no frame known for the
    /// orientation waits a moment for the bridge's report).
    case oskFrame(bridge: String, frame: Rect?)
    /// How the real keyboard moves on the screen when it shows, hides or
    /// changes size (duration 0: it appears at once); nil: the bridge does not
    /// know, and insetd's configured animation stands.
    case oskAnimation(bridge: String, animation: Animation?)
    /// Why the real keyboard is not on the screen though insetd shows it (it
    /// would not show; a full-screen window covers it); nil: no problem now.
    case oskProblem(bridge: String, problem: String?)
    /// The OSK the bridge drives ended (false: no keyboard can be on the
    /// screen until it runs again) or runs again (true).
    case oskRunning(bridge: String, running: Bool)
    /// Where the compositor draws its focused window (its frame on the
    /// screen, without shadows), as the bridge reads it from the compositor;
    /// nil: no window has the focus, or the bridge cannot tell.
    case focusedWindow(bridge: String, frame: Rect?)
    /// Re-read the configuration file (a control request; answered `reloaded`).
    case reload
}

/// A message as read from one line: its request id (when it had one) and content.
public struct ClientRequest: Hashable, Sendable {
    public var id: RequestID?
    public var message: ClientMessage

    public init(id: RequestID? = nil, message: ClientMessage) {
        self.id = id
        self.message = message
    }
}

/// A line that could not be turned into a request.
public struct ProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String
    public var id: RequestID?

    public init(_ code: ErrorCode, _ message: String, id: RequestID? = nil) {
        self.code = code
        self.message = message
        self.id = id
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

extension ClientMessage {
    /// A report only an OSK bridge sends (insetd-osk; authorized like control
    /// commands): its sender is a bridge.
    public var isBridgeReport: Bool {
        switch self {
        case .oskVisibility, .oskFrame, .oskAnimation, .oskProblem, .oskRunning, .focusedWindow: true
        default: false
        }
    }

    /// The core event a client's message becomes, or nil for messages the daemon
    /// answers itself (hello, subscribe, status, devices, rotate). One mapping for
    /// the daemon and the fuzzer, so what is fuzzed is what runs.
    public func pipelineEvent(for client: ClientID) -> PipelineEvent? {
        func view(_ name: String) -> ViewID { ViewID(client: client, name: name) }
        switch self {
        case .hello, .subscribe, .status, .devices, .command(.rotate), .reload, .oskProblem: return nil
        // The daemon keeps the client's window and moves its views' frames (DaemonCore).
        case .window, .focusedWindow: return nil
        case .command(.keyboard(let command)): return .command(command)
        case .register(let wire): return .register(view(wire.view), wire.description)
        case .update(let wire): return .update(view(wire.view), wire.description)
        case .unregister(let name): return .unregister(view(name))
        case .focus(let name, let field): return .focus(view(name), field: field)
        case .blur(let name): return .blur(view(name))
        case .scroll(let name, let rect, let margin):
            return .scrollToVisible(ScrollRequest(view: view(name), rect: rect, margin: margin))
        case .transition(let duration, let screen): return .transition(duration: .fromSeconds(duration), screen: screen)
        case .dismiss(let name): return .interactiveDismiss(view(name))
        case .policy(let mode): return .mode(mode)
        case .oskVisibility(_, let visible): return .oskVisibility(visible)
        case .oskFrame(_, let frame): return frame.map(PipelineEvent.floatingFrame) ?? .frameAwaited(true)
        case .oskAnimation(_, let animation): return .oskAnimation(animation)
        case .oskRunning(_, let running): return .oskRunning(running)
        }
    }
}
