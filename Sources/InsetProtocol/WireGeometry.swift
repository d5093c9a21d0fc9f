import InsetCore

/// Geometry as it travels on the wire: flat, named fields in points, so a client
/// in any language reads `{"x":0,"y":508,"width":390,"height":336}` directly.
public struct WireRect: Codable, Hashable, Sendable {
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
}

public struct WireSize: Codable, Hashable, Sendable {
    public var width: Double
    public var height: Double

    public init(_ size: Size) {
        width = size.width
        height = size.height
    }

    public var size: Size { Size(width: width, height: height) }
}

public struct WirePoint: Codable, Hashable, Sendable {
    public var x: Double
    public var y: Double

    public init(_ point: Point) {
        x = point.x
        y = point.y
    }

    public var point: Point { Point(x: x, y: y) }
}

public struct WireInsets: Codable, Hashable, Sendable {
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
}

/// How to animate, in seconds, on the wire.
public struct WireAnimation: Codable, Hashable, Sendable {
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
