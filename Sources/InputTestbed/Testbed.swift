import CLibevdev
import CUMockdev
import Glibc

/// A umockdev testbed: a fake `/sys` and `/dev` that libudev and libevdev in this
/// process use instead of the real ones, so the code under test runs unmodified
/// against emulated devices.
///
/// The process must run under umockdev's preload (`umockdev-wrapper swift test`);
/// `Testbed.isAvailable` says whether it does. Only one testbed may exist at a
/// time in a process (umockdev keeps its root in the `UMOCKDEV_DIR` variable).
public final class Testbed {
    private let raw: UnsafeMutablePointer<UMockdevTestbed>
    private var ioctlFiles: [String] = []
    /// The reading side of each emulated node the test wrote to, opened only to
    /// ask how much its reader has not read yet (`FIONREAD`).
    private var readerSides: [String: Int32] = [:]

    /// True when this process runs under umockdev's preload library.
    public static var isAvailable: Bool {
        guard let preload = getenv("LD_PRELOAD") else { return false }
        return String(cString: preload).contains("umockdev-preload")
    }

    public init() {
        raw = umockdev_testbed_new()
    }

    deinit {
        for file in ioctlFiles { unlink(file) }
        for fd in readerSides.values { close(fd) }
        g_object_unref(raw)
    }

    /// Adds a device (event node and `inputN` parent) with its ioctl record.
    /// umockdev announces it at once with an `add` uevent, as udevd would once the
    /// node is ready; the ioctl record is loaded first so that a running monitor
    /// can open the device when it hears of it. With `udev: false` the udev
    /// properties are left out, as where no udevd runs.
    public func add(_ device: FixtureDevice, udev: Bool = true) throws(TestbedError) {
        var error: UnsafeMutablePointer<GError>?
        let path = try writeIoctlRecord(of: device)
        guard umockdev_testbed_load_ioctl(raw, device.devnode, path, &error) != 0 else {
            throw TestbedError(consuming: error, what: "load ioctl record of \(device.kind)")
        }
        guard umockdev_testbed_add_from_string(raw, device.umockdevRecord(udev: udev), &error) != 0 else {
            throw TestbedError(consuming: error, what: "add \(device.kind)")
        }
    }

    /// Unplugs a device: announces it with a `remove` uevent (umockdev's own
    /// removal does not reach a monitor), then deletes it from the fake sysfs.
    public func remove(_ device: FixtureDevice) {
        if let fd = readerSides.removeValue(forKey: device.devnode) { close(fd) }
        uevent(device, "remove")
        umockdev_testbed_remove_device(raw, "/sys" + device.syspath)
    }

    /// Closes the emulator's side of the device node without any uevent: the
    /// reader sees a hang-up (end of file), as when a device dies before udev
    /// reports it.
    public func hangUp(_ device: FixtureDevice) {
        let fd = umockdev_testbed_get_dev_fd(raw, device.devnode)
        if fd >= 0 { close(fd) }
    }

    /// Sends a uevent (`add`, `remove`, `change`) for the device's event node.
    public func uevent(_ device: FixtureDevice, _ action: String) {
        umockdev_testbed_uevent(raw, "/sys" + device.syspath, action)
    }

    /// Sets a udev property of the device's event node (as a udev rule would).
    public func setProperty(_ device: FixtureDevice, _ key: String, _ value: String) {
        umockdev_testbed_set_property(raw, "/sys" + device.syspath, key, value)
    }

    /// Deletes the device's node from the fake `/dev` while sysfs still lists
    /// it: an open after enumeration fails as when a device vanishes in between.
    public func deleteNode(_ device: FixtureDevice) {
        let root = umockdev_testbed_get_root_dir(raw)!
        defer { g_free(root) }
        unlink(String(cString: root) + device.devnode)
    }

