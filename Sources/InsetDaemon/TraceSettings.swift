/// Whether and where insetd records what its core sees (`--trace`, `trace.*`),
/// and how large the recording may grow.
package struct TraceSettings: Sendable, Equatable {
    /// What happens when the trace file reaches `maxBytes`.
    package enum WhenFull: String, Sendable, CaseIterable {
        /// Write an end record and record nothing more this run.
        case stop
        /// Start a new file: FILE becomes FILE.1, FILE.1 becomes FILE.2, and so
        /// on, keeping `keep` old files. A replay needs every file from the first.
        case rotate
    }

    /// The trace (inputs of the core); nil records nothing.
    package var path: String?
    /// The outputs beside it, so the pair checks itself (`insetctl replay --expect`).
    package var outputPath: String?
    package var maxBytes: Int
    package var whenFull: WhenFull
    /// Old files kept when rotating.
    package var keep: Int

    package static let defaults = TraceSettings(
        path: nil, outputPath: nil, maxBytes: 64 << 20, whenFull: .stop, keep: 4)
}
