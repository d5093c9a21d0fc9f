// insetd restarts under a following app (scripts/qt-test stops it once this
// test has its inset, and starts it again): the Flickable gets its own margin
// back while insetd is away, and the inset again once the module has
// reconnected and restated its view and focus. Same numbers as tst_insetd.qml.
import QtQuick
import QtQuick.Controls
import QtQuick.Window
import QtTest
import Insetd

TestCase {
    name: "Restart"
    when: windowShown

    Window {
        id: win
        x: 0; y: 100; width: 400; height: 600
        visible: true
        Flickable {
            id: flick
            anchors.fill: parent
            contentHeight: 1500
            bottomMargin: 10
            Insetd.follow: true
            TextField { id: field; y: 520; width: 300; height: 40 }
        }
    }

    function test_restart() {
        const keyboard = flick.Insetd.keyboard
        tryCompare(keyboard, "connected", true, 5000)
        win.requestActivate()
        tryCompare(win, "active", true, 3000)
        field.forceActiveFocus()
        tryCompare(flick, "bottomMargin", 210, 3000)
        tryCompare(flick, "contentY", 170, 3000)
        verify(testHelper.mark("inset-applied"))
        // insetd stops: no keyboard is known, the app's own margin is back.
        tryCompare(keyboard, "connected", false, 10000)
        compare(keyboard.visible, false)
        compare(flick.bottomMargin, 10)
        compare(flick.Insetd.bottomInset, 0)
        verify(field.activeFocus)
        // insetd is back: view and focus restated by libinsetd, the inset again.
        tryCompare(keyboard, "connected", true, 10000)
        tryCompare(keyboard, "visible", true, 3000)
        tryCompare(flick, "bottomMargin", 210, 3000)
        compare(flick.Insetd.bottomInset, 200)
    }
}
