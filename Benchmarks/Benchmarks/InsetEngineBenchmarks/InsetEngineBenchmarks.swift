// Engine and filter cost per keyboard change. Target (issue 2): ≤ 2 µs per view.
//
//   cd Benchmarks && swift package --disable-sandbox benchmark
//
// Each benchmark iteration is one keyboard change (show, then hide on the next
// iteration, so every iteration really moves every view): the per-view cost is
// the reported time divided by the number of views.
import Benchmark
import InsetCore

let screen = Size(width: 390, height: 844)
let shown = KeyboardFrameChange(
    frame: Rect(x: 0, y: 508, width: 390, height: 336), screen: screen, animation: .keyboardDefault)
let hidden = KeyboardFrameChange(frame: nil, screen: screen, animation: .keyboardDefault)

func engine(views: Int) -> InsetEngine {
    var engine = InsetEngine(screen: screen)
    for index in 0..<views {
        let id = ViewID(client: ClientID("client\(index % 50)"), name: "view\(index)")
        let description = ViewDescription(
            frame: Rect(x: 0, y: Double(index % 400), width: 390, height: 844 - Double(index % 400)),
            safeAreaInsets: EdgeInsets(top: 47, bottom: 34), contentSize: Size(width: 390, height: 2000),
            contentOffset: Point(x: 0, y: Double(index % 900)),
            options: ViewOptions(resizesContentForKeyboard: index % 3 == 0, keyboardDismissMode: .onDrag))
        _ = engine.register(id, description)
    }
    return engine
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        maxDuration: .seconds(3), maxIterations: 100_000)

    for views in [1, 1000] {
        Benchmark("InsetEngine.apply: one keyboard change, \(views) view(s)") { benchmark in
            var state = engine(views: views)
            var show = true
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(state.apply(show ? shown : hidden))
                show.toggle()
            }
        }
    }

    Benchmark("KeyboardFrameFilter: burst of 10 frames, one delivery") { benchmark in
        var filter = KeyboardFrameFilter(window: .milliseconds(100))
        var now = Instant.zero
        for _ in benchmark.scaledIterations {
            for step in 0..<10 {
                blackHole(filter.submit(step % 2 == 0 ? shown : hidden, now: now))
                now = now + .milliseconds(10)
            }
            now = now + .milliseconds(100)
            blackHole(filter.advance(to: now))
        }
    }

    Benchmark("InsetPipeline: focus, debounce, 100 views adjusted, blur") { benchmark in
        var pipeline = InsetPipeline(screen: screen)
        for index in 0..<100 {
            let id = ViewID(client: ClientID("c\(index)"), name: "v")
            let view = ViewDescription(
                frame: Rect(x: 0, y: 0, width: 390, height: 844), safeAreaInsets: EdgeInsets(top: 47, bottom: 34),
                contentSize: Size(width: 390, height: 2000))
            _ = try? pipeline.handle(.register(id, view), now: .zero)
        }
        let focused = ViewID(client: ClientID("c0"), name: "v")
        var now = Instant.milliseconds(1)
        for _ in benchmark.scaledIterations {
            blackHole(try? pipeline.handle(.focus(focused, field: Rect(x: 0, y: 700, width: 390, height: 44)), now: now))
            now = now + .milliseconds(400)
            blackHole(pipeline.advance(to: now))
            blackHole(try? pipeline.handle(.blur(focused), now: now))
            now = now + .milliseconds(400)
            blackHole(pipeline.advance(to: now))
        }
    }
}
