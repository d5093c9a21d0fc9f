import InsetCore

/// Writes a JSON object straight into bytes, field by field, with no value tree
/// in between: the writer for the two messages a keyboard change sends to every
/// client (the notification and the adjustment).
///
/// Why beside `JSONValue`: with 1000 clients a keyboard change encodes 1000
/// adjustments, and building a `JSONObject` for each (nine small arrays, the keys
/// as `String`s, sorted on every write) was a fifth of the daemon's time. Here
/// the keys are static and the caller gives them already in Foundation's
/// `.sortedKeys` order (debug builds check it); the bytes are the same as
/// `jsonLine(message.jsonFields())`, which the tests compare on random messages.
struct JSONStreamWriter {
    var bytes: [UInt8] = []
    private var atFirstField = true
    #if DEBUG
    private var previousKey: String?
    #endif

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// Writes `{`, the fields `body` writes, `}`.
    mutating func object(_ body: (inout JSONStreamWriter) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        let outer = atFirstField
        atFirstField = true
        #if DEBUG
        let outerKey = previousKey
        previousKey = nil
        #endif
        body(&self)
        atFirstField = outer
        #if DEBUG
        previousKey = outerKey
        #endif
        bytes.append(UInt8(ascii: "}"))
    }

    mutating func field(_ key: StaticString, _ value: Double) {
        write(key)
        JSONValue.write(value, to: &bytes)
    }

    mutating func field(_ key: StaticString, _ value: Bool) {
        write(key)
        bytes += (value ? "true" : "false").utf8
    }

    mutating func field(_ key: StaticString, _ value: String) {
        write(key)
        JSONValue.write(value, to: &bytes)
    }

    /// A field whose value is the object `body` writes.
    mutating func field(_ key: StaticString, object body: (inout JSONStreamWriter) -> Void) {
        write(key)
        object(body)
    }

    /// `,"key":` (no comma before an object's first field).
    private mutating func write(_ key: StaticString) {
        #if DEBUG
        let name = key.description
        assert(previousKey.map { JSONValue.foundationOrder($0, name) } ?? true, "\(name) is out of .sortedKeys order")
        previousKey = name
        #endif
        if !atFirstField { bytes.append(UInt8(ascii: ",")) }
        atFirstField = false
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes += $0 }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }
}

extension JSONStreamWriter {
    mutating func field(_ key: StaticString, _ rect: Rect) {
        field(key) { $0.field("height", rect.height); $0.field("width", rect.width); $0.field("x", rect.minX); $0.field("y", rect.minY) }
    }

    mutating func field(_ key: StaticString, _ insets: EdgeInsets) {
        field(key) {
            $0.field("bottom", insets.bottom); $0.field("left", insets.left); $0.field("right", insets.right)
            $0.field("top", insets.top)
        }
    }

    mutating func field(_ key: StaticString, _ size: Size) {
        field(key) { $0.field("height", size.height); $0.field("width", size.width) }
    }

    mutating func field(_ key: StaticString, _ point: Point) {
        field(key) { $0.field("x", point.x); $0.field("y", point.y) }
    }

    /// The animation's own fields, for an object that carries them inline.
    mutating func fields(of animation: Animation) {
        field("curve", animation.curve.rawValue)
        field("duration", animation.duration.seconds)
    }
}

extension DaemonMessage {
    /// The keyboard notification's line, as `jsonLine(jsonFields())` writes it.
    static func keyboardLine(_ note: KeyboardNotification, isLocal: Bool) -> [UInt8] {
        var writer = JSONStreamWriter(capacity: 320)
        writer.object {
            $0.field("begin", note.beginFrame)
            $0.fields(of: note.animation)
            $0.field("end", note.endFrame)
            $0.field("isLocal", isLocal)
            $0.field("phase", note.phase.rawValue)
            $0.field("type", "keyboard")
        }
        writer.bytes.append(UInt8(ascii: "\n"))
        return writer.bytes
    }

    /// The adjustment's line, as `jsonLine(jsonFields())` writes it.
    static func adjustmentLine(view: String, _ a: ViewAdjustment) -> [UInt8] {
        var writer = JSONStreamWriter(capacity: 512)
        writer.object {
            $0.field("additionalBottomInset", a.additionalBottomInset)
            $0.field("adjustedContentInset", a.adjustedContentInset)
            $0.field("alwaysBounceVertical", a.alwaysBounceVertical)
            $0.field("animation") { $0.fields(of: a.animation) }
            $0.field("contentInset", a.contentInset)
            $0.field("contentOffset", a.contentOffset)
            $0.field("contentSize", a.contentSize)
            $0.field("indicatorInsets", a.indicatorInsets)
            $0.field("type", "adjustment")
            $0.field("view", view)
        }
        writer.bytes.append(UInt8(ascii: "\n"))
        return writer.bytes
    }
}
