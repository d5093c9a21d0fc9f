import InsetCore

/// Writes a JSON object straight into bytes, field by field, with no value tree
/// in between: the one writer of everything the daemon sends (`DaemonMessage`,
/// timeline entries) and of its trace files.
///
/// Why not a value tree (`JSONValue`): with 1000 clients a keyboard change
/// encodes 1000 adjustments, and building a `JSONObject` for each (nine small
/// arrays, the keys as `String`s, sorted on every write) was a fifth of the
/// daemon's time. Here the caller gives the keys already in Foundation's
/// `.sortedKeys` order (debug builds check it), so the bytes are the ones
/// `JSONSerialization` writes for the same object, which the tests compare.
package struct JSONStreamWriter {
    package var bytes: [UInt8] = []
    private var atFirstField = true
    #if DEBUG
    private var previousKey: String?
    #endif

    package init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// One object as one line, newline included.
    package static func line(capacity: Int = 256, _ body: (inout JSONStreamWriter) -> Void) -> [UInt8] {
        var writer = JSONStreamWriter(capacity: capacity)
        writer.object(body)
        writer.bytes.append(UInt8(ascii: "\n"))
        return writer.bytes
    }

    /// Writes `{`, the fields `body` writes, `}`.
    package mutating func object(_ body: (inout JSONStreamWriter) -> Void) {
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

    package mutating func field(_ key: StaticString, _ value: Double) {
        write(key)
        JSONValue.write(value, to: &bytes)
    }

    package mutating func field(_ key: StaticString, _ value: Bool) {
        write(key)
        bytes += (value ? "true" : "false").utf8
    }

    package mutating func field(_ key: StaticString, _ value: String) {
        write(key)
        JSONValue.write(value, to: &bytes)
    }

    /// A field whose value `body` writes (one value: an object, an array, a number...).
    package mutating func field(_ key: StaticString, value body: (inout JSONStreamWriter) -> Void) {
        write(key)
        body(&self)
    }

    /// A field whose value is the object `body` writes.
    package mutating func field(_ key: StaticString, object body: (inout JSONStreamWriter) -> Void) {
        write(key)
        object(body)
    }

    package mutating func field(_ key: StaticString, _ value: Int) {
        write(key)
        JSONValue.write(value, to: &bytes)
    }

    package mutating func field(_ key: StaticString, _ value: [String]) {
        write(key)
        array(value) { $0.string($1) }
    }

    /// A field whose value is an array, each element written by `element`.
    package mutating func field<Element>(
        _ key: StaticString, array elements: some Sequence<Element>, _ element: (inout JSONStreamWriter, Element) -> Void
    ) {
        write(key)
        array(elements, element)
    }

    /// A field whose key is only known at run time (a trace's keyboard ids);
    /// its place in the order is the caller's to keep, as for static keys.
    package mutating func field(dynamic key: String, _ body: (inout JSONStreamWriter) -> Void) {
        #if DEBUG
        checkOrder(key)
        #endif
        separate()
        JSONValue.write(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        body(&self)
    }

    /// `[`, the elements, `]`.
    package mutating func array<Element>(
        _ elements: some Sequence<Element>, _ element: (inout JSONStreamWriter, Element) -> Void
    ) {
        bytes.append(UInt8(ascii: "["))
        var first = true
        for value in elements {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            element(&self, value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// One field of an object whose fields vary too much by kind to be written
    /// in order by hand (a trace's records): a key and what writes its value.
    package typealias UnorderedField = (key: String, value: (inout JSONStreamWriter) -> Void)

    /// `fields` in Foundation's `.sortedKeys` order, whatever order they came in.
    package mutating func fields(unordered fields: [UnorderedField]) {
        for field in fields.sorted(by: { JSONValue.foundationOrder($0.key, $1.key) }) {
            self.field(dynamic: field.key, field.value)
        }
    }

    /// A value tree, written as `JSONValue` writes it (a client message's parts).
    package mutating func json(_ value: JSONValue) { value.write(to: &bytes) }

    /// A bare value, for an array's element or a dynamic field.
    package mutating func string(_ value: String) { JSONValue.write(value, to: &bytes) }
    package mutating func integer(_ value: Int) { JSONValue.write(value, to: &bytes) }
    package mutating func number(_ value: Double) { JSONValue.write(value, to: &bytes) }
    package mutating func bool(_ value: Bool) { bytes += (value ? "true" : "false").utf8 }

    /// `,"key":` (no comma before an object's first field).
    private mutating func write(_ key: StaticString) {
        #if DEBUG
        checkOrder(key.description)
        #endif
        separate()
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes += $0 }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    private mutating func separate() {
        if !atFirstField { bytes.append(UInt8(ascii: ",")) }
        atFirstField = false
    }

    #if DEBUG
    private mutating func checkOrder(_ name: String) {
        assert(previousKey.map { JSONValue.foundationOrder($0, name) } ?? true, "\(name) is out of .sortedKeys order")
        previousKey = name
    }
    #endif
}

