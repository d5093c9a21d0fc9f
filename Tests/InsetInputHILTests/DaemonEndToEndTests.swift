import CLibevdev
import Foundation
import InputTestbed
import InsetTrace
import Testing

extension HardwareInTheLoop {
    /// insetd itself, unmodified, against emulated hardware, through its socket.
    @Suite struct DaemonEndToEndTests {
        static let phone = """
            screen: {width: 390, height: 844}
            keyboard: {portrait-height: 336, accessory-bar-height: 44}
            """

        static let form = #"{"type":"register","view":"form","frame":{"x":0,"y":0,"width":390,"height":844},"safeArea":{"top":47,"left":0,"bottom":34,"right":0},"contentSize":{"width":390,"height":2000}}"#

        /// A testbed with `devices`, insetd on a phone-sized screen, and a client
        /// whose full-screen "form" view is registered.
        static func launch(_ devices: [FixtureDevice]) async throws -> (Testbed, DaemonProcess, LineClient) {
            let testbed = Testbed()
            for device in devices { try testbed.add(device) }
            let daemon = try DaemonProcess(config: phone)
            let client = try await daemon.connect()
            client.sendLine(form)
            _ = await client.next("adjustment")
            return (testbed, daemon, client)
        }

        @Test func keyboardDetachedWhileAFieldIsFocusedBringsTheFullKeyboard() async throws {
            let (testbed, daemon, client) = try await Self.launch([FixtureCatalogue.usbKeyboard])
            client.sendLine(#"{"type":"focus","view":"form","field":{"x":0,"y":100,"width":390,"height":44}}"#)
            // A hardware keyboard is present: only the 44 pt bar, inset 44 - 34.
            let bar = await client.next("keyboard") { $0.phase == .willShow }
            #expect(bar?.keyboard?.note.endFrame.height == 44)
            #expect(bar?.keyboard?.isLocal == true)
            #expect(await client.next("adjustment")?.adjustment?.additionalBottomInset == 10)

            testbed.remove(FixtureCatalogue.usbKeyboard)
            let grow = await client.next("keyboard") { $0.phase == .willChangeFrame }
            #expect(grow?.keyboard?.note.endFrame.minY == 508)
            #expect(grow?.keyboard?.note.endFrame.height == 336)
            let full = await client.next("adjustment")
            #expect(full?.adjustment?.additionalBottomInset == 302)
            #expect(full?.adjustment?.adjustedContentInset.bottom == 336)

            try testbed.add(FixtureCatalogue.usbKeyboard.renumbered(30))
            let shrink = await client.next("keyboard") { $0.phase == .willChangeFrame }
            #expect(shrink?.keyboard?.note.endFrame.height == 44)
            #expect(await client.next("adjustment")?.adjustment?.additionalBottomInset == 10)
            #expect(await daemon.terminate() == 0)
            try Self.expectIdenticalReplay(daemon, adjustments: 4, containing: #""additionalBottomInset":302"#)
        }

        @Test func hotkeyToggleShowsAndHidesTheKeyboard() async throws {
            let (testbed, daemon, client) = try await Self.launch([FixtureCatalogue.usbKeyboard])
            testbed.tap(FixtureCatalogue.usbKeyboard, [Int32(KEY_LEFTMETA), Int32(KEY_K)])
            let shown = await client.next("keyboard") { $0.phase == .willShow }
            #expect(shown?.keyboard?.note.endFrame.height == 336, "an explicit show is the full keyboard")
            #expect(shown?.keyboard?.isLocal == false, "no field of this client has focus")
            #expect(await client.next("adjustment")?.adjustment?.additionalBottomInset == 302)
            testbed.tap(FixtureCatalogue.usbKeyboard, [Int32(KEY_LEFTMETA), Int32(KEY_K)])
            #expect(await client.next("keyboard") { $0.phase == .willHide } != nil)
            #expect(await client.next("adjustment")?.adjustment?.additionalBottomInset == 0)
            #expect(await daemon.terminate() == 0)
            try Self.expectIdenticalReplay(daemon, adjustments: 3, containing: #""additionalBottomInset":302"#)
            #expect(daemon.traceText.contains(#""command":"toggle","kind":"command","source":"hotkey""#))
        }

        @Test func foldingIntoTabletModeBringsTheFullKeyboard() async throws {
            var hinge = FixtureCatalogue.tabletSwitch
            hinge.switchesOn = []  // starts as a laptop
            let (testbed, daemon, client) = try await Self.launch([FixtureCatalogue.atKeyboard, hinge])
            client.sendLine(#"{"type":"focus","view":"form","field":{"x":0,"y":100,"width":390,"height":44}}"#)
            #expect(await client.next("adjustment")?.adjustment?.additionalBottomInset == 10)
            testbed.switchState(hinge, Int32(SW_TABLET_MODE), on: true)
            #expect(await client.next("adjustment")?.adjustment?.additionalBottomInset == 302)
            testbed.switchState(hinge, Int32(SW_TABLET_MODE), on: false)
            #expect(await client.next("adjustment")?.adjustment?.additionalBottomInset == 10)
            #expect(await daemon.terminate() == 0)
            try Self.expectIdenticalReplay(daemon, adjustments: 4, containing: #""additionalBottomInset":302"#)
            #expect(daemon.traceText.contains(#""kind":"tablet-mode","on":true"#))
        }

        @Test func sigtermSaysByeAndExitsZeroAndBadLinesDoNotHurt() async throws {
            let testbed = Testbed()
            try testbed.add(FixtureCatalogue.atKeyboard)
            let daemon = try DaemonProcess(config: Self.phone)
            let client = try await daemon.connect()
            client.sendLine("{not json")
            #expect(await client.next("error")?.protocolError?.code.rawValue == "malformed-json")
            client.sendLine(#"{"type":"devices","id":9}"#)
            let devices = await client.next("devices")
            let list = devices?.devices
            #expect(list?.count == 1)
            #expect(list?.first?.class == "keyboard-internal")
            #expect(list?.first?.name == "AT Translated Set 2 keyboard")
            #expect(await daemon.terminate() == 0)
            #expect(await client.next("bye")?.byeReason == "shutdown")
            #expect(daemon.logText.contains("stopped"))
            try Self.expectIdenticalReplay(daemon, adjustments: 0)
        }

        @Test func aSecretTypedWhileTracingLeavesNoTraceOfIt() async throws {
            let keyboard = FixtureCatalogue.usbKeyboard
            let (testbed, daemon, client) = try await Self.launch([keyboard])
            // "Hunter2", then the toggle hotkey to mark the end of the typing.
            let secret: [[Int32]] = [
                [Int32(KEY_LEFTSHIFT), Int32(KEY_H)], [Int32(KEY_U)], [Int32(KEY_N)], [Int32(KEY_T)], [Int32(KEY_E)],
                [Int32(KEY_R)], [Int32(KEY_2)],
            ]
            for keys in secret { testbed.tap(keyboard, keys) }
            testbed.tap(keyboard, [Int32(KEY_LEFTMETA), Int32(KEY_K)])
            #expect(await client.next("keyboard") { $0.phase == .willShow } != nil)
            #expect(await client.next("adjustment")?.adjustment?.additionalBottomInset == 302)
            #expect(await daemon.terminate() == 0)

            let kinds = daemon.traceText.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["kind"] as? String
            }
            // Besides the timer's ticks and the monitor announcing the start-up keyboard,
            // only the hotkey's command: the typing itself never reached the core.
            #expect(
                kinds.filter { $0 != "attached" && $0 != "tick" } == ["header", "register", "command"],
                "\(daemon.traceText)")
            #expect(kinds.filter { $0 == "attached" }.count <= 1)
            let everything = daemon.traceText + daemon.outputText + daemon.logText
            for needle in ["hunter", "Hunter", "KEY_H", "KEY_U", "KEY_2", "\"code\"", "\"value\""] {
                #expect(!everything.contains(needle), "found \(needle)")
            }
            try Self.expectIdenticalReplay(daemon, adjustments: 2)
        }

        /// The run's trace, replayed with no hardware, gives the outputs the daemon
        /// wrote, byte for byte; and the run did what the test saw it do.
        static func expectIdenticalReplay(
            _ daemon: DaemonProcess, adjustments: Int, containing needle: String? = nil, name: String = #function,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            // INSETD_SAVE_TRACES=DIR keeps each run's pair, ready to check in under
            // Tests/InsetTraceTests/Traces (see the README).
            if let directory = ProcessInfo.processInfo.environment["INSETD_SAVE_TRACES"] {
                let base = "\(directory)/\(name.prefix { $0 != "(" })"
                try daemon.traceText.write(toFile: "\(base).trace.jsonl", atomically: true, encoding: .utf8)
                try daemon.outputText.write(toFile: "\(base).output.jsonl", atomically: true, encoding: .utf8)
            }
            let comparison = try daemon.replayComparison()
            #expect(
                comparison.isIdentical, "\(comparison.report(recordedName: daemon.traceOutput) ?? "")",
                sourceLocation: sourceLocation)
            let outputs = daemon.outputText.split(separator: "\n")
            #expect(comparison.matching == outputs.count, sourceLocation: sourceLocation)
            #expect(
                outputs.filter { $0.contains(#""type":"adjustment""#) }.count == adjustments,
                "\(daemon.outputText)", sourceLocation: sourceLocation)
            if let needle { #expect(daemon.outputText.contains(needle), sourceLocation: sourceLocation) }
        }
    }
}
