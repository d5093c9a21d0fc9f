import Glibc
import InsetSocket

/// The harness's side of insetd's WebSocket (RFC 6455), as little as a client
/// needs: the upgrade, masked text frames out, unmasked frames in. Written
/// here, not taken from a library, so that measuring costs the harness as
/// little as its Unix socket clients cost it.
enum WebSocketHandshake {
    /// Connects to 127.0.0.1:`port` and completes the upgrade (blocking).
    static func connect(port: Int) throws -> Int32 {
        let fd: Int32
        do {
            fd = try TCPSocket.connect(port: port)
        } catch {
            throw HarnessError("connect to the WebSocket: \(error)")
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let request =
            "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        let bytes = Array(request.utf8)
        guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
            close(fd)
            throw HarnessError("short write of the WebSocket upgrade")
        }
        // The server says nothing after its 101 until the client's hello, so
        // reading up to the blank line never swallows a frame.
        var response: [UInt8] = []
        var byte: UInt8 = 0
        while !response.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)) {
            guard read(fd, &byte, 1) == 1 else {
                close(fd)
                throw HarnessError("the WebSocket upgrade got no answer")
            }
            response.append(byte)
        }
        guard response.starts(with: Array("HTTP/1.1 101".utf8)) else {
            close(fd)
            throw HarnessError("the WebSocket upgrade was refused: \(String(decoding: response, as: UTF8.self))")
        }
        return fd
    }

    /// One masked text frame (clients must mask; the key's value does not matter).
    static func maskedTextFrame(_ text: String) -> [UInt8] {
        let payload = Array(text.utf8)
        var frame: [UInt8] = [0x81]
        switch payload.count {
        case ..<126: frame.append(0x80 | UInt8(payload.count))
        case ..<65536: frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
        default: frame += [0x80 | 127] + (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xff) }
        }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        return frame
    }

    /// Removes every complete frame from the front of `pending`; returns their
    /// payloads (the server's frames are unmasked and never fragmented).
    static func takeFrames(_ pending: inout [UInt8]) -> [[UInt8]] {
        var frames: [[UInt8]] = []
        var start = 0
        while pending.count - start >= 2 {
            var length = Int(pending[start + 1] & 0x7f)
            var header = 2
            if length == 126 {
                guard pending.count - start >= 4 else { break }
                length = Int(pending[start + 2]) << 8 | Int(pending[start + 3])
                header = 4
            } else if length == 127 {
                guard pending.count - start >= 10 else { break }
                length = (0..<8).reduce(0) { $0 << 8 | Int(pending[start + 2 + $1]) }
                header = 10
            }
            guard pending.count - start >= header + length else { break }
            frames.append(Array(pending[(start + header)..<(start + header + length)]))
            start += header + length
        }
        pending.removeFirst(start)
        return frames
    }
}

extension DaemonUnderTest {
    /// `connect(view:)` over the WebSocket.
    func connectWebSocket(port: Int, view: Bool) throws -> SocketClient {
        try join(SocketClient(webSocketPort: port), name: "perf-ws", view: view)
    }
}

/// A loopback TCP port nothing listens on right now (bound to port 0, then released).
func freeLoopbackPort() -> Int {
    (try? TCPSocket.freeLoopbackPort()) ?? 0
}
