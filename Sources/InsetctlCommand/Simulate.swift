#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import ArgumentParser
import InsetCore
import InsetProtocol

/// Registers a temporary full-screen view and drives it, printing what a client
/// would receive: a way to see the engine work without writing a client.
struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Register a temporary view and focus, blur or scroll it; print what a client would receive.",
        discussion: "The view lives as long as the command: insetd forgets it when insetctl exits.")

    enum Action: String, ExpressibleByArgument, CaseIterable { case focus, blur, scroll }

    @OptionGroup var options: SocketOptions
    @Argument(help: "focus, blur or scroll.") var action: Action
    @Option(help: "The rectangle (x,y,width,height) of the field to focus or to scroll to.") var rect = "0,600,300,44"
    @Option(help: "Safe-area insets of the view (top,left,bottom,right).") var safe = "0,0,0,0"
    @Option(help: "Content height of the view.") var contentHeight: Double = 2000
    @Option(help: "How long to keep listening, in milliseconds.") var wait: Int = 500
    @Flag(help: "Print raw JSON messages.") var json = false

    func validate() throws {
        guard Self.numbers(rect, 4) != nil else { throw ValidationError("--rect must be x,y,width,height") }
        guard Self.numbers(safe, 4) != nil else { throw ValidationError("--safe must be top,left,bottom,right") }
        guard (0...60_000).contains(wait) else { throw ValidationError("--wait must be 0 to 60000 ms") }
    }

    static func numbers(_ text: String, _ count: Int) -> [Double]? {
        let values = text.split(separator: ",").compactMap { Double($0) }
        return values.count == count ? values : nil
    }

    func run() throws {
        let channel = try options.connect()
        let screen = try channel.status().state.screen
        let (width, height) = (screen.width, screen.height)
        let r = Self.numbers(rect, 4)!
        let s = Self.numbers(safe, 4)!
        let field = Rect(x: r[0], y: r[1], width: r[2], height: r[3])
        let view = ViewDescription(
            frame: Rect(x: 0, y: 0, width: width, height: height),
            safeAreaInsets: EdgeInsets(top: s[0], left: s[1], bottom: s[2], right: s[3]),
            contentSize: Size(width: width, height: contentHeight))
        _ = try channel.request(.register(WireView(view: "insetctl", description: view)))
        switch action {
        case .focus: channel.send(ClientRequest(message: .focus(view: "insetctl", field: field)))
        case .blur: channel.send(ClientRequest(message: .blur(view: "insetctl")))
        case .scroll: channel.send(ClientRequest(message: .scroll(view: "insetctl", rect: field, margin: nil)))
        }
        let deadline = Date().addingTimeInterval(Double(wait) / 1000)
        while let received = try channel.receiveLine(timeout: max(0, deadline.timeIntervalSinceNow)) {
            print(json ? received.text : Output.event(received.message, text: received.text))
        }
    }
}
