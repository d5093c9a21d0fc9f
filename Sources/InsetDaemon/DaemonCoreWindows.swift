import InsetCore
import InsetProtocol

/// A client's window as it said (`window`): its viewport on the screen, and
/// for a client that cannot know where its window is, that window's size;
/// and where insetd placed it.
struct ClientWindow: Equatable {
    /// Where the client's views' coordinates start on the screen.
    var frame: Rect
    /// The window the compositor places, for a client that took it to be at the
    /// screen's top-left because it cannot know (Wayland); nil: `frame` is
    /// where the client knows it is.
    var toplevel: Size?
    /// The origin the client's views are moved by now: `frame`'s, or where the
    /// compositor draws the window (`placedOrigin`).
    var placedAt = Point(x: 0, y: 0)
    /// Where the client was last told the compositor draws the window
    /// (`placed`); 0,0: at the top-left, as it took it to be.
    var toldDrawnAt = Point(x: 0, y: 0)
}

/// Where each client's views are on the screen: the origin of its window, as
/// the client says, or as the compositor draws it. Wayland tells no client
/// where its window is, so a client that cannot know takes it to be at the
/// screen's top-left and says its size (`toplevel`); an OSK bridge reads the
/// compositor's focused window (GNOME Shell's top bar puts a maximized window
/// at y 32), and the client holding the focus is placed there when the sizes
/// agree.
extension DaemonCore {
    /// Two sizes within a point of each other are the same window's (a
    /// compositor's logical size rounded one way, the toolkit's the other).
    private static func sameSize(_ a: Size, _ b: Size) -> Bool {
        abs(a.width - b.width) <= 1 && abs(a.height - b.height) <= 1
    }

    /// The origin `client`'s views are moved by: its window's, plus where the
    /// compositor draws the focused window when that window is this client's
    /// (it holds the focus, it does not know its place, and the sizes agree).
    func placedOrigin(of client: ClientID) -> Point {
        guard let window = windows[client] else { return Point(x: 0, y: 0) }
        var origin = window.frame.origin
        if let toplevel = window.toplevel, client == focusHolder, let drawn = compositorFocus?.frame,
            Self.sameSize(drawn.size, toplevel)
        {
            origin.x += drawn.minX
            origin.y += drawn.minY
        }
        return origin
    }

    /// `client` said where its window is (`window`): what insetd placed before
    /// stays until `place` moves the views from there.
    func said(_ frame: Rect, toplevel: Size?, by client: ClientID) {
        var window = windows[client] ?? ClientWindow(frame: frame)
        window.frame = frame
        window.toplevel = toplevel
        windows[client] = window
        place(client)
    }

    /// Moves `client`'s views to where its window is placed now, each by an
    /// update that keeps the offset insetd published, so the focused field
    /// stays in view against the keyboard's new overlap.
    func place(_ client: ClientID) {
        guard let old = windows[client]?.placedAt else { return }
        let new = placedOrigin(of: client)
        windows[client]?.placedAt = new
        tellPlacement(to: client)
        let dx = new.x - old.x, dy = new.y - old.y
        guard dx != 0 || dy != 0 else { return }
        for id in pipeline.engine.viewIDs where id.client == client {
            guard var description = pipeline.engine.description(of: id) else { continue }
            description.frame = description.frame.offsetBy(dx: dx, dy: dy)
            description.contentOffset = pipeline.engine.adjustment(of: id)?.contentOffset ?? description.contentOffset
            feed(.update(id, description), from: .client(client))
        }
    }

    /// A client that cannot know where its window is hears where insetd
    /// measures it whenever that changes, to clip what it shows of the
    /// keyboard to its window as insetd sees it (insetd.js cuts padding to what
    /// the keyboard covers of the viewport it measures itself).
    private func tellPlacement(to client: ClientID) {
        guard let window = windows[client] else { return }
        let origin = window.placedAt
        let drawn = window.toplevel == nil ? Point(x: 0, y: 0) : Point(x: origin.x - window.frame.minX, y: origin.y - window.frame.minY)
        guard drawn != window.toldDrawnAt else { return }
        windows[client]?.toldDrawnAt = drawn
        logger.debug(
            "client's window placed where the compositor draws it",
            metadata: ["client": "\(client)", "origin": "\(formatPoints(drawn.x)),\(formatPoints(drawn.y))"])
        outbox.send(.placed(origin: drawn), to: client)
    }

    /// `client` said `focus`: its window is the compositor's focused one from
    /// now on, and the one that held the focus before is back where it says.
    func holdFocus(_ client: ClientID) {
        guard focusHolder != client else { return }
        let previous = focusHolder
        focusHolder = client
        if let previous { place(previous) }
        place(client)
    }

    /// A bridge read the compositor's focused window (nil: none, or it cannot
    /// tell); the client holding the focus moves with it. The latest reading
    /// of any bridge holds (one compositor, one focused window).
    func compositorFocused(_ frame: Rect?, by bridge: ClientID) {
        if let frame {
            compositorFocus = (frame, bridge)
        } else if compositorFocus?.bridge == bridge {
            compositorFocus = nil
        }
        if let focusHolder { place(focusHolder) }
    }

    /// A client left: its window is forgotten; a bridge that read the
    /// compositor's focused window takes that reading with it.
    func windowClientLeft(_ id: ClientID) {
        windows[id] = nil
        if focusHolder == id { focusHolder = nil }
        if compositorFocus?.bridge == id {
            compositorFocus = nil
            if let focusHolder { place(focusHolder) }
        }
    }
}
