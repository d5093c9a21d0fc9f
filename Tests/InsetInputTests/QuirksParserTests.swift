import InsetCore
import Testing

@testable import InsetInput

@Suite struct QuirksParserTests {
    @Test func sectionsMatchesAndAttributesAsWritten() throws {
        let text = """
            # leading comment

            [Surface Cover]
            MatchName=*Microsoft Surface *Cover*
            MatchDMIModalias=dmi:*svnMicrosoftCorporation:*
            AttrKeyboardIntegration=internal   # trailing comment

            [Razer]
            MatchUdevType=keyboard
            MatchBus=usb
            MatchVendor=0x1532
            MatchProduct=0x020F
            AttrKeyboardIntegration=internal
            AttrEventCodeDisable=ABS_MT_PRESSURE;ABS_PRESSURE;
            ModelTabletModeSwitchUnreliable=0

            """
        let sections = try QuirksParser.parse(text, path: "/x/30-test.quirks")
        #expect(
            sections == [
                QuirkSection(
                    name: "Surface Cover", file: "30-test.quirks",
                    match: QuirkMatch(name: "*Microsoft Surface *Cover*", dmiModalias: "dmi:*svnMicrosoftCorporation:*"),
                    attributes: [.init(key: "AttrKeyboardIntegration", value: "internal")]),
                QuirkSection(
                    name: "Razer", file: "30-test.quirks",
                    match: QuirkMatch(bus: .usb, vendor: 0x1532, product: 0x020f, udevType: .keyboard),
                    attributes: [
                        .init(key: "AttrKeyboardIntegration", value: "internal"),
                        .init(key: "AttrEventCodeDisable", value: "ABS_MT_PRESSURE;ABS_PRESSURE;"),
                        .init(key: "ModelTabletModeSwitchUnreliable", value: "0"),
                    ]),
            ])
        #expect(sections[0].label == "[Surface Cover] in 30-test.quirks")
        #expect(sections[0].keyboardIntegration == .internal)
        #expect(sections[1].tabletModeSwitchUnreliable == false)
    }

    static let valid = "[A]\nMatchBus=usb\nAttrKeyboardIntegration=internal\n"

    /// libinput's parser rules, each broken once; the message names the line.
    @Test(arguments: [
        ("[A]\nMatchBus=usb \nAttrKeyboardIntegration=internal\n", "t.quirks:2: trailing whitespace"),
        (" [A]\nMatchBus=usb\nAttrKeyboardIntegration=internal\n", "t.quirks:1: leading whitespace"),
        ("[A\nMatchBus=usb\nAttrKeyboardIntegration=internal\n", "t.quirks:1: the closing ] is missing"),
        ("MatchBus=usb\n", "t.quirks:1: expected a [Section] before 'MatchBus=usb'"),
        ("[A]\nAttrKeyboardIntegration=internal\n",
         "t.quirks:2: expected a MatchKey=value line first, found 'AttrKeyboardIntegration=internal'"),
        ("[A]\nMatchBus=usb\nAttrKeyboardIntegration=internal\nMatchName=x\n",
         "t.quirks:4: a Match line after the section's attributes"),
        ("[A]\nMatchBus=usb\n[B]\nMatchBus=usb\nModelX=1\n", "t.quirks:3: section [A] has no attributes"),
        ("[A]\nMatchBus=usb\n", "t.quirks:1: section [A] has no attributes"),
        ("[A]\nMatchBus=firewire\nAttrKeyboardIntegration=internal\n",
         "t.quirks:2: MatchBus=firewire: unknown bus (known: usb, bluetooth, ps2, rmi, i2c, spi)"),
        ("[A]\nMatchVendor=0x045e\nAttrKeyboardIntegration=internal\n",
         "t.quirks:2: MatchVendor=0x045e: expected 0x and upper-case hex digits, at most 0xFFFF"),
        ("[A]\nMatchProduct=0x10000\nAttrKeyboardIntegration=internal\n",
         "t.quirks:2: MatchProduct=0x10000: expected 0x and upper-case hex digits, at most 0xFFFF"),
        ("[A]\nMatchProduct=045E\nAttrKeyboardIntegration=internal\n",
         "t.quirks:2: MatchProduct=045E: expected 0x and upper-case hex digits, at most 0xFFFF"),
        ("[A]\nMatchDMIModalias=svnFoo\nAttrKeyboardIntegration=internal\n",
         "t.quirks:2: MatchDMIModalias=svnFoo: must start with 'dmi:'"),
        ("[A]\nMatchBus=usb\nMatchBus=usb\nAttrKeyboardIntegration=internal\n",
         "t.quirks:3: MatchBus=usb: MatchBus appears twice in the section"),
        ("[A]\nMatchUdevType=keypad\nAttrKeyboardIntegration=internal\n",
         "t.quirks:2: MatchUdevType=keypad: unknown udev type (known: mouse, pointingstick, touchpad, tablet, keyboard, joystick, tablet-pad)"),
        ("[A]\nMatchFoo=1\nAttrKeyboardIntegration=internal\n", "t.quirks:2: MatchFoo=1: unknown Match key"),
        ("[A]\nMatchBus=usb\nAttrKeyboardIntegration=builtin\n",
         "t.quirks:3: AttrKeyboardIntegration=builtin: is internal or external"),
        ("[A]\nMatchBus=usb\nModelTabletModeSwitchUnreliable=yes\n",
         "t.quirks:3: ModelTabletModeSwitchUnreliable=yes: a Model value is 0 or 1"),
        ("[A]\nMatchBus=usb\nFooBar=1\n", "t.quirks:3: FooBar=1: keys start with Match, Attr or Model"),
        ("[A]\nMatchName=\"x\"\nAttrKeyboardIntegration=internal\n", "t.quirks:2: values are not quoted"),
        ("[A]\nMatchBus=usb\nAttrX=a=b\n", "t.quirks:3: expected Key=value, found 'AttrX=a=b'"),
        ("[A]\nMatchBus=\nAttrX=a\n", "t.quirks:2: expected Key=value, found 'MatchBus='"),
        ("[A]\nmatchBus=usb\nAttrX=a\n", "t.quirks:2: unexpected line 'matchBus=usb'"),
        ("# nothing\n\n", "t.quirks: the file has no sections"),
    ])
    func libinputsRulesAreEnforced(text: String, message: String) {
        #expect(throws: QuirksFileError.self) { try QuirksParser.parse(text, path: "t.quirks") }
        do { _ = try QuirksParser.parse(text, path: "t.quirks") } catch { #expect(error.description == message) }
    }

    @Test func theValidBaseOfTheTableParses() throws {
        #expect(try QuirksParser.parse(Self.valid, path: "t.quirks").count == 1)
    }

    @Test(arguments: [
        (["10-generic-keyboard.quirks", "9-early.quirks", "50-system-asus.quirks", "30-vendor-razer.quirks"],
         ["9-early.quirks", "10-generic-keyboard.quirks", "30-vendor-razer.quirks", "50-system-asus.quirks"]),
        (["50-b.quirks", "50-a.quirks", "100-z.quirks", "5-z.quirks"],
         ["5-z.quirks", "50-a.quirks", "50-b.quirks", "100-z.quirks"]),
        (["a2.quirks", "a10.quirks", "a1.quirks"], ["a1.quirks", "a2.quirks", "a10.quirks"]),
    ])
    func filesAreReadInVersionOrder(names: [String], expected: [String]) {
        #expect(names.sorted(by: versionOrder) == expected)
    }
}
