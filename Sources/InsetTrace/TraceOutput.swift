#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InsetCore
import InsetProtocol

/// Writes the core's outputs as JSON lines: the daemon beside a trace
/// (`--trace-output`) and `insetctl replay` both use this, so a replay that
/// computes the same outputs prints the same bytes.
///
/// Each line is the message clients receive, plus `t` (the instant in
/// nanoseconds) and who it concerns: a keyboard notification carries its
/// `focusOwner` instead of a recipient's `isLocal`; an adjustment its `client`.
public enum TraceOutput {
    public static func line(_ timed: TimedOutput) -> Data {
        Data(DaemonMessage.traceLine(timed.output, at: timed.at))
    }
}
