import InsetCore

/// Geometry as it travels on the wire: flat, named fields in points, so a client
/// in any language reads `{"x":0,"y":508,"width":390,"height":336}` directly.
public struct WireRect: Decodable, Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(_ rect: Rect) {
        x = rect.minX
        y = rect.minY
        width = rect.width
        height = rect.height
    }

    public var rect: Rect { Rect(x: x, y: y, width: width, height: height) }

    enum CodingKeys: String, CodingKey { case x, y, width, height }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let bounded = decoder.userInfo[unboundedCoordinatesKey] == nil
        x = try c.coordinate(.x, bounded: bounded)
        y = try c.coordinate(.y, bounded: bounded)
        width = try c.coordinate(.width, nonNegative: true, bounded: bounded)
        height = try c.coordinate(.height, nonNegative: true, bounded: bounded)
    }
}

public struct WireSize: Decodable, Hashable, Sendable {
    public var width: Double
    public var height: Double

    public init(_ size: Size) {
        width = size.width
        height = size.height
    }

    public var size: Size { Size(width: width, height: height) }

    enum CodingKeys: String, CodingKey { case width, height }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let bounded = decoder.userInfo[unboundedCoordinatesKey] == nil
        width = try c.coordinate(.width, nonNegative: true, bounded: bounded)
        height = try c.coordinate(.height, nonNegative: true, bounded: bounded)
    }
}

public struct WirePoint: Decodable, Hashable, Sendable {
    public var x: Double
    public var y: Double

    public init(_ point: Point) {
        x = point.x
        y = point.y
    }

    public var point: Point { Point(x: x, y: y) }

    enum CodingKeys: String, CodingKey { case x, y }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let bounded = decoder.userInfo[unboundedCoordinatesKey] == nil
        x = try c.coordinate(.x, bounded: bounded)
        y = try c.coordinate(.y, bounded: bounded)
    }
}

public struct WireInsets: Decodable, Hashable, Sendable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(_ insets: EdgeInsets) {
        top = insets.top
        left = insets.left
        bottom = insets.bottom
        right = insets.right
    }

    public var insets: EdgeInsets { EdgeInsets(top: top, left: left, bottom: bottom, right: right) }

    enum CodingKeys: String, CodingKey { case top, left, bottom, right }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let bounded = decoder.userInfo[unboundedCoordinatesKey] == nil
        top = try c.coordinate(.top, bounded: bounded)
        left = try c.coordinate(.left, bounded: bounded)
        bottom = try c.coordinate(.bottom, bounded: bounded)
        right = try c.coordinate(.right, bounded: bounded)
    }
}

/// The largest magnitude a client's coordinate may have, in points. Screens are
/// a few thousand points across; the bound keeps every sum and difference the
/// engine forms (insets minus insets, offsets plus sizes) finite, so no client
/// value can turn into infinity on the way out.
package let coordinateLimit: Double = 1_000_000

/// Set (to anything) in a decoder's `userInfo` to lift `coordinateLimit` and the
/// rule that sizes are not negative: the daemon's own messages can carry sums
/// and differences of bounded values (an adjusted inset is safe area plus
/// content inset), which a client must accept.
let unboundedCoordinatesKey = CodingUserInfoKey(rawValue: "insetd.unboundedCoordinates")!

extension KeyedDecodingContainer {
    /// A required coordinate: finite, within ±`coordinateLimit`, and not
    /// negative where it is a size. The error names the field (its coding path).
    func coordinate(_ key: Key, nonNegative: Bool = false, bounded: Bool = true) throws -> Double {
        try checkedCoordinate(decode(Double.self, forKey: key), key, nonNegative: nonNegative, bounded: bounded)
    }

    /// `coordinate` for an optional field.
    func coordinateIfPresent(_ key: Key, nonNegative: Bool = false) throws -> Double? {
        try decodeIfPresent(Double.self, forKey: key).map { try checkedCoordinate($0, key, nonNegative: nonNegative, bounded: true) }
    }

    private func checkedCoordinate(_ value: Double, _ key: Key, nonNegative: Bool, bounded: Bool) throws -> Double {
        guard value.isFinite, !bounded || abs(value) <= coordinateLimit else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "must be a number from -1000000 to 1000000")
        }
        // The daemon's own lines (unbounded) are read as written: its reader
        // accepts every value its writer can put there.
        guard !nonNegative || !bounded || value >= 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "must not be negative (it is a size)")
        }
        return value
    }
}

/// How to animate, in seconds, on the wire.
public struct WireAnimation: Decodable, Hashable, Sendable {
    public var duration: Double
    public var curve: AnimationCurve

    public init(_ animation: Animation) {
        duration = animation.duration.seconds
        curve = animation.curve
    }
}

extension WireRect {
    var json: JSONValue {
        .object(["x": .number(x), "y": .number(y), "width": .number(width), "height": .number(height)])
    }
}

extension WireSize {
    var json: JSONValue { .object(["width": .number(width), "height": .number(height)]) }
}

extension WirePoint {
    var json: JSONValue { .object(["x": .number(x), "y": .number(y)]) }
}

extension WireInsets {
    var json: JSONValue {
        .object(["top": .number(top), "left": .number(left), "bottom": .number(bottom), "right": .number(right)])
    }
}

extension WireAnimation {
    var json: JSONValue { .object(["duration": .number(duration), "curve": .string(curve.rawValue)]) }
}
