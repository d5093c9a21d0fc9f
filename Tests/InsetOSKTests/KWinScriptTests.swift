import DBus
import InsetCore
import Testing

@testable import InsetOSK

/// What insetd's KWin script sends is a stranger's word until read: each
/// case below is a call as it would arrive on the bus, and what the kwin
/// backend takes from it, derived by hand from `KWinScript.read`'s rules
/// (four finite numbers within 100000, sizes not negative, 0 x 0: no window).
@Suite struct KWinScriptTests {
    static func call(_ arguments: [DBusValue], member: String = "FocusedWindow", interface: String? = KWinScript.interface)
        -> DBusMethodCall
    {
        DBusMethodCall(sender: ":1.0", interface: interface, member: member, arguments: arguments)
    }

    static func numbers(_ values: Double...) -> [DBusValue] { values.map { .number($0) } }

    /// The floating Chromium window KWin moved up to end at maliit's top
    /// (672 on the 540x960 output): 520x390 at 10,282.
    @Test func aWindowIsItsFrame() {
        #expect(KWinScript.read(Self.call(Self.numbers(10, 282, 520, 390))) == .focusedWindow(Rect(x: 10, y: 282, width: 520, height: 390)))
        // A scaled output gives fractions (callDBus sends those as doubles), kept as they are.
        #expect(KWinScript.read(Self.call(Self.numbers(0, 26.5, 432.8, 768))) == .focusedWindow(Rect(x: 0, y: 26.5, width: 432.8, height: 768)))
        // Off the output's top-left (a window on the left of its output, dragged up): still a window.
        #expect(KWinScript.read(Self.call(Self.numbers(-40, -12, 520, 390))) == .focusedWindow(Rect(x: -40, y: -12, width: 520, height: 390)))
    }

    @Test func zerosAreNoWindow() {
        #expect(KWinScript.read(Self.call(Self.numbers(0, 0, 0, 0))) == .focusedWindow(nil))
        #expect(KWinScript.read(Self.call(Self.numbers(10, 282, 520, 0))) == .focusedWindow(nil))
    }

    @Test func wrongTypesAndCountsAreRefused() {
        let refusals: [[DBusValue]] = [
            Self.numbers(10, 282, 520),
            Self.numbers(10, 282, 520, 390, 1),
            [.number(10), .string("282"), .number(520), .number(390)],
            [.number(10), .number(282), .bool(true), .number(390)],
            [.other("a"), .number(282), .number(520), .number(390)],
            [],
        ]
        for arguments in refusals {
            guard case .refused = KWinScript.read(Self.call(arguments)) else {
                Issue.record("taken: \(arguments)")
                continue
            }
        }
    }

    @Test func absurdNumbersAreRefused() {
        for numbers in [
            Self.numbers(.nan, 282, 520, 390), Self.numbers(10, .infinity, 520, 390), Self.numbers(10, 282, 100_001, 390),
            Self.numbers(10, -200_000, 520, 390), Self.numbers(10, 282, -520, 390), Self.numbers(10, 282, 520, -1),
        ] {
            guard case .refused = KWinScript.read(Self.call(numbers)) else {
                Issue.record("taken: \(numbers)")
                continue
            }
        }
    }

    /// KWin placed its input panel (the window moved out of its way was
    /// reported just before): no arguments, or it is not the script's.
    @Test func panelPlacedTakesNoArguments() {
        #expect(KWinScript.read(Self.call([], member: "PanelPlaced")) == .panelPlaced)
        #expect(KWinScript.read(Self.call(Self.numbers(1), member: "PanelPlaced")) == .refused("PanelPlaced takes no arguments, got (1.0)"))
    }

    @Test func otherMethodsAndInterfacesAreRefused() {
        #expect(KWinScript.read(Self.call(Self.numbers(10, 282, 520, 390), member: "Frame")) == .refused("unknown method Frame"))
        #expect(
            KWinScript.read(Self.call(Self.numbers(10, 282, 520, 390), interface: "org.example.Other"))
                == .refused("unknown interface org.example.Other"))
    }

    /// The script calls back the unique name it is given, at our path and
    /// interface, and follows the focused window's frame changes.
    @Test func theScriptCallsBackTheGivenName() {
        let source = KWinScript.source(callingBack: ":1.42")
        #expect(source.contains("callDBus(\":1.42\", \"/org/insetd/KWin1\", \"org.insetd.KWin1\", \"FocusedWindow\""))
        #expect(source.contains("workspace.clientActivated.connect(follow)"))
        #expect(source.contains("frameGeometryChanged.connect(report)"))
        // The panel is known by its class (5.27 has no `inputMethod` property).
        #expect(source.contains("if (/^KWin::InputPanelV1Window\\(/.test(String(w)))"))
    }
}

/// The window a compositor moved out of the keyboard's way comes back when
/// the keyboard goes: relayed while insetd still shows its keyboard, insetd
/// would measure the window under it again (`BridgeMachine.holdsWindow`).
@Suite struct BridgeWindowHoldTests {
    @Test func heldOnlyWhileAHideIsOnItsWay() {
        var machine = BridgeMachine(name: "kwin")
        _ = machine.handle(.linkConnected(screen: Size(width: 540, height: 960), keyboardShown: false, hardwareKeyboard: false), now: .milliseconds(0))
        _ = machine.handle(.oskAttached(name: "kwin", observable: true, configured: nil), now: .milliseconds(0))
        _ = machine.handle(.oskObserved(visible: false), now: .milliseconds(0))
        #expect(!machine.holdsWindow)
        // A show on its way: KWin moves the window before it says `visible`,
        // and that move is relayed at once.
        _ = machine.handle(.keyboard(shown: true), now: .milliseconds(1000))
        #expect(!machine.holdsWindow)
        #expect(!machine.hideMayBeUnderway)
        _ = machine.handle(.oskObserved(visible: true), now: .milliseconds(1120))
        #expect(!machine.holdsWindow)
        // Shown and seen up: a window moving now may be KWin's move back at a
        // hide the machine has not heard of (the bridge asks the OSK then).
        #expect(machine.hideMayBeUnderway)
        // The user's hide at 3000 ms (KWin puts the window back): held until
        // insetd hides its keyboard too.
        _ = machine.handle(.oskObserved(visible: false), now: .milliseconds(3000))
        #expect(machine.holdsWindow)
        _ = machine.handle(.keyboard(shown: false), now: .milliseconds(3260))
        #expect(!machine.holdsWindow)
        #expect(!machine.hideMayBeUnderway)
    }

    @Test func aHardwareKeyboardsBarHoldsNothing() {
        var machine = BridgeMachine(name: "kwin")
        _ = machine.handle(.linkConnected(screen: Size(width: 540, height: 960), keyboardShown: false, hardwareKeyboard: false), now: .milliseconds(0))
        _ = machine.handle(.oskAttached(name: "kwin", observable: true, configured: nil), now: .milliseconds(0))
        _ = machine.handle(.oskObserved(visible: false), now: .milliseconds(0))
        _ = machine.handle(.keyboard(shown: true), now: .milliseconds(1000))
        _ = machine.handle(.oskObserved(visible: true), now: .milliseconds(1100))
        _ = machine.handle(.hardwareKeyboard(usable: true), now: .milliseconds(2000))
        _ = machine.handle(.oskObserved(visible: false), now: .milliseconds(2010))
        #expect(!machine.holdsWindow)
    }
}
