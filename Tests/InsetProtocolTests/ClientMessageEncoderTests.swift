import Foundation
import InsetCore
import Testing

@testable import InsetProtocol

/// Clients write requests with `ClientRequest.line()`; the daemon reads them
/// with `ClientMessageDecoder`. Every message kind must come back as it went.
@Suite struct ClientMessageEncoderTests {
    static let view = WireView(
        view: "signup",
        description: ViewDescription(
            frame: Rect(x: 0, y: 20.5, width: 390, height: 844), safeAreaInsets: EdgeInsets(top: 47, bottom: 34),
            additionalBottomInset: -12.25, contentInset: EdgeInsets(left: 3), indicatorInsets: EdgeInsets(right: 1e-3),
            contentSize: Size(width: 390, height: 1200), minimumContentSize: Size(width: 390, height: 900),
            contentStretches: false, contentOffset: Point(x: 0, y: 120),
            options: ViewOptions(
                behavior: .contentSize, resizesContentForKeyboard: true, visibilityScrollMargin: 8,
                keyboardDismissMode: .interactive, alwaysBounceVertical: true)))

    static let requests: [ClientRequest] = [
        ClientRequest(id: .number(1), message: .hello(versions: [1], client: "kiosk \"shell\"\n")),
        ClientRequest(message: .hello(versions: [1, 2], client: nil)),
        ClientRequest(id: .string("r"), message: .register(view)),
        ClientRequest(message: .update(view)),
        ClientRequest(message: .unregister(view: "signup")),
        ClientRequest(message: .focus(view: "signup", field: Rect(x: 16, y: 720, width: 358, height: 44))),
        ClientRequest(message: .blur(view: "signup")),
        ClientRequest(message: .scroll(view: "signup", rect: Rect(x: 16, y: 980, width: 358, height: 44), margin: 12)),
        ClientRequest(message: .scroll(view: "signup", rect: Rect(x: 0, y: 0, width: 1, height: 1), margin: nil)),
        ClientRequest(message: .transition(duration: 0.4, screen: Size(width: 844, height: 390))),
        ClientRequest(message: .transition(duration: 0, screen: nil)),
        ClientRequest(message: .dismiss(view: "signup")),
        ClientRequest(id: .number(5), message: .window(frame: Rect(x: 0, y: 56, width: 540, height: 732))),
        ClientRequest(message: .window(frame: Rect(x: 0, y: 56, width: 540, height: 872), toplevel: Size(width: 540, height: 928))),
        ClientRequest(message: .focusedWindow(bridge: "gnome", frame: Rect(x: 0, y: 32, width: 540, height: 928))),
        ClientRequest(id: .number(6), message: .focusedWindow(bridge: "sway", frame: nil)),
        ClientRequest(message: .subscribe(topics: Topic.allCases)),
        ClientRequest(id: .string("t1"), message: .command(.toggle)),
        ClientRequest(message: .command(.rotate)),
        ClientRequest(message: .policy(mode: .always)),
        ClientRequest(id: .number(-3), message: .status),
        ClientRequest(message: .devices),
    ]

    @Test(arguments: requests)
    func aRequestDecodesAsItWasWritten(_ request: ClientRequest) throws {
        let line = request.lineBytes()
        #expect(line.last == UInt8(ascii: "\n"))
        #expect(line.dropLast().allSatisfy { $0 != UInt8(ascii: "\n") }, "one line")
        #expect(try ClientMessageDecoder.decode(line.dropLast()) == request)
    }

    @Test func aRegisterLineNamesEveryFieldAsTheDocumentDoes() throws {
        let text = String(decoding: ClientRequest(message: .register(Self.view)).lineBytes(), as: UTF8.self)
        #expect(text.hasPrefix(#"{"additionalBottomInset":-12.25,"alwaysBounceVertical":true,"behavior":"contentSize","#))
        #expect(text.contains(#""safeArea":{"bottom":34,"left":0,"right":0,"top":47}"#))
        #expect(text.contains(#""type":"register","view":"signup","visibilityScrollMargin":8}"#))
    }
}
