extension PerfRun {
    /// P2 over the WebSocket, beside the socket. Memory: `total` socket
    /// sessions join the daemon that measured P2, then `total` WebSocket
    /// sessions, each registering the same phone view; each batch's cost is what
    /// the resident memory grew by. CPU: what a keyboard change costs the daemon
    /// with `total` sessions of one kind beside the P2 clients, less what it
    /// costs with the P2 clients alone, per session: socket sessions, WebSocket
    /// sessions, socket sessions again, one kind connected at a time. Each kind
    /// is measured in a daemon of the same size (a daemon with more sessions
    /// costs more per session for reasons of size alone, cache misses mostly,
    /// which a batch measured on top of another would be charged for), and the
    /// socket batches before and after bracket the WebSocket one. Also: one
    /// change until every WebSocket session has its adjustment.
    func measureWebSocketFanOut(daemon: DaemonUnderTest, socketClients: ClientFleet, total: Int, changes: Int) throws {
        let baseDescriptors = daemon.probe.openDescriptors
        // The first WebSocket session brings in code and buffers every later one
        // shares (the HTTP upgrade, the listener's first accept): warmed up and
        // gone before memory is counted.
        let warmUp = try addFleet(1) { try daemon.connectWebSocket(port: webSocketPort, view: true) }
        try disconnect(warmUp, from: daemon, leaving: baseDescriptors)
        let (_, base) = try timeChanges(daemon, timing: socketClients, draining: [], count: changes)
        let startRSS = daemon.probe.residentKibibytes

        let sockets = try addFleet(total) { try daemon.connect(view: true) }
        let afterSockets = daemon.probe.residentKibibytes
        let (_, withSockets) = try timeChanges(daemon, timing: sockets, draining: [socketClients], count: changes)

        let pages = try addFleet(total) { try daemon.connectWebSocket(port: webSocketPort, view: true) }
        let afterPages = daemon.probe.residentKibibytes
        try disconnect(sockets, from: daemon, leaving: baseDescriptors + total)
        ProfilerControl.enable()
        let (samples, withPages) = try timeChanges(daemon, timing: pages, draining: [socketClients], count: changes)
        ProfilerControl.disable()
        if let fanoutFloor {
            let writes = try recordTwoChanges(on: pages.clients[0])
            let floor = try floorCost(
                binary: fanoutFloor, transport: .webSocket, writes: writes, total: total, changes: changes,
                profiled: true)
            let sessions = withPages.cpu - min(base.cpu, withPages.cpu)
            report.add(
                "P2ws", "insetd CPU per change for \(total) WebSocket sessions / the C floor's (`fanout-floor`: as many peers on loopback TCP, the same frames, one write per peer)",
                "\(milliseconds(sessions)) / \(milliseconds(floor)) = \(ratio(sessions, floor))", target: "≤ 1.5×",
                met: sessions * 2 <= floor * 3)
        }
        try disconnect(pages, from: daemon, leaving: baseDescriptors)

        let socketsAgain = try addFleet(total) { try daemon.connect(view: true) }
        let (_, withSocketsAgain) = try timeChanges(daemon, timing: socketsAgain, draining: [socketClients], count: changes)

        let socket = withSockets.perSession(since: base, sessions: total)
        let page = withPages.perSession(since: base, sessions: total)
        let socketAgain = withSocketsAgain.perSession(since: base, sessions: total)
        let perSocket = max(0, afterSockets - startRSS) * 1024 / total
        let perPage = max(0, afterPages - afterSockets) * 1024 / total
        report.add(
            "P2ws", "RSS per session: \(total) socket sessions added → \(total) WebSocket sessions added",
            "\(perSocket) B → \(perPage) B", target: "WebSocket ≤ socket + 4 KiB", met: perPage <= perSocket + 4096)
        report.add(
            "P2ws", "one keyboard change → all \(total) WebSocket sessions have their adjustment (\(socketClients.count) socket clients beside), p50 / p99",
            "\(milliseconds(samples.p50)) / \(milliseconds(samples.p99))", target: "p99 ≤ 20 ms",
            met: samples.p99 <= 20_000_000)
        let mean = { (a: UInt64, b: UInt64) in (a + b) / 2 }
        report.add(
            "P2ws", "insetd CPU per change per session, \(total) sessions of one kind: socket → WebSocket → socket",
            "\(micro(socket.cpu)) → \(micro(page.cpu)) → \(micro(socketAgain.cpu)) (WebSocket / socket \(ratio(page.cpu, mean(socket.cpu, socketAgain.cpu))))")
        // Below fifty ticks a phase the split is mostly sampling noise.
        let ticks = min(withSockets.ticks, withPages.ticks, withSocketsAgain.ticks)
        guard ticks >= 50 else {
            report.add("P2ws", "user / system split", "not measured: \(ticks) clock ticks a phase, too few (more --changes or --clients)")
            return
        }
        report.add(
            "P2ws", "of which user time: socket → WebSocket → socket",
            "\(micro(socket.user)) → \(micro(page.user)) → \(micro(socketAgain.user)) (\(ratio(page.user, mean(socket.user, socketAgain.user))))")
        report.add(
            "P2ws", "of which system time (the kernel's send path): socket → WebSocket → socket",
            "\(micro(socket.system)) → \(micro(page.system)) → \(micro(socketAgain.system)) (\(ratio(page.system, mean(socket.system, socketAgain.system))))")
    }

    /// Disconnects `fleet` and waits until the daemon has let go of it (its
    /// descriptors are down to `leaving`), at most five seconds.
    private func disconnect(_ fleet: ClientFleet, from daemon: DaemonUnderTest, leaving: Int) throws {
        fleet.disconnectAll()
        let deadline = monotonicNanoseconds() + 5_000_000_000
        while daemon.probe.openDescriptors > leaving {
            guard monotonicNanoseconds() < deadline else {
                throw HarnessError("insetd still holds \(daemon.probe.openDescriptors) descriptors 5 s after \(fleet.count) clients left (expected \(leaving))")
            }
            pause(nanoseconds: 20_000_000)
        }
        pause(nanoseconds: 200_000_000)
    }

    private func addFleet(_ count: Int, connect: () throws -> SocketClient) throws -> ClientFleet {
        let fleet = ClientFleet()
        while fleet.count < count { fleet.add(try connect()) }
        pause(nanoseconds: 200_000_000)
        return fleet
    }

    private func micro(_ nanoseconds: UInt64) -> String {
        String(format: "%.1f µs", Double(nanoseconds) / 1000)
    }
}
