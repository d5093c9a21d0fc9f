import Logging

/// Runs the daemon's services side by side and stops them gracefully in the
/// reverse of their order, each one finished before the next is asked: the
/// WebSocket listener, then the core, then the socket server, which says `bye`
/// to every client last. A stop comes from `triggerGracefulShutdown()` (SIGTERM,
/// SIGINT) or from a service marked `.gracefullyShutdownGroup` returning; any
/// other service returning, or any service throwing, cancels the rest and
/// `run()` throws. (The few lines of swift-service-lifecycle insetd used, without
/// the 1.3 MB it and swift-async-algorithms added to the binary:
/// docs/PERFORMANCE.md, "Footprint".)
package final class ServiceGroup: Sendable {
    /// What the group runs, in start order.
    package struct Configuration: Sendable {
        var services: [ServiceConfiguration]
        var logger: Logger

        package init(services: [ServiceConfiguration], logger: Logger) {
            self.services = services
            self.logger = logger
        }
    }

    /// One service, and what its returning on its own means.
    package struct ServiceConfiguration: Sendable {
        var service: any Service
        var successTerminationBehavior: TerminationBehavior

        package init(service: any Service, successTerminationBehavior: TerminationBehavior = .cancelGroup) {
            self.service = service
            self.successTerminationBehavior = successTerminationBehavior
        }
    }

    package enum TerminationBehavior: Sendable {
        /// Returning before the group stops is a failure: the others are cancelled.
        case cancelGroup
        /// Returning stops the group gracefully.
        case gracefullyShutdownGroup
    }

    /// A service returned while the group ran (or, while stopping, before its turn).
    package struct ServiceFinishedUnexpectedly: Error, CustomStringConvertible {
        package var service: String
        package var description: String { "service \(service) finished unexpectedly" }
    }

    private let configuration: Configuration
    private let requests: AsyncStream<Void>
    private let request: AsyncStream<Void>.Continuation

    package init(configuration: Configuration) {
        self.configuration = configuration
        // A request made before `run()` is kept (one is enough).
        (requests, request) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Asks every service to stop, in reverse order; `run()` returns when they have.
    package func triggerGracefulShutdown() async {
        request.yield()
    }

    private enum Outcome: Sendable {
        case finished(Int)
        case threw(any Error)
        case stopRequested
        case requestsEnded
    }

    package func run() async throws {
        let services = configuration.services
        let logger = configuration.logger
        let signals = services.map { _ in GracefulShutdownSignal() }
        try await withThrowingTaskGroup(of: Outcome.self) { group in
            for (index, entry) in services.enumerated() {
                group.addTask {
                    do {
                        try await GracefulShutdownSignal.$current.withValue(signals[index]) { try await entry.service.run() }
                        return .finished(index)
                    } catch {
                        return .threw(error)
                    }
                }
            }
            group.addTask { [requests] in
                for await _ in requests { return .stopRequested }
                return .requestsEnded
            }
            var running = Set(services.indices)
            func name(_ index: Int) -> String { String(describing: type(of: services[index].service)) }
            running: while let outcome = try await group.next() {
                switch outcome {
                case .stopRequested:
                    break running
                case .requestsEnded:
                    continue
                case .threw(let error):
                    group.cancelAll()
                    throw error
                case .finished(let index):
                    running.remove(index)
                    if Task.isCancelled { continue }
                    guard services[index].successTerminationBehavior == .gracefullyShutdownGroup else {
                        group.cancelAll()
                        throw ServiceFinishedUnexpectedly(service: name(index))
                    }
                    break running
                }
            }
            for index in services.indices.reversed() where running.contains(index) {
                logger.debug("stopping service", metadata: ["service": "\(name(index))"])
                signals[index].trigger()
                while running.contains(index), let outcome = try await group.next() {
                    switch outcome {
                    case .stopRequested, .requestsEnded:
                        continue
                    case .threw(let error):
                        group.cancelAll()
                        throw error
                    case .finished(let other):
                        running.remove(other)
                        guard other == index || Task.isCancelled else {
                            group.cancelAll()
                            throw ServiceFinishedUnexpectedly(service: name(other))
                        }
                    }
                }
            }
            // Only the wait for a stop request is left.
            group.cancelAll()
        }
    }
}
