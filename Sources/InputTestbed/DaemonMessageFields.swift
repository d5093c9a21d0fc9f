import InsetCore
import InsetProtocol

/// A daemon message's contents by kind, nil for a message of another kind, so
/// a test reads `await client.next("adjustment")?.adjustment?.additionalBottomInset`
/// in one line.
extension DaemonMessage {
    public var adjustment: ViewAdjustment? {
        if case .adjustment(_, let adjustment) = self { adjustment } else { nil }
    }

    public var keyboard: (note: KeyboardNotification, isLocal: Bool)? {
        if case .keyboard(let note, let isLocal) = self { (note, isLocal) } else { nil }
    }

    /// The keyboard notification's phase.
    public var phase: KeyboardPhase? { keyboard?.note.phase }

    public var protocolError: ProtocolError? {
        if case .error(let error) = self { error } else { nil }
    }

    /// The state of a `welcome` or `status`.
    public var state: StateSnapshot? {
        switch self {
        case .welcome(_, _, let state, _), .status(_, let state, _, _): state
        default: nil
        }
    }

    /// A `status`'s counts.
    public var counts: (clients: Int, views: Int)? {
        if case .status(_, _, let clients, let views) = self { (clients, views) } else { nil }
    }

    /// The devices of a `devices` reply, or the one of a `device` message.
    public var devices: [WireDevice]? {
        switch self {
        case .devices(_, let devices): devices
        case .device(_, let device): [device]
        default: nil
        }
    }

    /// A `device` message's event (`attached`, `detached`, ...).
    public var deviceEvent: String? {
        if case .device(let event, _) = self { event } else { nil }
    }

    public var byeReason: String? {
        if case .bye(let reason) = self { reason } else { nil }
    }

    public var timelineEntry: TimelineEntry? {
        if case .event(let entry) = self { entry } else { nil }
    }
}
