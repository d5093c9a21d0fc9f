import DBus

/// Why a backend could not reach or drive its on-screen keyboard, as one line a
/// person can act on (the bridge logs it once and retries with back-off).
package struct OSKError: Error, Hashable, Sendable, CustomStringConvertible {
    package var description: String
    /// The OSK is not running (as opposed to running and failing).
    package var absent: Bool

    package init(_ description: String, absent: Bool = false) {
        self.description = description
        self.absent = absent
    }

    init(_ context: String, _ error: DBusError) {
        self.init("\(context): \(error)", absent: error.serviceUnknown)
    }
}
