import Foundation
import InsetCore
import InsetProtocol
import Testing

@testable import InsetOSK

/// `oskAnimation`: how the real keyboard moves, as a bridge says it, on the
/// wire (PROTOCOL.md) and in insetd-osk's decisions.
@Suite struct OSKAnimationMessageTests {
    @Test(arguments: [
        (#"{"type":"oskAnimation","bridge":"squeekboard","animation":{"duration":0,"curve":"linear"}}"#,
         Animation(duration: .zero, curve: .linear) as Animation?),
        (#"{"type":"oskAnimation","bridge":"gnome","animation":{"duration":0.15,"curve":"easeOut"}}"#,
         Animation(duration: .milliseconds(150), curve: .easeOut)),
        (#"{"type":"oskAnimation","bridge":"x","animation":{"duration":5,"curve":"easeIn"}}"#,
         Animation(duration: .seconds(5), curve: .easeIn)),
        (#"{"type":"oskAnimation","bridge":"kwin","animation":null}"#, nil),
        (#"{"type":"oskAnimation","bridge":"kwin"}"#, nil),
    ])
    func anAnimationDecodes(line: String, animation: Animation?) throws {
        let request = try ClientMessageDecoder.decode(Data(line.utf8))
        guard case .oskAnimation(_, let decoded) = request.message else {
            Issue.record("\(request)")
            return
        }
        #expect(decoded == animation)
        #expect(request.message.pipelineEvent(for: ClientID("c1")) == .oskAnimation(animation))
        // The encoder writes what the decoder reads.
        let again = try ClientMessageDecoder.decode(ClientRequest(message: request.message).lineBytes().dropLast())
        #expect(again.message == request.message)
    }

    @Test(arguments: [
        (#"{"type":"oskAnimation","bridge":"squeekboard","animation":{"duration":-0.1,"curve":"linear"}}"#, "0 to 5 seconds"),
        (#"{"type":"oskAnimation","bridge":"squeekboard","animation":{"duration":5.001,"curve":"linear"}}"#, "0 to 5 seconds"),
        (#"{"type":"oskAnimation","bridge":"squeekboard","animation":{"duration":"fast","curve":"linear"}}"#, "duration"),
        (#"{"type":"oskAnimation","bridge":"squeekboard","animation":{"duration":0.2,"curve":"bounce"}}"#, "curve"),
        (#"{"type":"oskAnimation","bridge":"squeekboard","animation":{"duration":0.2}}"#, "curve"),
        (#"{"type":"oskAnimation","bridge":"squeekboard","animation":250}"#, "animation"),
        (#"{"type":"oskAnimation","bridge":"two words","animation":null}"#, "bridge"),
        (#"{"type":"oskAnimation","animation":null}"#, "bridge"),
    ])
    func aBadAnimationIsRefused(line: String, mentions: String) {
        #expect {
            _ = try ClientMessageDecoder.decode(Data(line.utf8))
        } throws: { error in
            guard let error = error as? ProtocolError else { return false }
            return error.code == .invalidField && error.message.contains(mentions)
        }
    }
}

@Suite struct BridgeAnimationTests {
    static let screen = Size(width: 540, height: 960)
    static let atOnce = Animation(duration: .zero, curve: .linear)

    func animations(_ step: BridgeStep) -> [Animation?] {
        step.actions.compactMap { if case .reportAnimation(let animation) = $0 { animation } else { nil } }
    }

    /// Once per link and OSK, before anything about the frame; again to a
    /// restarted insetd, which knows nothing; "not known" is said too, so
    /// insetd drops an earlier bridge's word.
    @Test func theAnimationIsToldOnceALink() {
        var machine = BridgeMachine()
        let attached = machine.handle(
            .oskAttached(name: "squeekboard", observable: true, configured: nil, measurable: true, animation: Self.atOnce),
            now: .zero)
        #expect(animations(attached).isEmpty, "no link yet")
        let linked = machine.handle(.linkConnected(screen: Self.screen, keyboardShown: false, hardwareKeyboard: false), now: .zero)
        #expect(animations(linked) == [Self.atOnce])
        if case .reportAnimation = linked.actions.first {} else { Issue.record("first: \(linked.actions)") }
        #expect(animations(machine.handle(.tick, now: .milliseconds(100))).isEmpty)
        _ = machine.handle(.linkLost, now: .milliseconds(200))
        #expect(animations(machine.handle(.linkConnected(screen: Self.screen, keyboardShown: false, hardwareKeyboard: false), now: .milliseconds(300))) == [Self.atOnce])
        // The OSK restarts as one the bridge cannot say anything about.
        _ = machine.handle(.oskDetached, now: .milliseconds(400))
        let unknown = machine.handle(.oskAttached(name: "kwin", observable: true, configured: nil), now: .milliseconds(500))
        #expect(animations(unknown) == [nil])
    }

    /// GNOME's animations turned off while its keyboard runs: told at once,
    /// once; the same word again says nothing; without a link, nothing (the
    /// next link is told).
    @Test func aChangeOfHowTheOSKMovesIsToldOnce() {
        let slide = Animation(duration: .milliseconds(150), curve: .easeOut)
        var machine = BridgeMachine()
        _ = machine.handle(.oskAttached(name: "gnome", observable: true, configured: nil, animation: slide), now: .zero)
        #expect(animations(machine.handle(.linkConnected(screen: Self.screen, keyboardShown: false, hardwareKeyboard: false), now: .zero)) == [slide])
        #expect(animations(machine.handle(.oskAnimation(slide), now: .milliseconds(100))).isEmpty)
        #expect(animations(machine.handle(.oskAnimation(Self.atOnce), now: .milliseconds(200))) == [Self.atOnce])
        #expect(animations(machine.handle(.oskAnimation(Self.atOnce), now: .milliseconds(300))).isEmpty)
        _ = machine.handle(.linkLost, now: .milliseconds(400))
        #expect(animations(machine.handle(.oskAnimation(slide), now: .milliseconds(500))).isEmpty, "no link")
        #expect(animations(machine.handle(.linkConnected(screen: Self.screen, keyboardShown: false, hardwareKeyboard: false), now: .milliseconds(600))) == [slide])
    }

    @Test func eachBackendSaysWhatItKnows() {
        for compositor in [Compositor.sway, .mir, .phoc] {
            #expect(Squeekboard(setting: nil).animation(on: compositor) == Self.atOnce)
            #expect(Wvkbd(options: BackendOptions()).animation(on: compositor) == Self.atOnce)
        }
        for compositor in [Compositor.kwin, .other("labwc"), nil] {
            #expect(Squeekboard(setting: nil).animation(on: compositor) == nil, "\(String(describing: compositor)) may slide it in")
            #expect(Wvkbd(options: BackendOptions()).animation(on: compositor) == nil)
        }
        #expect(KWinVirtualKeyboard(log: BridgeLog()).animation(on: .kwin) == nil)
        // GNOME Shell 43's keyboard.js: KEYBOARD_ANIMATION_TIME 150, EASE_OUT_QUAD.
        #expect(
            GnomeShellKeyboard(log: BridgeLog()).animation(on: .gnomeShell)
                == Animation(duration: .milliseconds(150), curve: .easeOut))
    }
}
