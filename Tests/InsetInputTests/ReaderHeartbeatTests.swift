import Testing

@testable import InsetInput

/// The request/answer bookkeeping behind `InputMonitor.readerHeartbeat()`; the
/// real reader thread stalled and freed is in the HIL suite.
@Suite struct ReaderHeartbeatTests {
    @Test func aCheckIsTrueOnlyWhenEveryEarlierRequestWasAnswered() {
        let heartbeat = ReaderHeartbeat()
        #expect(heartbeat.check(), "nothing asked yet")
        #expect(!heartbeat.check(), "request 1 unanswered")
        heartbeat.answer()  // answers requests 1 and 2 at once
        #expect(heartbeat.check())
        heartbeat.answer()
        heartbeat.answer()  // a second answer to the same request changes nothing
        #expect(heartbeat.check())
        #expect(!heartbeat.check())
    }
}
