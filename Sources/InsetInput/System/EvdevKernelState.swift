import CLibevdev
import Glibc

/// What a reader that parses evdev events itself (`EvdevLoopReader`) needs
/// after `SYN_DROPPED`, as libevdev does it: the queued events thrown away
/// unread (they describe changes the state below already holds, or half of
/// them), then the kernel's key and switch state now.
enum EvdevKernelState {
    /// Reads and drops everything queued, until the device has nothing more
    /// (`EAGAIN`), is at its end, or fails (the caller's next read sees why).
    static func discardQueued(_ fd: Int32) {
        var scratch = [UInt8](repeating: 0, count: 64 * MemoryLayout<input_event>.size)
        while scratch.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// The keys held down now (`EVIOCGKEY`); nil when the device cannot say.
    static func keysDown(_ fd: Int32) -> Bits? {
        // 96 bytes: KEY_MAX + 1 bits, rounded up to whole longs, as libevdev asks.
        Bits(count: 96) { insetd_evdev_key_state(fd, $0, $1) }
    }

    /// The switches on now (`EVIOCGSW`); nil when the device cannot say.
    static func switchesOn(_ fd: Int32) -> Bits? {
        Bits(count: 8) { insetd_evdev_switch_state(fd, $0, $1) }
    }

    /// A kernel bit mask, one bit per event code.
    struct Bits {
        private let bytes: [UInt8]

        fileprivate init?(count: Int, _ fill: (UnsafeMutablePointer<UInt8>, UInt32) -> Int32) {
            var bytes = [UInt8](repeating: 0, count: count)
            let rc = bytes.withUnsafeMutableBufferPointer { fill($0.baseAddress!, UInt32($0.count)) }
            guard rc >= 0 else { return nil }
            self.bytes = bytes
        }

        func contains(_ code: Int) -> Bool {
            code >= 0 && code / 8 < bytes.count && bytes[code / 8] & (1 << (code % 8)) != 0
        }
    }
}
