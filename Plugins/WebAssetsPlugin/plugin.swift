import Foundation
import PackagePlugin

/// Compiles insetd's web files (web/insetd.js and the demo in Examples/web/)
/// into InsetServer before every build, so the daemon serves what is in the
/// tree without a generated copy kept in the repository beside the originals.
@main
struct WebAssetsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let package = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appending(path: "GeneratedWebAssets")
        return [
            .prebuildCommand(
                displayName: "insetd web assets (scripts/generate-web-assets)",
                executable: URL(filePath: "/bin/sh"),
                arguments: [
                    package.appending(path: "scripts/generate-web-assets").path, package.path,
                    output.appending(path: "WebAssets.swift").path,
                ],
                outputFilesDirectory: output)
        ]
    }
}
