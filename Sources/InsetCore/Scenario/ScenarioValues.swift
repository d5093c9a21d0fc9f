/// A value in a scenario line that could not be read.
public struct ScenarioValueError: Error, Hashable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// Readers for the value forms scenario lines use: `150ms`, `390x844`,
/// `x,y,w,h`, `top,left,bottom,right`, `yes|no`, enum names.
public enum ScenarioValues {
    public static func number(_ text: String) throws(ScenarioValueError) -> Double {
        guard let value = Double(text), value.isFinite else { throw ScenarioValueError("'\(text)' is not a number") }
        return value
    }

    /// `150ms`, `12.5ms`, `2s`.
    public static func duration(_ text: String) throws(ScenarioValueError) -> Duration {
        if text.hasSuffix("ms"), let ms = Double(text.dropLast(2)), ms >= 0 {
            return .nanoseconds(Int64((ms * 1_000_000).rounded()))
        }
        if text.hasSuffix("s"), let s = Double(text.dropLast()), s >= 0 { return .fromSeconds(s) }
        throw ScenarioValueError("'\(text)' is not a duration (like 100ms or 2s)")
    }

    public static func instant(_ text: String) throws(ScenarioValueError) -> Instant {
        .zero + (try duration(text))
    }

    public static func size(_ text: String) throws(ScenarioValueError) -> Size {
        let parts = text.split(separator: "x").map(String.init)
        guard parts.count == 2 else { throw ScenarioValueError("'\(text)' is not a size (like 390x844)") }
        return Size(width: try number(parts[0]), height: try number(parts[1]))
    }

    public static func rect(_ text: String) throws(ScenarioValueError) -> Rect {
        let v = try numbers(text, count: 4, form: "x,y,w,h")
        return Rect(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    public static func point(_ text: String) throws(ScenarioValueError) -> Point {
        let v = try numbers(text, count: 2, form: "x,y")
        return Point(x: v[0], y: v[1])
    }

    public static func insets(_ text: String) throws(ScenarioValueError) -> EdgeInsets {
        let v = try numbers(text, count: 4, form: "top,left,bottom,right")
        return EdgeInsets(top: v[0], left: v[1], bottom: v[2], right: v[3])
    }

    public static func flag(_ text: String) throws(ScenarioValueError) -> Bool {
        switch text {
        case "yes", "on", "true": return true
        case "no", "off", "false": return false
        default: throw ScenarioValueError("'\(text)' is not yes/no or on/off")
        }
    }

    public static func placement(_ text: String) throws(ScenarioValueError) -> KeyboardPlacement {
        guard let value = KeyboardPlacement(rawValue: text) else {
            throw ScenarioValueError("'\(text)' is not internal or external")
        }
        return value
    }

    public static func choice<T: RawRepresentable & CaseIterable>(_ text: String) throws(ScenarioValueError) -> T
    where T.RawValue == String {
        guard let value = T(rawValue: text) else {
            let options = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw ScenarioValueError("'\(text)' is not one of \(options)")
        }
        return value
    }

    public static func view(_ text: String) throws(ScenarioValueError) -> ViewID {
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw ScenarioValueError("'\(text)' is not a client/view name") }
        return ViewID(client: ClientID(parts[0]), name: parts[1])
    }

    private static func numbers(_ text: String, count: Int, form: String) throws(ScenarioValueError) -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == count else { throw ScenarioValueError("'\(text)' is not \(form)") }
        var values: [Double] = []
        for part in parts { values.append(try number(part)) }
        return values
    }
}
