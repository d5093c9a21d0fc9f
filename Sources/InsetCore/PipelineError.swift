/// Why `InsetPipeline` refused an event. A refused event changes nothing, so the
/// daemon can answer the one request with an error and keep serving everyone.
public enum PipelineError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The event named a view that is not registered.
    case unknownView(ViewID)
    /// Interactive dismissal on a view whose `keyboardDismissMode` is `none`: the
    /// user cannot drag the keyboard away there (UIKit offers it only for `onDrag`
    /// and `interactive`), so the keyboard stays.
    case dismissNotAllowed(ViewID, mode: KeyboardDismissMode)

    /// The view the refused event named.
    public var view: ViewID {
        switch self {
        case .unknownView(let view), .dismissNotAllowed(let view, _): view
        }
    }

    public var description: String {
        switch self {
        case .unknownView(let view):
            "no view \(view) is registered"
        case .dismissNotAllowed(let view, let mode):
            "dismiss: view \(view) has keyboardDismissMode \(mode.rawValue);"
                + " only onDrag or interactive views can dismiss the keyboard"
        }
    }
}
