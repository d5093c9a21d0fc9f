// The Insetd module against the real insetd (scripts/qt-test starts it with a
// 800x800 screen whose keyboard is 300 pt tall: frame 0,500 800x300).
//
// The window is at screen 0,100, 400x600: screen 100..700, of which the
// keyboard covers 500..700, 200 pt. The Flickable fills it and has its own
// bottomMargin 10 (insetd's contentInset.bottom): insetd's inset is 200, the
// margin becomes 200 + 10 = 210. The field at content y 520..560 must end
// above 600 - 210 = 390 from the view's top: contentY 560 - 390 = 170.
import QtQuick
import QtQuick.Controls
import QtQuick.Window
import QtTest
import Insetd

TestCase {
    id: testCase
    name: "Insetd"
    when: windowShown

    Window {
        id: win
        x: 0; y: 100; width: 400; height: 600
        visible: true
        Flickable {
            id: flick
            objectName: "form"
            anchors.fill: parent
            contentHeight: 1500
            bottomMargin: 10
            Insetd.follow: true
            TextField { id: topField; y: 20; width: 300; height: 40 }
            TextField { id: bottomField; y: 520; width: 300; height: 40 }
        }
        // Not a text input, outside the Flickable: focusing it blurs the field.
        Button { id: outside; x: 320; y: 10; width: 60; height: 30; text: "ok" }
        // A plain item: Insetd.bottomInset is how much of it the keyboard covers.
        Item { id: probe; anchors.fill: parent }
        // Followed only once its field has the focus (test_5); the same
        // geometry as `flick`, so the same inset (200), margin and offset.
        Flickable {
            id: late
            objectName: "late"
            anchors.fill: parent
            contentHeight: 1500
            bottomMargin: 10
            Insetd.follow: false
            TextField { id: lateField; y: 520; width: 300; height: 40 }
        }
    }

    function test_1_connected() {
        tryCompare(flick.Insetd.keyboard, "connected", true, 5000)
        compare(win.y, 100)
        compare(flick.Insetd.view, "form-1")
        compare(flick.Insetd.keyboard.visible, false)
        compare(flick.bottomMargin, 10)
        win.requestActivate()
        tryCompare(win, "active", true, 3000)
    }

    function test_2_focus_near_the_bottom() {
        bottomField.forceActiveFocus()
        const keyboard = flick.Insetd.keyboard
        tryCompare(keyboard, "visible", true, 3000)
        tryCompare(flick, "bottomMargin", 210, 3000)
        tryCompare(flick, "contentY", 170, 3000)
        compare(flick.Insetd.bottomInset, 200)
        compare(keyboard.screenRectangle, Qt.rect(0, 500, 800, 300))
        compare(keyboard.rectangle, Qt.rect(0, 400, 400, 200))
        // Placed where Qt says (not Wayland: insetd has no cause to move it).
        compare(keyboard.window, Qt.rect(win.x, 100, 400, 600))
        compare(keyboard.animationDuration, 250)
        compare(keyboard.easing.type, Easing.BezierSpline)
        compare(keyboard.hardwareKeyboard, false)
        compare(probe.Insetd.bottomInset, 200)
        compare(probe.Insetd.keyboard, keyboard)
    }

    // The field at the top, 20..60, is above the visible part (170..560):
    // the least movement shows it, contentY 20; the keyboard stays.
    function test_3_another_field_keeps_the_keyboard() {
        topField.forceActiveFocus()
        tryCompare(flick, "contentY", 20, 3000)
        compare(flick.Insetd.keyboard.visible, true)
        compare(flick.bottomMargin, 210)
    }

    function test_4_blur_restores_exactly() {
        outside.forceActiveFocus()
        tryCompare(flick.Insetd.keyboard, "visible", false, 3000)
        tryCompare(flick, "bottomMargin", 10, 3000)
        compare(flick.Insetd.bottomInset, 0)
        // The offset stays where insetd put it (legal: 1500 + 10 - 600 = 910 at most).
        compare(flick.contentY, 20)
        compare(flick.Insetd.keyboard.rectangle, Qt.rect(0, 0, 0, 0))
        compare(probe.Insetd.bottomInset, 0)
    }

    // A Flickable followed while a field inside it already has the focus: the
    // focus is reported on its new view (the second: late-2) at once.
    function test_5_follow_around_a_focused_field() {
        lateField.forceActiveFocus()
        wait(300)
        compare(late.Insetd.keyboard.visible, false)
        compare(late.bottomMargin, 10)
        late.Insetd.follow = true
        compare(late.Insetd.view, "late-2")
        tryCompare(late.Insetd.keyboard, "visible", true, 3000)
        tryCompare(late, "bottomMargin", 210, 3000)
        tryCompare(late, "contentY", 170, 3000)
        // insetd pads every view the keyboard covers: `flick` too, 200 + 10.
        tryCompare(flick, "bottomMargin", 210, 3000)
        outside.forceActiveFocus()
        tryCompare(late, "bottomMargin", 10, 3000)
        tryCompare(flick, "bottomMargin", 10, 3000)
        late.Insetd.follow = false
        compare(late.Insetd.view, "")
    }

    // A compositor shrinks the window while the keyboard is up (KWin to end it
    // at maliit's top, which may be lower than insetd's frame: maliit 288 tall
    // under a configured 324). Shrunk to 400x450 (screen 100..550), insetd's
    // keyboard (500..800) would cover 50 of it; the window was shrunk for the
    // keyboard, so none: rectangle empty, probe 0, the margin the Flickable's
    // own 10 (insetd's 50 + 10 held back), the field still at insetd's 170
    // (it ends at 560 - 170 = 390, above 450 - 10). Back to 600 with the
    // keyboard still up: a compositor gives a shrunk window its room back when
    // the keyboard leaves, so none until insetd says more of the keyboard;
    // it says nothing, and after 300 ms the keyboard covers its 200 again.
    // A new width is a turn, not a shrink: 300x450 is covered 500..550, in the
    // window 0,400 300x50. And a window that was 450 tall before the keyboard
    // came up is covered by it as usual: 50.
    function test_6_shrunk_for_the_keyboard() {
        bottomField.forceActiveFocus()
        const keyboard = flick.Insetd.keyboard
        tryCompare(keyboard, "visible", true, 3000)
        tryCompare(flick, "bottomMargin", 210, 3000)
        win.height = 450
        compare(keyboard.rectangle, Qt.rect(0, 0, 0, 0))
        tryCompare(probe.Insetd, "bottomInset", 0, 1000)
        tryCompare(flick, "bottomMargin", 10, 1000)
        // insetd hears of the 450 window and says 50: still held back.
        wait(300)
        compare(flick.bottomMargin, 10)
        tryCompare(flick, "contentY", 170, 3000)
        compare(keyboard.rectangle, Qt.rect(0, 0, 0, 0))
        win.height = 600
        compare(keyboard.rectangle, Qt.rect(0, 0, 0, 0))
        compare(probe.Insetd.bottomInset, 0)
        wait(150)
        compare(flick.bottomMargin, 10)
        tryCompare(keyboard, "rectangle", Qt.rect(0, 400, 400, 200), 1000)
        tryCompare(probe.Insetd, "bottomInset", 200, 1000)
        tryCompare(flick, "bottomMargin", 210, 3000)
        win.width = 300
        win.height = 450
        compare(keyboard.rectangle, Qt.rect(0, 400, 300, 50))
        tryCompare(probe.Insetd, "bottomInset", 50, 1000)
        tryCompare(flick, "bottomMargin", 60, 3000)
        outside.forceActiveFocus()
        tryCompare(keyboard, "visible", false, 3000)
        tryCompare(flick, "bottomMargin", 10, 3000)
        win.width = 400
        bottomField.forceActiveFocus()
        tryCompare(keyboard, "visible", true, 3000)
        compare(keyboard.rectangle, Qt.rect(0, 400, 400, 50))
        tryCompare(probe.Insetd, "bottomInset", 50, 1000)
        tryCompare(flick, "bottomMargin", 60, 3000)
        outside.forceActiveFocus()
        tryCompare(keyboard, "visible", false, 3000)
        win.height = 600
    }

    // A compositor may shrink the window before insetd says the keyboard is up
    // (sway makes room as squeekboard's surface maps; insetd hears from its
    // bridge after). 400 tall at screen 100 ends at 500, the keyboard's top:
    // covered 0. Grown back to 600 while the keyboard is up (the OSK ended,
    // its zone gone), it covers none until insetd says more of the keyboard:
    // here nothing, so after 300 ms its 200 again, and the margin 210.
    function test_7_grown_into_the_keyboard_before_insetd_says() {
        win.height = 400
        tryCompare(win, "height", 400, 1000)
        wait(100)
        bottomField.forceActiveFocus()
        const keyboard = flick.Insetd.keyboard
        tryCompare(keyboard, "visible", true, 3000)
        compare(keyboard.rectangle, Qt.rect(0, 0, 0, 0))
        tryCompare(flick, "bottomMargin", 10, 3000)
        win.height = 600
        compare(keyboard.rectangle, Qt.rect(0, 0, 0, 0))
        compare(probe.Insetd.bottomInset, 0)
        wait(150)
        compare(flick.bottomMargin, 10)
        tryCompare(keyboard, "rectangle", Qt.rect(0, 400, 400, 200), 1000)
        tryCompare(flick, "bottomMargin", 210, 3000)
        outside.forceActiveFocus()
        tryCompare(keyboard, "visible", false, 3000)
        tryCompare(flick, "bottomMargin", 10, 3000)
    }

    // The same with content that just fills the view (600 in 600, as Mir's
    // maximized form): insetd's answer for the grown-back window (margin 210,
    // contentY 560 - (600 - 210) = 170) comes while the window is still clear
    // of the keyboard, so it is cut to margin 10 and the offsets that margin
    // allows: at most 600 + 10 - 600 = 10. When the keyboard covers the window
    // again the margin goes back to 210 and the field with it: contentY 170.
    // A scroll of the user's in between stays (contentY 5 is not the module's).
    function test_8_grown_back_with_short_content_scrolls_the_field_back() {
        flick.contentHeight = 600
        for (const scrolled of [false, true]) {
            win.height = 400
            tryCompare(win, "height", 400, 1000)
            wait(100)
            bottomField.forceActiveFocus()
            const keyboard = flick.Insetd.keyboard
            tryCompare(keyboard, "visible", true, 3000)
            tryCompare(flick, "contentY", 170, 3000)
            win.height = 600
            tryCompare(flick, "contentY", 10, 1000)
            compare(flick.bottomMargin, 10)
            if (scrolled)
                flick.contentY = 5
            tryCompare(keyboard, "rectangle", Qt.rect(0, 400, 400, 200), 1000)
            tryCompare(flick, "bottomMargin", 210, 3000)
            compare(flick.contentY, scrolled ? 5 : 170)
            outside.forceActiveFocus()
            tryCompare(keyboard, "visible", false, 3000)
            tryCompare(flick, "bottomMargin", 10, 3000)
        }
        flick.contentHeight = 1500
    }
}
