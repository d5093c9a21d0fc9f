import Testing

@testable import InsetCore

/// `endWait`: a show held for a bridge's report that will not come (the bridge
/// left) goes out now; nothing else the filter holds is cut short.
@Suite struct FilterEndWaitTests {
    typealias F = KeyboardFrameFilterTests

    @Test func aFrameWaitingForAReportIsDeliveredAtOnce() {
        var filter = KeyboardFrameFilter(window: .milliseconds(100))
        _ = filter.submit(F.frame(300), now: F.ms(0), wait: .milliseconds(1500))
        #expect(filter.nextDeadline == F.ms(1500))
        #expect(F.names(filter.endWait()) == ["300"])
        #expect(filter.nextDeadline == nil)
    }

    @Test func aFrameHeldOnlyByTheWindowKeepsIt() {
        var filter = KeyboardFrameFilter(window: .milliseconds(100))
        _ = filter.submit(F.frame(300), now: F.ms(0))
        #expect(filter.endWait().isEmpty)
        #expect(filter.nextDeadline == F.ms(100))
        #expect(F.names(filter.advance(to: F.ms(100))) == ["300"])
    }

    /// Mid-rotation the frame forgets its wait: submitted while suspended with
    /// nothing running, it resumes at 400 with the window, not the 1.5 s wait:
    /// deliverable at 400 + 100.
    @Test func whileSuspendedItResumesWithTheWindow() {
        var filter = KeyboardFrameFilter(window: .milliseconds(100))
        filter.suspend(now: F.ms(0))
        _ = filter.submit(F.frame(300), now: F.ms(10), wait: .milliseconds(1500))
        #expect(filter.endWait().isEmpty, "nothing moves mid-rotation")
        _ = filter.resume(now: F.ms(400))
        #expect(filter.nextDeadline == F.ms(500))
        #expect(F.names(filter.advance(to: F.ms(500))) == ["300"])
    }
}
