import DBus
import InsetCore

/// The KWin script insetd-osk's `kwin` backend loads into KWin 5.27, and the
/// reading of what it sends back. KWin tells no client where a window is,
/// and moves a floating window up out of its keyboard's way (a window moved,
/// not covered): only KWin's scripting API can say where the focused window
/// is. The script reports and decides nothing; what it sends is validated
/// here as a stranger's word (types, finite numbers, sizes that fit a screen).
enum KWinScript {
    /// Where insetd-osk answers the script's calls on its own bus connection.
    static let path = "/org/insetd/KWin1"
    static let interface = "org.insetd.KWin1"
    /// The plugin name KWin keeps the script under (one per session).
    static let pluginName = "insetd-osk"
    /// The largest coordinate or size taken as a window's (logical pixels):
    /// beyond it the report is not a window on any screen.
    static let limit = 100_000.0

    /// The script's text, calling back `busName` (insetd-osk's unique name).
    /// KWin 5.27's scripting API: `workspace.activeClient` and
    /// `clientActivated`, a window's `frameGeometry` (with any decoration)
    /// and `bufferGeometry` (its surface, with client-drawn shadows): their
    /// intersection is the client's own area, what a page's `outerHeight` is
    /// (5.27 has no `clientGeometry` property); in its output's coordinates
    /// (`clientArea(KWin.FullScreenArea, w)` is the output). `callDBus` sends
    /// a whole number as `i` and any other as `d`; zeros: no window focused.
    static func source(callingBack busName: String) -> String {
        let target = "\"\(busName)\", \"\(path)\", \"\(interface)\""
        return """
            // insetd-osk's KWin script: tells insetd-osk where the focused window is,
            // whenever that changes. Written and loaded by insetd-osk; decides nothing.
            let watched = null;
            function report() {
                const w = workspace.activeClient;
                if (!w) {
                    callDBus(\(target), "FocusedWindow", 0, 0, 0, 0);
                    return;
                }
                const f = w.frameGeometry, b = w.bufferGeometry, o = workspace.clientArea(KWin.FullScreenArea, w);
                const left = Math.max(f.x, b.x), top = Math.max(f.y, b.y);
                const right = Math.min(f.x + f.width, b.x + b.width), bottom = Math.min(f.y + f.height, b.y + b.height);
                callDBus(\(target), "FocusedWindow", left - o.x, top - o.y, right - left, bottom - top);
            }
            function follow(w) {
                try {
                    if (watched) watched.frameGeometryChanged.disconnect(report);
                } catch (e) {}
                watched = w;
                if (w) w.frameGeometryChanged.connect(report);
                report();
            }
            workspace.clientActivated.connect(follow);
            follow(workspace.activeClient);
            // The input panel (maliit) placed: KWin has just moved the focused
            // window out of its way (5.27 has no inputMethod property: the
            // panel is known by its class).
            function panelPlaced() {
                report();
                callDBus(\(target), "PanelPlaced");
            }
            function watchPanel(w) {
                if (/^KWin::InputPanelV1Window\\(/.test(String(w))) w.frameGeometryChanged.connect(panelPlaced);
            }
            for (const w of workspace.clientList()) watchPanel(w);
            workspace.clientAdded.connect(watchPanel);

            """
    }

    /// What one call from the script says.
    enum Report: Equatable {
        /// The focused window's frame; nil: none is focused.
        case focusedWindow(Rect?)
        /// KWin placed the input panel: the window it moves out of the
        /// keyboard's way has been moved (reported just before).
        case panelPlaced
        /// Not a report: why it was refused, for one log line.
        case refused(String)
    }

    /// Reads a call from the script: `PanelPlaced()`, or `FocusedWindow(x, y, width, height)`,
    /// four finite numbers within `limit`, width and height not negative
    /// (both 0: no window). Anything else is refused, with the reason.
    static func read(_ call: DBusMethodCall) -> Report {
        guard call.interface == nil || call.interface == interface else {
            return .refused("unknown interface \(call.interface ?? "")")
        }
        if call.member == "PanelPlaced" {
            return call.arguments.isEmpty ? .panelPlaced : .refused("PanelPlaced takes no arguments, got \(describe(call.arguments))")
        }
        guard call.member == "FocusedWindow" else { return .refused("unknown method \(call.member)") }
        let numbers = call.arguments.compactMap { value -> Double? in
            if case .number(let n) = value { return n }
            return nil
        }
        guard call.arguments.count == 4, numbers.count == 4 else {
            return .refused("FocusedWindow wants 4 numbers, got \(describe(call.arguments))")
        }
        guard numbers.allSatisfy({ $0.isFinite && abs($0) <= limit }) else {
            return .refused("FocusedWindow: a number is not finite or beyond \(Int(limit)): \(describe(call.arguments))")
        }
        let (x, y, width, height) = (numbers[0], numbers[1], numbers[2], numbers[3])
        guard width >= 0, height >= 0 else { return .refused("FocusedWindow: a negative size \(width)x\(height)") }
        if width == 0 || height == 0 { return .focusedWindow(nil) }
        return .focusedWindow(Rect(x: x, y: y, width: width, height: height))
    }

    private static func describe(_ values: [DBusValue]) -> String {
        "(" + values.prefix(8).map { value in
            switch value {
            case .number(let n): "\(n)"
            case .string: "a string"
            case .bool(let b): "\(b)"
            case .other(let type): "a value of type \(type)"
            }
        }.joined(separator: ", ") + (values.count > 8 ? ", ...)" : ")")
    }
}
