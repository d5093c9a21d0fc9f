import Glibc
import InsetInput
import Logging

/// Where insetd's configuration comes from, read the same way at start and at
/// every reload: the file named with `--config` (which must exist), else
/// `/etc/insetd/insetd.yaml` when it exists (so a file created after start is
/// picked up by a reload), else the built-in defaults; then the command line's
/// overrides on top, so a reload never undoes them.
struct ConfigurationSource: Sendable {
    var explicitPath: String?
    var defaultPath: String = Daemon.defaultConfigPath
    var ueventSource: UeventSource?
    var tracePath: String?
    var traceOutputPath: String?
    var logLevel: Logger.Level?

    /// The file a load reads now, nil for the built-in defaults. A file that
    /// exists but cannot be read is still returned: reading it fails loudly.
    var path: String? {
        explicitPath ?? (access(defaultPath, F_OK) == 0 ? defaultPath : nil)
    }

    /// The configuration and the file it came from (nil: built-in defaults).
    func load() async throws(ConfigurationError) -> (configuration: DaemonConfiguration, path: String?) {
        let path = self.path
        var configuration = DaemonConfiguration.defaults
        if let path { configuration = try await DaemonConfigurationLoader.load(path: path) }
        if let ueventSource { configuration.ueventSource = ueventSource }
        if let tracePath { configuration.trace.path = tracePath }
        if let traceOutputPath { configuration.trace.outputPath = traceOutputPath }
        if let logLevel { configuration.logLevel = logLevel }
        if let output = configuration.trace.outputPath, configuration.trace.path == nil {
            throw ConfigurationError(
                source: ConfigurationError.commandLine, problems: [.init(key: "--trace-output", value: output, why: "needs --trace as well")])
        }
        return (configuration, path)
    }
}
