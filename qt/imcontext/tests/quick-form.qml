// A stock Qt Quick form for scripts/qt-im-test: a Flickable of TextFields with
// no insetd code at all. Test code: it logs every frame it draws
// (frameSwapped), what Qt.inputMethod tells it, and the text its fields get.
//   qml quick-form.qml -- [--fullscreen] [--cycle MS] [--hold]
import QtQuick
import QtQuick.Controls

ApplicationWindow {
    id: window
    width: 540
    height: 960
    visible: true
    visibility: Qt.application.arguments.indexOf("--fullscreen") >= 0 ? Window.FullScreen : Window.AutomaticVisibility
    readonly property var args: Qt.application.arguments
    function arg(name) { const i = args.indexOf(name); return i >= 0 && i + 1 < args.length ? args[i + 1] : "" }

    header: Button { id: done; objectName: "done"; text: "Done" }
    Flickable {
        id: form
        anchors.fill: parent
        contentHeight: column.implicitHeight + 20
        clip: true
        Column {
            id: column
            x: 10; y: 10
            width: parent.width - 20
            spacing: 16
            Repeater {
                id: fields
                model: 16
                TextField {
                    objectName: "field" + (index + 1)
                    width: column.width
                    height: 44
                    placeholderText: "Field " + (index + 1)
                    onTextChanged: console.log("insetd-text " + objectName + " " + text)
                }
            }
        }
    }
    readonly property Item lastField: fields.itemAt(fields.count - 1)

    Connections {
        target: Qt.inputMethod
        function log() {
            const r = Qt.inputMethod.keyboardRectangle
            console.log("insetd-im " + JSON.stringify([Date.now(), Qt.inputMethod.visible ? 1 : 0, r.x, r.y, r.width, r.height]))
        }
        function onVisibleChanged() { log() }
        function onKeyboardRectangleChanged() { log() }
    }
    onFrameSwapped: {
        cycle.running = window.arg("--cycle") !== ""   // from the first frame on: startup takes its time
        const item = window.activeFocusItem
        const field = item && item.objectName.startsWith("field") ? item.mapToItem(null, 0, 0, item.width, item.height) : null
        console.log("insetd-frame " + JSON.stringify([Date.now(), window.height, form.bottomMargin, form.contentY,
            field ? field.y + field.height : -1]))
    }
    property int step: 0
    Timer {
        id: cycle
        interval: Number(window.arg("--cycle"))
        repeat: true
        onTriggered: {
            window.step += 1
            const focus = window.step % 2 === 1
            console.log("insetd-cycle " + (focus ? "focus " : "blur ") + Date.now())
            if (focus) window.lastField.forceActiveFocus(); else done.forceActiveFocus()
        }
    }
    Timer { running: args.indexOf("--hold") >= 0; interval: 300; onTriggered: window.lastField.forceActiveFocus() }
}
