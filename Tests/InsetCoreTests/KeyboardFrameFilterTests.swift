import Testing

@testable import InsetCore

@Suite struct KeyboardFrameFilterTests {
    static let screen = Size(width: 390, height: 844)
    static let view = ViewID(client: ClientID("app"), name: "v")

    static func frame(_ height: Double) -> KeyboardFrameChange {
        KeyboardFrameChange(
            frame: Rect(x: 0, y: 844 - height, width: 390, height: height), screen: screen,
            animation: .keyboardDefault)
    }

    static func ms(_ value: Int64) -> Instant { .milliseconds(value) }

    /// Heights delivered, in order (nil for a hide), and scroll requests as "scroll".
    static func names(_ events: [FilteredEvent]) -> [String] {
        events.map { event in
            switch event {
            case .keyboard(let change): change.frame.map { formatPoints($0.height) } ?? "hidden"
            case .scroll: "scroll"
            }
        }
    }

    @Test(arguments: [2, 3, 10])
    func burstWithinTheWindowActsOnceWithTheLastFrame(count: Int) {
        var filter = KeyboardFrameFilter(window: .milliseconds(100))
        // Frames 10 ms apart: each restarts the 100 ms window.
        for i in 0..<count {
            #expect(filter.submit(Self.frame(Double(300 + i)), now: Self.ms(Int64(i * 10))).isEmpty)
        }
        let last = Int64((count - 1) * 10)
        #expect(filter.nextDeadline == Self.ms(last + 100))
        #expect(filter.advance(to: Self.ms(last + 99)).isEmpty)
        #expect(Self.names(filter.advance(to: Self.ms(last + 100))) == ["\(300 + count - 1)"])
        #expect(filter.nextDeadline == nil)
        #expect(filter.advance(to: Self.ms(10_000)).isEmpty)
    }

    @Test func framesFurtherApartThanTheWindowEachAct() {
        var filter = KeyboardFrameFilter(window: .milliseconds(100))
        _ = filter.submit(Self.frame(300), now: Self.ms(0))
        #expect(Self.names(filter.advance(to: Self.ms(100))) == ["300"])
        _ = filter.submit(Self.frame(44), now: Self.ms(150))
        #expect(Self.names(filter.advance(to: Self.ms(250))) == ["44"])
    }

    @Test func suspendKeepsTheRemainingTime() {
        var filter = KeyboardFrameFilter(window: .milliseconds(100))
        _ = filter.submit(Self.frame(300), now: Self.ms(0))
        filter.suspend(now: Self.ms(30))
        #expect(filter.nextDeadline == nil)
        #expect(filter.advance(to: Self.ms(500)).isEmpty)
        // Resumed at 500 with nothing new: the 70 ms left run out at 570.
        #expect(filter.resume(now: Self.ms(500)).isEmpty)
        #expect(filter.nextDeadline == Self.ms(570))
        #expect(Self.names(filter.advance(to: Self.ms(570))) == ["300"])
    }

    @Test func submitWhileSuspendedWaitsMaxOfRemainingAndWindow() {
        var filter = KeyboardFrameFilter(window: .milliseconds(100))
        _ = filter.submit(Self.frame(300), now: Self.ms(0))
        filter.suspend(now: Self.ms(30))  // 70 left
        _ = filter.submit(Self.frame(200), now: Self.ms(200))
        _ = filter.resume(now: Self.ms(400))
        #expect(filter.nextDeadline == Self.ms(500))  // max(70, 100)
        #expect(Self.names(filter.advance(to: Self.ms(500))) == ["200"])
    }

    @Test func submitWhileSuspendedWithNothingRunningWaitsAWindow() {
        var filter = KeyboardFrameFilter(window: .milliseconds(100))
        filter.suspend(now: Self.ms(0))
        _ = filter.submit(Self.frame(209), now: Self.ms(10))
        #expect(filter.isSuspended)
        _ = filter.resume(now: Self.ms(400))
        #expect(filter.nextDeadline == Self.ms(500))
    }

    @Test func aSubmitNeverShortensALongerWait() {
        var filter = KeyboardFrameFilter(window: .milliseconds(100))
        _ = filter.submit(Self.frame(300), now: Self.ms(0))
        filter.suspend(now: Self.ms(10))  // 90 left
        _ = filter.submit(Self.frame(301), now: Self.ms(20))
        _ = filter.resume(now: Self.ms(30))  // waits until 130
        filter.window = .milliseconds(50)
        _ = filter.submit(Self.frame(302), now: Self.ms(40))  // 90 < 130: keep 130
        #expect(filter.nextDeadline == Self.ms(130))
    }

