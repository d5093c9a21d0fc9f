/// A client's request id, echoed in the reply or error it causes. Clients may
/// use numbers or strings; insetd returns exactly what it was given.
public enum RequestID: Decodable, Hashable, Sendable, CustomStringConvertible {
    case number(Int)
    case string(String)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public var description: String {
        switch self {
        case .number(let number): "\(number)"
        case .string(let string): string
        }
    }
}

/// Stable error codes; clients switch on these, never on messages.
public enum ErrorCode: String, Decodable, Hashable, Sendable, CaseIterable {
    /// The line is not a JSON object.
    case malformedJSON = "malformed-json"
    /// The object has no `type`, or one insetd does not know.
    case unknownType = "unknown-type"
    /// A field is missing or has the wrong type or value.
    case invalidField = "invalid-field"
    /// The request names a view this client has not registered.
    case unknownView = "unknown-view"
    /// The first message must be `hello`.
    case helloRequired = "hello-required"
    /// No protocol version in common.
    case unsupportedVersion = "unsupported-version"
    /// Control commands need a configured uid or group.
    case notAuthorized = "not-authorized"
    /// A line longer than the limit; the connection is closed after this error.
    case lineTooLong = "line-too-long"
    /// The client fell too far behind; it is disconnected after this error.
    case tooSlow = "too-slow"
    /// A reload found the configuration file unusable; the running one stays.
    case invalidConfiguration = "invalid-configuration"
}
