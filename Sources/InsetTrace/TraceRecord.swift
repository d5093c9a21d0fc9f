import InsetCore
import InsetProtocol

/// The trace format's version. A reader refuses a trace of a newer version
/// instead of replaying it wrongly.
public let traceFormatVersion = 1

/// How a trace begins: everything the core was built from, so a replay starts
/// from the same state. A rotated trace's later files begin with a header too,
/// marked with their `segment` number; only segment 0 carries a usable start.
public struct TraceHeader: Hashable, Sendable {
    public var version: Int
    /// 0 for the file the run started with, then 1, 2, … after each rotation.
    public var segment: Int
    public var screen: Size
    public var configuration: PipelineConfiguration
    /// Keyboards found at start-up (by id), which count without the hold-off.
    public var keyboards: [String: KeyboardPlacement]
    public var tabletMode: Bool
    /// Real keyboard frames per screen size remembered from an earlier run.
    public var rememberedFrames: [Size: Rect]
    /// Every device found at start-up, for the people who read the trace.
    public var devices: [WireDevice]
    /// Which build wrote the trace, for the people who read it.
    public var writer: String

    public init(
        version: Int = traceFormatVersion, segment: Int = 0, screen: Size, configuration: PipelineConfiguration,
        keyboards: [String: KeyboardPlacement] = [:], tabletMode: Bool = false, rememberedFrames: [Size: Rect] = [:],
        devices: [WireDevice] = [], writer: String = "insetd"
    ) {
        self.rememberedFrames = rememberedFrames
        self.version = version
        self.segment = segment
        self.screen = screen
        self.configuration = configuration
        self.keyboards = keyboards
        self.tabletMode = tabletMode
        self.devices = devices
        self.writer = writer
    }
}

/// Where an event came from, for the people who read a trace. Replay ignores it.
public enum TraceSource: Hashable, Sendable {
    /// An input device; for attach events, its description and classification.
    case device(WireDevice?)
    case hotkey
    case client(ClientID)
}

/// One line of a trace: a header, an input the core handled at an instant, a
/// deadline the driver fired, a configuration reload, or the end the writer
/// put when it reached its size limit.
public enum TraceRecord: Hashable, Sendable {
    case header(TraceHeader)
    case event(at: Instant, PipelineEvent, source: TraceSource?)
    /// The driver's timer fired: `advance(to:)` at this instant.
    case tick(at: Instant)
    case reconfigure(at: Instant, PipelineConfiguration)
    /// The writer stopped here; nothing after it was recorded.
    case end(reason: String)
}
