import InsetCore
import InsetProtocol
import Logging

/// A reloaded configuration file (SIGHUP, `reload`): what changes, what needs
/// a restart, and the answer to the client that asked.
extension DaemonCore {
    /// Applies a reloaded configuration, or keeps the running one when the file
    /// was unusable; logs which is which and answers the client that asked.
    func reload(_ outcome: ReloadOutcome) {
        let requester = outcome.requester
        let new: DaemonConfiguration
        switch outcome.result {
        case .failure(let error):
            logger.error(
                "reload failed; the running configuration stays",
                metadata: ["config": "\(outcome.path ?? "built-in defaults")", "error": "\(oneLineProblems(error))"])
            if let requester {
                outbox.send(.error(ProtocolError(.invalidConfiguration, error.description, id: requester.id)), to: requester.client)
            }
            return
        case .success(let configuration):
            new = configuration
        }
        let report = ReloadReport.between(configuration, new)
        // A mode a client chose at run time (`policy`) stays unless the file's
        // own mode changed: the file did not ask for a different one.
        var pipelineConfiguration = new.pipeline
        let runtimeMode = pipeline.policy.configuration.mode
        if new.pipeline.policy.mode == configuration.pipeline.policy.mode {
            pipelineConfiguration.policy.mode = runtimeMode
        }
        apply(new, pipeline: pipelineConfiguration)
        if pipelineConfiguration.policy.mode != runtimeMode {
            logger.info("keyboard mode changed", metadata: ["mode": "\(pipelineConfiguration.policy.mode.rawValue)", "by": "reload"])
        }
        publishPolicy()
        var metadata: Logger.Metadata = ["config": "\(outcome.path ?? "built-in defaults")"]
        metadata["changed"] = report.changed.isEmpty ? "none" : "\(report.changed.joined(separator: ","))"
        if !report.restart.isEmpty { metadata["needs-restart"] = "\(report.restart.joined(separator: ","))" }
        logger.info("configuration reloaded", metadata: metadata)
        if let requester {
            outbox.send(
                .reloaded(id: requester.id, config: outcome.path, changed: report.changed, restart: report.restart),
                to: requester.client)
        }
    }
}
