// The Qt app adapter's driver (scripts/osk/kiosk_qt.py, scripts/kiosk-test --app qt).
// It opens the app under test (Examples/qt/main.qml, the Insetd module) as
// its own window, unchanged, and speaks to the test what the kiosk page
// speaks (scripts/osk/kiosk_chromium.py's PAGE): every ~15 ms it posts a report of the
// app's state and the frames drawn since the last one, and takes the next
// command (focus the last field, another field by name, or blur). So one harness drives and
// judges Chromium and Qt alike.
//   qml kiosk_qt.qml -- URL MAIN.qml [fullscreen|maximized|tiled]
import QtQuick
import QtQuick.Window
import Insetd

// A hidden Window as the root: the qml tool runs only for a visual root, and
// this one is never shown (the app's window is the only one on the screen).
Window {
    id: driver
    visible: false
    readonly property var args: Qt.application.arguments.slice(Qt.application.arguments.indexOf("--") + 1)
    readonly property string url: args[0]
    property var app: null
    property Item field: null   // the field the test focuses (the app's last one)
    property Item form: null    // the Flickable around it, followed by the module
    property real ownMargin: 0
    property int seq: 0
    property real focusedAt: 0
    property var frames: []

    // The app's window, made by the driver so the app stays as a user wrote it.
    Component.onCompleted: {
        const component = Qt.createComponent(args[1])
        if (component.status !== Component.Ready) {
            console.log("kiosk-qt: " + component.errorString())
            Qt.exit(1)
            return
        }
        app = component.createObject(null)
        field = app.lastField
        let item = field
        while (item && item.objectName !== "form")
            item = item.parent
        form = item
        ownMargin = form.bottomMargin
        // The field is magenta, as the page's: the test finds it in a screenshot.
        field.background.color = "#ff00ff"
        field.color = "#ffffff"
        // Its background pure white, as the page's: the test tells the
        // keyboard drawn below a shrunk window from the app's own pixels.
        if (app.background)
            app.background.color = "#ffffff"
        if (args[2] === "fullscreen")
            app.visibility = Window.FullScreen
        else if (args[2] === "maximized")
            app.visibility = Window.Maximized
        poller.start()
    }

    // The field the judge follows: the focused one (kiosk-test --transitions
    // moves the focus between fields), the test's own field otherwise.
    function followed() {
        const item = app.activeFocusItem
        return item && item.objectName.startsWith("field") ? item : field
    }

    function fieldRect() {
        const item = followed()
        return item.mapToItem(null, 0, 0, item.width, item.height)
    }

    // The app's item named `name` (its fields are field0..field12).
    function named(item, name) {
        if (item.objectName === name)
            return item
        // A list property, read by index (it is not iterable).
        for (let i = 0; i < item.children.length; i++) {
            const found = named(item.children[i], name)
            if (found)
                return found
        }
        return null
    }

    // Every frame the window draws, in the record kiosk-test's judge reads
    // (scripts/osk/frame_rule.py, qt_frame).
    property Connections swaps: Connections {
        target: driver.app
        function onFrameSwapped() {
            const f = driver.fieldRect()
            driver.frames.push([Date.now(), driver.app.height, driver.form.bottomMargin,
                                driver.form.Insetd.keyboard.rectangle.height, f.y + f.height, driver.app.height, driver.app.y,
                                driver.app.width])
            if (driver.frames.length > 4000)
                driver.frames = driver.frames.slice(-2000)
        }
    }

    function placedWindow() {
        const w = form.Insetd.keyboard.window
        return { x: w.x, y: w.y, width: w.width, height: w.height }
    }

    function report() {
        const f = fieldRect()
        const k = form.Insetd.keyboard.rectangle
        const v = form.mapToItem(null, 0, 0, form.width, form.height)
        const margin = form.bottomMargin - ownMargin
        const out = {
            seq: seq, focusedAt: focusedAt, connected: form.Insetd.keyboard.connected,
            active: app.activeFocusItem === field ? "target" : (app.activeFocusItem ? app.activeFocusItem.objectName : null),
            field: { x: f.x, y: f.y, width: f.width, height: f.height },
            innerWidth: app.width, innerHeight: app.height, outerWidth: app.width, outerHeight: app.height,
            screenX: app.x, screenY: app.y, screen: { width: app.screen.width, height: app.screen.height },
            keyboard: { x: k.x, y: k.y, width: k.width, height: k.height },
            // The followed Flickable's bottom in the window: the keyboard's
            // cover of it is the most its margin may grow by.
            viewBottom: v.y + v.height,
            padding: margin, animating: Math.abs(margin - form.Insetd.bottomInset) > 0.5,
            // Where the module measures the window: Qt's word (0,0 on
            // Wayland), or where insetd placed it by the compositor's word.
            window: placedWindow(),
            scrollY: form.contentY, frames: frames, log: []
        }
        frames = []
        return out
    }

    property Timer poller: Timer {
        interval: 15
        onTriggered: {
            const request = new XMLHttpRequest()
            request.onreadystatechange = function() {
                if (request.readyState !== XMLHttpRequest.DONE)
                    return
                if (request.status === 200) {
                    const answer = JSON.parse(request.responseText)
                    if (answer.seq > driver.seq) {
                        driver.seq = answer.seq
                        if (answer.command === "focus") {
                            driver.focusedAt = Date.now()
                            driver.field.forceActiveFocus()
                        } else if (answer.command === "blur") {
                            // Focus to the form itself (no text input): the module reports a blur.
                            driver.form.forceActiveFocus()
                        } else if (answer.command && answer.command.startsWith("focus:")) {
                            const item = driver.named(driver.app.contentItem, answer.command.slice(6))
                            if (item)
                                item.forceActiveFocus()
                            else
                                console.log("kiosk-qt: no field " + answer.command.slice(6))
                        }
                    }
                }
                driver.poller.start()
            }
            request.open("POST", driver.url)
            request.send(JSON.stringify(driver.report()))
        }
    }
}