    @Test func flushDeliversAtOnce() {
        var filter = KeyboardFrameFilter(window: .milliseconds(100))
        _ = filter.submit(Self.frame(300), now: Self.ms(0))
        _ = filter.request(ScrollRequest(view: Self.view, rect: .zero), now: Self.ms(5))
        #expect(Self.names(filter.flush(now: Self.ms(10))) == ["300", "scroll"])
        #expect(filter.nextDeadline == nil)
        #expect(filter.flush(now: Self.ms(20)).isEmpty)
    }

    @Test func flushWhileSuspendedDeliversAtResume() {
        var filter = KeyboardFrameFilter(window: .milliseconds(100))
        _ = filter.submit(Self.frame(300), now: Self.ms(0))
        filter.suspend(now: Self.ms(10))
        #expect(filter.flush(now: Self.ms(20)).isEmpty)
        #expect(Self.names(filter.resume(now: Self.ms(400))) == ["300"])
    }

    @Test func scrollRequestsWaitBehindThePendingFrame() {
        var filter = KeyboardFrameFilter(window: .milliseconds(100))
        #expect(Self.names(filter.request(ScrollRequest(view: Self.view, rect: .zero), now: Self.ms(0))) == ["scroll"])
        _ = filter.submit(Self.frame(300), now: Self.ms(10))
        #expect(filter.request(ScrollRequest(view: Self.view, rect: .zero), now: Self.ms(20)).isEmpty)
        #expect(filter.request(ScrollRequest(view: Self.view, rect: .zero), now: Self.ms(30)).isEmpty)
        #expect(Self.names(filter.advance(to: Self.ms(110))) == ["300", "scroll", "scroll"])
    }

    @Test func scrollRequestsQueuedDuringASuspensionWithNoFrameGoAtResume() {
        var filter = KeyboardFrameFilter(window: .milliseconds(100))
        filter.suspend(now: Self.ms(0))
        #expect(filter.request(ScrollRequest(view: Self.view, rect: .zero), now: Self.ms(10)).isEmpty)
        #expect(Self.names(filter.resume(now: Self.ms(300))) == ["scroll"])
    }

    @Test func aZeroWindowDeliversImmediately() {
        var filter = KeyboardFrameFilter(window: .zero)
        #expect(Self.names(filter.submit(Self.frame(300), now: Self.ms(0))) == ["300"])
    }

    static let hide = KeyboardFrameChange(frame: nil, screen: screen, animation: .keyboardDefault)

    /// A hide is never held: the keyboard on the screen leaves when told to, so
    /// the views must too. It replaces a pending show (which then never reaches
    /// the views), takes the scroll requests queued behind it along, and leaves
    /// the filter idle.
    @Test func aHideIsDeliveredAtOnceReplacingWhatWasPending() {
        var filter = KeyboardFrameFilter(window: .milliseconds(100))
        #expect(filter.submit(Self.frame(300), now: Self.ms(0)).isEmpty)
        #expect(filter.request(ScrollRequest(view: Self.view, rect: .zero), now: Self.ms(10)).isEmpty)
        #expect(Self.names(filter.submit(Self.hide, now: Self.ms(40))) == ["hidden", "scroll"])
        #expect(filter.isIdle)
        #expect(filter.nextDeadline == nil)
        #expect(filter.advance(to: Self.ms(1000)).isEmpty)
        // Idle, a hide goes at once too; a show after it waits its window.
        #expect(Self.names(filter.submit(Self.hide, now: Self.ms(2000))) == ["hidden"])
        #expect(filter.submit(Self.frame(300), now: Self.ms(2010)).isEmpty)
        #expect(filter.nextDeadline == Self.ms(2110))
    }

    /// During a rotation a hide waits for the resume, and goes at once then.
    @Test func aHideWhileSuspendedGoesAtTheResume() {
        var filter = KeyboardFrameFilter(window: .milliseconds(100))
        filter.suspend(now: Self.ms(0))
        #expect(filter.submit(Self.hide, now: Self.ms(50)).isEmpty)
        #expect(Self.names(filter.resume(now: Self.ms(300))) == ["hidden"])
        #expect(filter.isIdle)
    }

    /// A frame submitted with its own wait keeps it across a rotation: at the
    /// resume it waits max(remaining, its wait), not the window.
    @Test func aFramesOwnWaitSurvivesASuspension() {
        var filter = KeyboardFrameFilter(window: .milliseconds(100))
        filter.suspend(now: Self.ms(0))
        #expect(filter.submit(Self.frame(300), now: Self.ms(50), wait: .milliseconds(400)).isEmpty)
        #expect(filter.resume(now: Self.ms(300)).isEmpty)
        #expect(filter.nextDeadline == Self.ms(700))
        // Without a wait of its own, the window.
        #expect(Self.names(filter.advance(to: Self.ms(700))) == ["300"])
        filter.suspend(now: Self.ms(1000))
        #expect(filter.submit(Self.frame(301), now: Self.ms(1050)).isEmpty)
        #expect(filter.resume(now: Self.ms(1300)).isEmpty)
        #expect(filter.nextDeadline == Self.ms(1400))
    }
}