    private func writeIoctlRecord(of device: FixtureDevice) throws(TestbedError) -> String {
        var template = Array("/tmp/insetd-ioctl-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw TestbedError(message: "mkstemp failed: errno \(errno)") }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        ioctlFiles.append(path)
        let record = Array(device.ioctlRecord.utf8)
        _ = record.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        return path
    }

    /// Writes one `struct input_event` into the device, as the kernel would.
    public func emit(_ device: FixtureDevice, type: Int32, code: Int32, value: Int32) {
        emit(device, frame: [(type, code, value)])
    }

    /// Writes events with one write(2), as the kernel hands a reader a whole report.
    public func emit(_ device: FixtureDevice, frame: [(type: Int32, code: Int32, value: Int32)]) {
        var events = frame.map { item in
            var event = input_event()
            event.type = UInt16(item.type)
            event.code = UInt16(item.code)
            event.value = item.value
            return event
        }
        let fd = umockdev_testbed_get_dev_fd(raw, device.devnode)
        precondition(fd >= 0, "\(device.devnode) has no emulated node")
        waitUntilRead(device)
        events.withUnsafeMutableBytes { bytes in
            // A write can still be cut short by a signal: go on from there.
            var offset = 0
            while offset < bytes.count {
                let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else if written < 0, errno == EAGAIN {
                    var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&ready, 1, 1000)
                } else {
                    preconditionFailure("write to \(device.devnode): \(written < 0 ? String(cString: strerror(errno)) : "nothing written")")
                }
            }
        }
    }

    /// The node is a PTY, and a PTY is a byte stream: when its reader falls
    /// behind (a typing storm on a busy machine) and the buffer fills, a write
    /// goes in part, the reader gets half an event, and libevdev fails the read
    /// with EINVAL, which no kernel evdev node ever does. So a frame is written
    /// only once the reader has read everything before it (waiting at most 2 s,
    /// then written anyway): emulated input keeps the kernel's whole events,
    /// and a writer faster than its reader is slowed to the reader's pace.
    /// (`poll`, not `FIONREAD`: umockdev's preload answers the ioctl itself.)
    private func waitUntilRead(_ device: FixtureDevice) {
        guard let fd = readerSide(of: device) else { return }
        let deadline = ContinuousClock.now + .seconds(2)
        var unread = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while poll(&unread, 1, 0) == 1, unread.revents & Int16(POLLIN) != 0, ContinuousClock.now < deadline {
            usleep(50)
        }
    }

    private func readerSide(of device: FixtureDevice) -> Int32? {
        if let fd = readerSides[device.devnode] { return fd }
        let root = umockdev_testbed_get_root_dir(raw)!
        defer { g_free(root) }
        // The fake node is a symbolic link to the PTY's reading side.
        var target = [CChar](repeating: 0, count: Int(PATH_MAX))
        let length = readlink(String(cString: root) + device.devnode, &target, target.count - 1)
        guard length > 0 else { return nil }
        let path = String(decoding: target.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        readerSides[device.devnode] = fd
        return fd
    }

    /// A key press or release followed by `SYN_REPORT`, in one report.
    public func key(_ device: FixtureDevice, _ code: Int32, _ value: Int32) {
        emit(device, frame: [(Int32(EV_KEY), code, value), (Int32(EV_SYN), Int32(SYN_REPORT), 0)])
    }

    /// Presses then releases each key in order (modifiers first, released last).
    public func tap(_ device: FixtureDevice, _ codes: [Int32]) {
        for code in codes { key(device, code, 1) }
        for code in codes.reversed() { key(device, code, 0) }
    }

    /// A switch change followed by `SYN_REPORT`.
    public func switchState(_ device: FixtureDevice, _ code: Int32, on: Bool) {
        emit(device, frame: [(Int32(EV_SW), code, on ? 1 : 0), (Int32(EV_SYN), Int32(SYN_REPORT), 0)])
    }
}

/// A testbed operation umockdev refused, with its message.
public struct TestbedError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }

    public init(message: String) { self.message = message }

    init(consuming error: UnsafeMutablePointer<GError>?, what: String) {
        let detail = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
        if let error { g_error_free(error) }
        message = "\(what): \(detail)"
    }
}
