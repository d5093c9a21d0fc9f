// A form app that follows insetd (docs/QT.md): a long form with fields near
// the bottom, a ListView page, rotation. Everything insetd-specific is the
// `import Insetd` line and one `Insetd.follow: true` per scroller.
//
//   cmake -S qt -B .build-qt && cmake --build .build-qt
//   QML_IMPORT_PATH=.build-qt /usr/lib/qt6/bin/qml Examples/qt/main.qml
//   (-- --focus-last: focuses the last field at start, for screenshots.
//    scripts/kiosk-test --app qt drives it unchanged, from scripts/osk/kiosk_qt.qml)
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Insetd

ApplicationWindow {
    id: window
    width: 540
    height: 960
    visible: true
    title: "insetd form"
    // Portrait or landscape content, for the rotation demo.
    property bool rotated: false
    property Item lastField

    header: ToolBar {
        RowLayout {
            anchors.fill: parent
            TabBar {
                id: tabs
                Layout.fillWidth: true
                TabButton { text: "Form" }
                TabButton { text: "List" }
            }
            ToolButton {
                text: window.rotated ? "Portrait" : "Rotate"
                // A real shell rotates the output and tells insetd; here the
                // app stands in for it.
                onClicked: {
                    window.rotated = !window.rotated
                    const w = window.rotated ? 960 : 540, h = window.rotated ? 540 : 960
                    Insetd.keyboard.rotated(w, h, 0.3)
                    window.width = w
                    window.height = h
                }
            }
        }
    }

    StackLayout {
        anchors.fill: parent
        currentIndex: tabs.currentIndex

        // Page 1: a long form in a ScrollView; its Flickable follows insetd.
        ScrollView {
            id: formScroll
            contentWidth: availableWidth
            Flickable {
                id: form
                objectName: "form"
                contentHeight: column.implicitHeight + 32
                Insetd.follow: true
                ColumnLayout {
                    id: column
                    x: 16; y: 16
                    width: form.width - 32
                    spacing: 12
                    Label { text: "Shipping address"; font.bold: true; font.pixelSize: 22 }
                    Repeater {
                        model: ["Name", "Company", "Street", "Number", "Floor", "City", "Postcode",
                                "Region", "Country", "Phone", "E-mail", "Delivery notes", "Door code"]
                        delegate: ColumnLayout {
                            Layout.fillWidth: true
                            required property string modelData
                            required property int index
                            Label { text: modelData }
                            TextField {
                                objectName: "field" + index
                                Layout.fillWidth: true
                                placeholderText: modelData
                                Component.onCompleted: if (index === 12) window.lastField = this
                            }
                        }
                    }
                    Button { text: "Send"; Layout.alignment: Qt.AlignRight }
                }
            }
        }

        // Page 2: a ListView whose rows hold fields.
        ListView {
            id: list
            objectName: "list"
            Insetd.follow: true
            model: 40
            spacing: 4
            delegate: RowLayout {
                width: ListView.view.width
                required property int index
                Label { text: "Item " + (index + 1); Layout.preferredWidth: 90; leftPadding: 16 }
                TextField { Layout.fillWidth: true; Layout.rightMargin: 16; placeholderText: "Note" }
            }
        }
    }

    // A status line pinned above the keyboard: bound to what covers the window.
    footer: Label {
        padding: 8
        text: Insetd.keyboard.connected
              ? (Insetd.keyboard.visible ? "keyboard " + Insetd.keyboard.rectangle.height + " pt over the window"
                                         : "keyboard hidden")
              : "insetd not connected"
    }

    Timer {
        running: Qt.application.arguments.indexOf("--focus-last") >= 0
        interval: 500
        onTriggered: window.lastField.forceActiveFocus()
    }

    // For scripts/qt-im-test (-- --report): where the focused field is, in
    // window coordinates, and what the form's Flickable has.
    Timer {
        running: Qt.application.arguments.indexOf("--report") >= 0
        interval: 250
        repeat: true
        onTriggered: {
            const item = window.activeFocusItem
            const r = item ? item.mapToItem(null, 0, 0, item.width, item.height) : Qt.rect(0, 0, 0, 0)
            console.log("insetd-report " + JSON.stringify({
                focused: item ? item.objectName : "", fieldTop: r.y, fieldBottom: r.y + r.height,
                windowHeight: window.height, connected: Insetd.keyboard.connected,
                keyboardVisible: Insetd.keyboard.visible, keyboardHeight: Insetd.keyboard.rectangle.height,
                bottomInset: form.Insetd.bottomInset, bottomMargin: form.bottomMargin, contentY: form.contentY }))
        }
    }
}
