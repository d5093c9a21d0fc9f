/// One line of a scenario script.
public enum ScenarioLine: Hashable, Sendable {
    /// A comment or blank line, echoed unchanged.
    case text(String)
    /// `set key=value ...`: configuration, before the first event.
    case settings(String)
    /// `<time> <verb> ...`: an event (or `advance`) at an instant.
    case event(source: String, at: Instant, ScenarioEvent)
    /// `  @<time> ...`: an expected output, regenerated when the script runs.
    case expectation(String)
}

/// What an event line asks the core to do. View lines carry their key=value
/// fields unresolved: an `update` merges them with the view's previous fields.
public enum ScenarioEvent: Hashable, Sendable {
    case pipeline(PipelineEvent)
    case register(ViewID, fields: [String: String])
    case update(ViewID, fields: [String: String])
    case advance
}

/// A script line the parser could not read, with its 1-based line number.
public struct ScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var message: String

    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { "line \(line): \(message)" }
}

/// Reads the golden-file scenario format: readable input lines, time stamps and
/// expected output lines, in the spirit of keyd's `t/*.t` files.
///
/// ```
/// # a comment
/// set screen=390x844 window=100ms
/// 0ms register app/list frame=0,0,390,844 safe=47,0,34,0 content=390x2000
///   @0ms adjust app/list bottom=0 ...
/// 0ms focus app/list field=16,700,358,44
/// 100ms advance
/// ```
public enum ScenarioParser {
    public static func parse(_ text: String) throws(ScenarioError) -> [ScenarioLine] {
        var lines: [ScenarioLine] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            lines.append(try parseLine(String(raw), number: index + 1))
        }
        if lines.last == .text("") { lines.removeLast() }
        return lines
    }

    static func parseLine(_ line: String, number: Int) throws(ScenarioError) -> ScenarioLine {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return .text(line) }
        if trimmed.hasPrefix("@") { return .expectation(line) }
        let words = trimmed.split(separator: " ").map(String.init)
        if words[0] == "set" { return .settings(line) }
        do throws(ScenarioValueError) {
            let at = try ScenarioValues.instant(words[0])
            guard words.count >= 2 else { throw ScenarioValueError("missing verb after the time") }
            return .event(source: line, at: at, try event(verb: words[1], Array(words.dropFirst(2))))
        } catch {
            throw ScenarioError(line: number, message: error.message)
        }
    }

    private static func event(verb: String, _ args: [String]) throws(ScenarioValueError) -> ScenarioEvent {
        var args = ArgumentReader(args)
        let event: ScenarioEvent
        switch verb {
        case "advance": event = .advance
        case "attach":
            let id = try args.word("device id")
            event = .pipeline(.keyboardAttached(id: id, placement: try ScenarioValues.placement(args.word("placement"))))
        case "detach": event = .pipeline(.keyboardDetached(id: try args.word("device id")))
        case "tablet": event = .pipeline(.tabletMode(try ScenarioValues.flag(args.word("on|off"))))
        case "command": event = .pipeline(.command(try ScenarioValues.choice(args.word("command"))))
        case "mode": event = .pipeline(.mode(try ScenarioValues.choice(args.word("mode"))))
        case "float":
            let value = try args.word("rect or off")
            event = .pipeline(.floatingFrame(value == "off" ? nil : try ScenarioValues.rect(value)))
        case "osk-animation":
            // `osk-animation 0ms linear`, `osk-animation 150ms easeOut`, `osk-animation off`
            let value = try args.word("duration or off")
            if value == "off" {
                event = .pipeline(.oskAnimation(nil))
            } else {
                let duration = try ScenarioValues.duration(value)
                event = .pipeline(.oskAnimation(Animation(duration: duration, curve: try ScenarioValues.choice(args.word("curve")))))
            }
        case "osk-visibility":
            // `osk-visibility shown|hidden`: the OSK changed by itself or its user.
            let value = try args.word("shown|hidden")
            guard value == "shown" || value == "hidden" else { throw ScenarioValueError("expected shown or hidden, got '\(value)'") }
            event = .pipeline(.oskVisibility(value == "shown"))
        case "osk-running":
            event = .pipeline(.oskRunning(try ScenarioValues.flag(args.word("on|off"))))
        case "await-frame":
            event = .pipeline(.frameAwaited(try ScenarioValues.flag(args.word("on|off"))))
        case "register": event = .register(try ScenarioValues.view(args.word("view")), fields: try args.fields())
        case "update": event = .update(try ScenarioValues.view(args.word("view")), fields: try args.fields())
        case "unregister": event = .pipeline(.unregister(try ScenarioValues.view(args.word("view"))))
        case "gone": event = .pipeline(.clientGone(ClientID(try args.word("client"))))
        case "blur": event = .pipeline(.blur(try ScenarioValues.view(args.word("view"))))
        case "dismiss": event = .pipeline(.interactiveDismiss(try ScenarioValues.view(args.word("view"))))
        case "focus":
            let view = try ScenarioValues.view(args.word("view"))
            let fields = try args.fields()
            event = .pipeline(.focus(view, field: try ScenarioValues.rect(required(fields, "field"))))
        case "scroll":
            let view = try ScenarioValues.view(args.word("view"))
            let fields = try args.fields()
            let margin = try fields["margin"].map(ScenarioValues.number)
            let rect = try ScenarioValues.rect(required(fields, "rect"))
            event = .pipeline(.scrollToVisible(ScrollRequest(view: view, rect: rect, margin: margin)))
        case "transition":
            let fields = try args.fields()
            let duration = try ScenarioValues.duration(required(fields, "duration"))
            event = .pipeline(.transition(duration: duration, screen: try fields["screen"].map(ScenarioValues.size)))
        default:
            throw ScenarioValueError("unknown verb '\(verb)'")
        }
        try args.finish()
        return event
    }

    private static func required(_ fields: [String: String], _ key: String) throws(ScenarioValueError) -> String {
        guard let value = fields[key] else { throw ScenarioValueError("missing \(key)=") }
        return value
    }
}

/// Walks the words after a verb (or after `set`).
struct ArgumentReader {
    private var words: ArraySlice<String>

    init(_ words: [String]) { self.words = words[...] }

    mutating func word(_ what: String) throws(ScenarioValueError) -> String {
        guard let first = words.popFirst() else { throw ScenarioValueError("missing \(what)") }
        return first
    }

    /// The remaining words as `key=value` fields.
    mutating func fields() throws(ScenarioValueError) -> [String: String] {
        var fields: [String: String] = [:]
        while let word = words.popFirst() {
            let parts = word.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { throw ScenarioValueError("expected key=value, got '\(word)'") }
            guard fields.updateValue(String(parts[1]), forKey: String(parts[0])) == nil else {
                throw ScenarioValueError("duplicate key '\(parts[0])'")
            }
        }
        return fields
    }

    func finish() throws(ScenarioValueError) {
        if let extra = words.first { throw ScenarioValueError("unexpected '\(extra)'") }
    }
}
