/// Runs a scenario script through `InsetPipeline` and writes its transcript: the
/// script's own lines with every expected-output line regenerated from what the
/// core actually produced. A golden test passes when the transcript equals the
/// file; a replay prints it.
public enum ScenarioRunner {
    public static func transcript(of text: String) throws(ScenarioError) -> String {
        let lines = try ScenarioParser.parse(text)
        var setup = Setup()
        var run: Run?
        var out: [String] = []
        for (index, line) in lines.enumerated() {
            let number = index + 1
            switch line {
            case .text(let text):
                out.append(text)
            case .expectation:
                continue
            case .settings(let text):
                guard run == nil else {
                    throw ScenarioError(line: number, message: "'set' must come before the first event")
                }
                do { try setup.apply(text) } catch { throw ScenarioError(line: number, message: error.message) }
                out.append(text)
            case .event(let source, let at, let event):
                if run == nil { run = Run(setup) }
                if let last = run!.lastInstant, at < last {
                    throw ScenarioError(line: number, message: "time goes backwards (\(at) after \(last))")
                }
                out.append(source)
                do {
                    out += try run!.perform(event, at: at).map { "  @\($0.at) \($0.text)" }
                } catch {
                    throw ScenarioError(line: number, message: error.message)
                }
            }
        }
        return out.joined(separator: "\n") + "\n"
    }
}

/// The `set` line's settings, turned into a pipeline configuration.
struct Setup {
    var configuration = PipelineConfiguration()
    var screen = Size(width: 390, height: 844)
    var keyboards: [String: KeyboardPlacement] = [:]
    var tabletMode = false

    mutating func apply(_ line: String) throws(ScenarioValueError) {
        var reader = ArgumentReader(line.split(separator: " ").dropFirst().map(String.init))
        for (key, value) in try reader.fields().sorted(by: { $0.key < $1.key }) {
            switch key {
            case "screen": screen = try ScenarioValues.size(value)
            case "window": configuration.filterWindow = try ScenarioValues.duration(value)
            case "navigation": configuration.navigationThreshold = try ScenarioValues.duration(value)
            case "holdoff": configuration.policy.hardwareHoldOff = try ScenarioValues.duration(value)
            case "portrait": configuration.policy.portraitHeight = try ScenarioValues.number(value)
            case "landscape": configuration.policy.landscapeHeight = try ScenarioValues.number(value)
            case "bar": configuration.policy.accessoryBarHeight = try ScenarioValues.number(value)
            case "animation": configuration.policy.animation.duration = try ScenarioValues.duration(value)
            case "mode": configuration.policy.mode = try ScenarioValues.choice(value)
            case "ignore-external": configuration.policy.ignoreExternalKeyboards = try ScenarioValues.flag(value)
            case "tablet": tabletMode = try ScenarioValues.flag(value)
            case "keyboards":
                for item in value.split(separator: ",") {
                    let pair = item.split(separator: ":").map(String.init)
                    guard pair.count == 2 else { throw ScenarioValueError("'\(item)' is not id:placement") }
                    keyboards[pair[0]] = try ScenarioValues.placement(pair[1])
                }
            default: throw ScenarioValueError("unknown setting '\(key)'")
            }
        }
    }
}

/// A running scenario: the pipeline plus each view's last described fields.
private struct Run {
    var pipeline: InsetPipeline
    var views: [ViewID: ViewDescription] = [:]
    var lastInstant: Instant?

    init(_ setup: Setup) {
        pipeline = InsetPipeline(
            configuration: setup.configuration, screen: setup.screen, keyboards: setup.keyboards,
            tabletMode: setup.tabletMode)
    }

    mutating func perform(_ event: ScenarioEvent, at now: Instant) throws(ScenarioValueError)
        -> [(at: Instant, text: String)]
    {
        lastInstant = now
        let pipelineEvent: PipelineEvent
        switch event {
        case .advance:
            return pipeline.advance(to: now).outputs.map { ($0.at, $0.output.description) }
        case .pipeline(let event):
            pipelineEvent = event
        case .register(let id, let fields):
            let description = try ViewFields.description(fields, base: nil)
            views[id] = description
            pipelineEvent = .register(id, description)
        case .update(let id, let fields):
            // An update of an unknown view still goes to the pipeline, which rejects it.
            let base = views[id] ?? ViewDescription(frame: .zero, contentSize: .zero)
            let description = try ViewFields.description(fields, base: base)
            if views[id] != nil { views[id] = description }
            pipelineEvent = .update(id, description)
        }
        do {
            return try pipeline.handle(pipelineEvent, now: now).outputs.map { ($0.at, $0.output.description) }
        } catch {
            return pipeline.advance(to: now).outputs.map { ($0.at, $0.output.description) }
                + [(now, "error \(error)")]
        }
    }
}

/// Turns a view line's `key=value` fields into a `ViewDescription`.
enum ViewFields {
    static func description(_ fields: [String: String], base: ViewDescription?) throws(ScenarioValueError)
        -> ViewDescription
    {
        let start: ViewDescription?
        if let base { start = base } else { start = try initial(fields) }
        guard var view = start else {
            throw ScenarioValueError("a view needs frame= and content= when first described")
        }
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "frame": view.frame = try ScenarioValues.rect(value)
            case "safe": view.safeAreaInsets = try ScenarioValues.insets(value)
            case "additional": view.additionalBottomInset = try ScenarioValues.number(value)
            case "content-inset": view.contentInset = try ScenarioValues.insets(value)
            case "indicators": view.indicatorInsets = try ScenarioValues.insets(value)
            case "content":
                view.contentSize = try ScenarioValues.size(value)
                if fields["min"] == nil { view.minimumContentSize = view.contentSize }
            case "min": view.minimumContentSize = try ScenarioValues.size(value)
            case "stretch": view.contentStretches = try ScenarioValues.flag(value)
            case "offset": view.contentOffset = try ScenarioValues.point(value)
            case "behavior": view.options.behavior = try ScenarioValues.choice(value)
            case "resize": view.options.resizesContentForKeyboard = try ScenarioValues.flag(value)
            case "margin": view.options.visibilityScrollMargin = try ScenarioValues.number(value)
            case "dismiss": view.options.keyboardDismissMode = try ScenarioValues.choice(value)
            case "bounce": view.options.alwaysBounceVertical = try ScenarioValues.flag(value)
            default: throw ScenarioValueError("unknown view field '\(key)'")
            }
        }
        return view
    }

    private static func initial(_ fields: [String: String]) throws(ScenarioValueError) -> ViewDescription? {
        guard let frame = fields["frame"], let content = fields["content"] else { return nil }
        return ViewDescription(frame: try ScenarioValues.rect(frame), contentSize: try ScenarioValues.size(content))
    }
}
