import Glibc

/// A failed system or library call, with the errno it reported.
public struct InputSystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was being done, e.g. `open /dev/input/event3`.
    public var operation: String
    public var errno: Int32

    public init(_ operation: String, errno: Int32) {
        self.operation = operation
        self.errno = errno
    }

    /// The device is gone (`ENODEV`, `ENOENT`, `ENXIO`): expected during hotplug.
    public var deviceVanished: Bool { [ENODEV, ENOENT, ENXIO].contains(errno) }

    public var description: String { "\(operation): \(String(cString: strerror(errno))) (errno \(errno))" }
}
