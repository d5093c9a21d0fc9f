import Foundation
import PackagePlugin

/// Generates the InsetVersion module's version constant from `scripts/version`
/// before every build, so `--version` of every binary names the commit it was
/// built from without anyone editing a source file. The file is rewritten only
/// when the version changed, so an unchanged checkout recompiles nothing.
@main
struct VersionPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let package = context.package.directoryURL.path
        let output = context.pluginWorkDirectoryURL.appending(path: "GeneratedVersion")
        let script = """
            set -e
            mkdir -p "$2"
            version=$("$1/scripts/version" "$1" 2>/dev/null || cat "$1/VERSION" 2>/dev/null || echo 0.0.0)
            text="let generatedVersion = \\"$version\\""
            [ "$(cat "$2/Version.swift" 2>/dev/null)" = "$text" ] || printf '%s\\n' "$text" > "$2/Version.swift"
            """
        return [
            .prebuildCommand(
                displayName: "insetd version (scripts/version)",
                executable: URL(filePath: "/bin/sh"),
                arguments: ["-c", script, "version", package, output.path],
                outputFilesDirectory: output)
        ]
    }
}
