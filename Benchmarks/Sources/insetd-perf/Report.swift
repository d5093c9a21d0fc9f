import Foundation

/// The harness's findings: one row per measured quantity, with its target
/// where the issue states one, printed as a Markdown table for docs/PERFORMANCE.md.
struct Report {
    struct Row {
        var id: String
        var what: String
        var result: String
        var target: String
        /// nil where there is no target (context rows).
        var met: Bool?
    }

    private(set) var rows: [Row] = []

    mutating func add(_ id: String, _ what: String, _ result: String, target: String = "", met: Bool? = nil) {
        rows.append(Row(id: id, what: what, result: result, target: target, met: met))
        let verdict = met.map { $0 ? "met" : "MISSED" } ?? ""
        FileHandle.standardError.write(Data("  \(id) \(what): \(result) \(target.isEmpty ? "" : "(target \(target)) ")\(verdict)\n".utf8))
    }

    var missed: [Row] { rows.filter { $0.met == false } }

    func markdown(machine: String, command: String) -> String {
        var text = "Machine: \(machine)\nCommand: `\(command)`\n\n"
        text += "| | measured | result | target | |\n|---|---|---|---|---|\n"
        for row in rows {
            let verdict = row.met.map { $0 ? "met" : "**missed**" } ?? ""
            text += "| \(row.id) | \(row.what) | \(row.result) | \(row.target) | \(verdict) |\n"
        }
        return text
    }

    /// The machine the numbers came from, as the docs quote it.
    static func machineDescription() -> String {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let memory = ProcessInfo.processInfo.physicalMemory >> 30
        let kernel = (try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
        return "\(cores) × \(model), \(memory) GiB, Linux \(kernel)"
    }
}
