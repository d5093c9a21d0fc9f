import CLibevdev
import Glibc

/// One evdev device opened read-only and non-blocking, never grabbed.
///
/// Only the reading code sees raw events, through the `body` closure of `drain`;
/// nothing here stores or prints an event.
final class EvdevDevice {
    let path: String
    let fileDescriptor: Int32
    private let raw: OpaquePointer

    /// How one `drain` ended.
    enum DrainResult: Equatable {
        /// Everything queued was read (`-EAGAIN`).
        case drained
        /// The device is unusable (`-ENODEV` or another read error): close it.
        case failed(errno: Int32)
    }

    /// An event as read: `normal` ones are real changes; `resync` ones replay the
    /// device's state after the kernel dropped events (`SYN_DROPPED`).
    enum Event {
        case normal(type: UInt32, code: UInt32, value: Int32)
        case resync(type: UInt32, code: UInt32, value: Int32)
    }

    init(path: String) throws(InputSystemError) {
        (fileDescriptor, raw) = try Self.open(path)
        self.path = path
    }

    /// The device's descriptor and libevdev's handle on it; nothing is left
    /// open when either fails.
    private static func open(_ path: String) throws(InputSystemError) -> (Int32, OpaquePointer) {
        let fd = insetd_open_evdev(path)
        guard fd >= 0 else { throw InputSystemError("open \(path)", errno: errno) }
        var device: OpaquePointer?
        let rc = libevdev_new_from_fd(fd, &device)
        guard rc == 0, let device else {
            close(fd)
            throw InputSystemError("libevdev_new_from_fd \(path)", errno: -rc)
        }
        return (fd, device)
    }

    deinit {
        libevdev_free(raw)
        close(fileDescriptor)
    }

    /// The current state of a switch (read at open from the kernel), or nil when
    /// the device has no such switch.
    func switchIsOn(_ code: Int32) -> Bool? { Self.switchIsOn(code, raw) }

    private static func switchIsOn(_ code: Int32, _ raw: OpaquePointer) -> Bool? {
        guard libevdev_has_event_code(raw, UInt32(EV_SW), UInt32(code)) != 0 else { return nil }
        return libevdev_get_event_value(raw, UInt32(EV_SW), UInt32(code)) != 0
    }

    /// Opens a device that is read elsewhere (`EvdevLoopReader` on the event
    /// loop): libevdev checks it is an evdev device and reads its tablet-mode
    /// switch, then lets go. The caller owns the returned descriptor.
    static func openForHandOver(path: String) throws(InputSystemError) -> (descriptor: Int32, tabletMode: Bool?) {
        let (fd, device) = try open(path)
        defer { libevdev_free(device) }
        return (fd, switchIsOn(Int32(SW_TABLET_MODE), device))
    }

    /// Reads everything queued. On `SYN_DROPPED` it switches to sync mode and
    /// drains the resync events until `-EAGAIN`, as libevdev requires.
    func drain(_ body: (Event) -> Void) -> DrainResult {
        var event = input_event()
        var flag = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        while true {
            let rc = libevdev_next_event(raw, flag, &event)
            let type = UInt32(event.type)
            let code = UInt32(event.code)
            switch rc {
            case Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue):
                if flag == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    body(.resync(type: type, code: code, value: event.value))
                } else {
                    body(.normal(type: type, code: code, value: event.value))
                }
            case Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue):
                // In normal mode this is the SYN_DROPPED itself; in sync mode, a
                // resync event. Either way, keep draining in sync mode.
                if flag == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    body(.resync(type: type, code: code, value: event.value))
                }
                flag = LIBEVDEV_READ_FLAG_SYNC.rawValue
            case -EAGAIN:
                if flag == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    // Sync finished; what follows is normal again.
                    flag = LIBEVDEV_READ_FLAG_NORMAL.rawValue
                    continue
                }
                return .drained
            default:
                return .failed(errno: -rc)
            }
        }
    }
}
