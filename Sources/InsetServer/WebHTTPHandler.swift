import InsetProtocol
import Logging
import NIOCore
import NIOHTTP1

/// The plain HTTP side of the WebSocket listener: serves insetd.js and the demo
/// (compiled in, see `WebAssets`), and answers an upgrade that was refused
/// (its origin is not allowed) with a 403 that says why.
///
/// Also the connection's place among the unfinished ones
/// (`PendingHTTPConnections`) until it upgrades or closes, and its request
/// deadline: a request must be complete within the deadline of the
/// connection's start or of its previous response, or the connection is
/// closed (a stalled or silent peer would otherwise hold its descriptor for
/// ever). The upgrade removes this handler, and with it the deadline.
final class WebHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    static let name = "insetd-http"

    private let policy: WebSocketOriginPolicy
    private let logger: Logger
    private let pending: PendingHTTPConnections
    private let ticket: UInt64
    private let refusals: RefusalLog
    private var request: HTTPRequestHead?
    private var deadline: Scheduled<Void>?
    /// Whether a response was sent: closing the idle keep-alive connection of
    /// a page that loaded its script is no refusal worth a log line.
    private var served = false

    init(
        policy: WebSocketOriginPolicy, pending: PendingHTTPConnections, ticket: UInt64, refusals: RefusalLog,
        logger: Logger
    ) {
        self.policy = policy
        self.pending = pending
        self.ticket = ticket
        self.refusals = refusals
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        armDeadline(context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        pending.remove(ticket)
    }

    private func armDeadline(context: ChannelHandlerContext) {
        deadline?.cancel()
        let channel = context.channel
        let refusals = refusals
        let served = served
        deadline = context.eventLoop.scheduleTask(in: pending.limits.requestTimeout) {
            if !served {
                refusals.refused(
                    "HTTP request not completed in time",
                    metadata: ["peer": "\(channel.remoteAddress?.ipAddress ?? "-")"])
            }
            channel.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): request = head
        case .body: break
        case .end:
            guard let head = request else { return }
            request = nil
            // Complete: the deadline starts again once the answer is sent, and
            // the connection is not slow meanwhile.
            pending.answering(ticket)
            deadline?.cancel()
            deadline = nil
            respond(context: context, to: head)
        }
    }

    private func respond(context: ChannelHandlerContext, to head: HTTPRequestHead) {
        let path = String(head.uri.prefix { $0 != "?" && $0 != "#" })
        if head.headers["upgrade"].contains(where: { $0.lowercased() == "websocket" }) {
            let origin = head.headers["origin"].first
            if !policy.allows(origin: origin, hostHeader: head.headers["host"].first) {
                logger.notice("WebSocket refused: origin not allowed", metadata: ["origin": "\(logSafe(origin ?? "-"))"])
                return send(
                    context, head, .forbidden,
                    body: "insetd: origin \(origin ?? "-") is not allowed; add it to websocket.origins\n")
            }
            return send(context, head, .badRequest, body: "insetd: not a valid WebSocket upgrade\n")
        }
        guard head.method == .GET || head.method == .HEAD else {
            return send(context, head, .methodNotAllowed, body: "insetd: only GET and HEAD\n")
        }
        if path == "/demo" { return send(context, head, .movedPermanently, body: "", headers: [("Location", "/demo/")]) }
        guard let asset = WebAssets.file(at: path == "/demo/" ? "/demo/index.html" : path) else {
            return send(context, head, .notFound, body: "insetd: no such page; try /demo/ or /insetd.js\n")
        }
        // A page on another origin imports the module with CORS.
        send(
            context, head, .ok, body: asset.body,
            headers: [
                ("Content-Type", asset.contentType), ("Cache-Control", "no-cache"),
                ("Access-Control-Allow-Origin", "*"),
            ])
    }

    private func send(
        _ context: ChannelHandlerContext, _ request: HTTPRequestHead, _ status: HTTPResponseStatus, body: String,
        headers extra: [(String, String)] = [("Content-Type", "text/plain; charset=utf-8")]
    ) {
        var bytes = context.channel.allocator.buffer(capacity: body.utf8.count)
        bytes.writeString(body)
        var headers = HTTPHeaders(extra)
        headers.add(name: "Content-Length", value: "\(bytes.readableBytes)")
        let keepAlive = request.isKeepAlive && status.code < 400
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))),
            promise: nil)
        if request.method != .HEAD { context.write(wrapOutboundOut(.body(.byteBuffer(bytes))), promise: nil) }
        served = true
        if keepAlive {
            pending.awaitingRequest(ticket)
            armDeadline(context: context)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { [channel = context.channel] _ in
            if !keepAlive { channel.close(promise: nil) }
        }
    }
}
