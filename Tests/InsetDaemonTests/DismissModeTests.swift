import Foundation
import Glibc
import InputTestbed
import Testing

/// `dismiss` through the real daemon: refused with `invalid-field` naming the
/// view's dismiss mode when it is `none`, and the keyboard stays up.
@Suite struct DismissModeTests {
    @Test func dismissOnAViewWithoutADismissModeIsAnInvalidFieldAndTheKeyboardStays() async throws {
        let socket = DaemonBehaviourTests.temporary("sock")
        let daemon = try DaemonBehaviourTests.start(socket: socket)
        let client = try await DaemonBehaviourTests.connect(socket)
        client.sendLine(#"{"type":"register","view":"v","frame":{"x":0,"y":0,"width":1280,"height":800},"contentSize":{"width":1280,"height":2000}}"#)
        client.sendLine(#"{"type":"focus","view":"v","field":{"x":0,"y":100,"width":300,"height":44}}"#)
        // Landscape: the 209 pt keyboard.
        _ = await client.next("adjustment") { number($0, "additionalBottomInset") == 209 }
        client.sendLine(#"{"type":"dismiss","id":51,"view":"v"}"#)
        let error = await client.next("error")
        #expect(error?["code"] as? String == "invalid-field")
        #expect(error?["id"] as? Int == 51)
        #expect((error?["message"] as? String)?.contains("keyboardDismissMode none") == true)
        client.sendLine(#"{"type":"status","id":52}"#)
        let status = await client.next("status")
        #expect(number(status, "state", "keyboard", "height") == 209)
        await daemon.terminate()
        unlink(socket)
    }
}
