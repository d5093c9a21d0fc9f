// library-floor: the Swift libraries insetd links, each doing the least it does
// in insetd, and nothing of insetd's own. The harness measures its idle memory
// beside the daemon's (P5), which splits insetd's resident set into what its
// libraries cost any program that uses them and what insetd adds.
//
//   library-floor --socket PATH
//
// Same as insetd: Swift concurrency on NIO's one event loop; the command line
// parsed by swift-argument-parser; one JSON message decoded
// (FoundationEssentials); a log line (swift-log); a Unix socket served by
// SwiftNIO until SIGTERM (insetd's own service group and configuration reader
// are its code, not libraries). Each client gets "ready\n" when it connects.
import ArgumentParser
import Dispatch
import FoundationEssentials
import Glibc
import Logging
import NIOCore
import NIOPosix

struct LibraryFloor: AsyncParsableCommand {
    @Option(help: "Unix socket to listen on.")
    var socket: String

    func run() async throws {
        var logger = Logger(label: "library-floor")
        logger.logLevel = .info
        struct Hello: Decodable { var type: String; var version: Int }
        let hello = try JSONDecoder().decode(Hello.self, from: Data(#"{"type":"hello","version":1}"#.utf8))

        unlink(socket)
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Greeter()) }
            }
            .bind(unixDomainSocketPath: socket).get()
        logger.info("listening", metadata: ["socket": "\(socket)", "message": "\(hello.type)"])
        signal(SIGTERM, SIG_IGN)
        let terminated = DispatchSource.makeSignalSource(signal: SIGTERM)
        await withCheckedContinuation { (stopped: CheckedContinuation<Void, Never>) in
            terminated.setEventHandler { stopped.resume() }
            terminated.resume()
        }
        terminated.cancel()
        try await server.close()
    }
}

/// Says "ready" to a client once its connection is up.
final class Greeter: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(NIOAny(context.channel.allocator.buffer(string: "ready\n")), promise: nil)
        context.fireChannelActive()
    }
}

NIOSingletons.groupLoopCountSuggestion = 1
_ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
Task {
    await LibraryFloor.main()
    exit(0)
}
dispatchMain()
