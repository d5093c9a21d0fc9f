import Foundation
import PackagePlugin

/// Compiles insetd's web files (web/insetd.js and the demo in Examples/web/)
/// into InsetServer, so the daemon serves what is in the tree without a
/// generated copy kept in the repository beside the originals.
///
/// A build command with the web files as its inputs: the build system runs it
/// again whenever one of them changes (a prebuild command runs only when the
/// build plan is made again, so an edited insetd.js would not reach insetd).
@main
struct WebAssetsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let package = context.package.directoryURL
        let script = package.appending(path: "scripts/generate-web-assets")
        let output = context.pluginWorkDirectoryURL.appending(path: "GeneratedWebAssets/WebAssets.swift")
        return [
            .buildCommand(
                displayName: "insetd web assets (scripts/generate-web-assets)",
                executable: URL(filePath: "/bin/sh"),
                arguments: [script.path, package.path, output.path],
                inputFiles: [script] + webFiles(in: package),
                outputFiles: [output])
        ]
    }

    /// What the script reads: web/insetd*.js and every file of Examples/web/.
    private func webFiles(in package: URL) -> [URL] {
        let manager = FileManager.default
        func files(_ directory: String, _ keep: (String) -> Bool) -> [URL] {
            let url = package.appending(path: directory)
            let names = (try? manager.contentsOfDirectory(atPath: url.path)) ?? []
            return names.filter(keep).sorted().map { url.appending(path: $0) }
        }
        return files("web") { $0.hasPrefix("insetd") && $0.hasSuffix(".js") } + files("Examples/web") { _ in true }
    }
}
