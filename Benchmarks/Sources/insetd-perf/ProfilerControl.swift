import Glibc

/// Lets a profiler record only the timed fan-out phases of a run, not the
/// thousands of connections and handshakes around them. With
/// `INSETD_PERF_CONTROL` naming the control FIFO of `perf record -D -1
/// --control=fifo:CONTROL,ACK`, the harness enables recording when a timed
/// WebSocket fan-out starts (insetd's, then the C floor's) and disables it when
/// it ends; `INSETD_PERF_ACK` names the acknowledgement FIFO, read after each
/// command so that nothing is missed. Unset, both do nothing.
enum ProfilerControl {
    static func enable() { send("enable") }
    static func disable() { send("disable") }

    private static func send(_ command: String) {
        guard let control = getenv("INSETD_PERF_CONTROL") else { return }
        let fd = open(control, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        let bytes = Array((command + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard let acknowledgement = getenv("INSETD_PERF_ACK") else { return }
        let ack = open(acknowledgement, O_RDONLY | O_CLOEXEC)
        guard ack >= 0 else { return }
        var reply = [UInt8](repeating: 0, count: 8)
        _ = read(ack, &reply, reply.count)
        close(ack)
    }
}
