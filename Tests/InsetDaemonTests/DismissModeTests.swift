import Foundation
import Glibc
import InputTestbed
import InsetProtocol
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
        _ = await client.next("adjustment") { $0.adjustment?.additionalBottomInset == 209 }
        client.sendLine(#"{"type":"dismiss","id":51,"view":"v"}"#)
        let error = await client.next("error")
        #expect(error?.protocolError?.code == .invalidField)
        #expect(error?.protocolError?.id == .number(51))
        #expect(error?.protocolError?.message.contains("keyboardDismissMode none") == true)
        client.sendLine(#"{"type":"status","id":52}"#)
        let status = await client.next("status")
        #expect(status?.state?.keyboard?.height == 209)
        await daemon.terminate()
        unlink(socket)
    }
}
