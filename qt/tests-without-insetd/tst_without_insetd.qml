// No insetd at all (scripts/qt-test points INSETD_SOCKET at nothing): the app
// works, nothing blocks, no inset, the Flickable keeps its own margin.
import QtQuick
import QtQuick.Controls
import QtTest
import Insetd

TestCase {
    name: "WithoutInsetd"
    when: windowShown
    width: 400
    height: 600

    Flickable {
        id: flick
        anchors.fill: parent
        contentHeight: 1500
        bottomMargin: 10
        Insetd.follow: true
        TextField { id: field; y: 520; width: 300; height: 40 }
    }
    Timer { id: ticker; interval: 10; repeat: true; running: true; property int ticks: 0; onTriggered: ticks++ }

    function test_focus_without_insetd() {
        field.forceActiveFocus()
        const before = ticker.ticks
        wait(1000)
        // The event loop ran all along (retries with back-off never block it).
        verify(ticker.ticks - before > 20, "ticks: " + (ticker.ticks - before))
        compare(flick.Insetd.keyboard.connected, false)
        compare(flick.Insetd.keyboard.visible, false)
        compare(flick.Insetd.bottomInset, 0)
        compare(flick.bottomMargin, 10)
        compare(flick.contentY, 0)
        verify(field.activeFocus)
    }
}
