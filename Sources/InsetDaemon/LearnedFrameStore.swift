#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InsetCore

/// The real keyboard frames OSK bridges reported, kept in insetd's state
/// directory between runs, so that the first show after a start publishes the
/// keyboard that will be on the screen rather than the configured guess (the
/// bridge's own report then confirms or corrects it).
///
/// One line per screen size (an orientation of an output):
/// `WIDTHxHEIGHT X Y W H`, the frame in screen points; lines starting with `#`
/// are comments. A line that does not parse, or a frame that could not be on
/// that screen, is skipped with a warning: the file is insetd's own, but a
/// disk or a person may have damaged it.
struct LearnedFrameStore: Sendable {
    /// The file the frames are kept in.
    let path: String

    static let fileName = "keyboard-frames"
    /// Bounds on what is read: a few orientations of a few outputs.
    static let maximumBytes = 64 * 1024
    static let maximumEntries = 64

    /// The store in `STATE_DIRECTORY` (systemd's `StateDirectory=`; the first
    /// of several), or none: a run without one learns for itself only.
    static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> LearnedFrameStore? {
        guard let directories = environment["STATE_DIRECTORY"],
            let directory = directories.split(separator: ":").first, directory.hasPrefix("/")
        else { return nil }
        return LearnedFrameStore(path: "\(directory)/\(fileName)")
    }

    /// What was read: the frames, and a sentence per line that was skipped (or
    /// why the file could not be read; a missing file is no problem).
    struct Loaded: Equatable {
        var frames: [Size: Rect] = [:]
        var problems: [String] = []
    }

    func load() -> Loaded {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(filePath: path))
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return Loaded()
        } catch {
            return Loaded(problems: ["cannot be read: \(error)"])
        }
        guard bytes.count <= Self.maximumBytes else {
            return Loaded(problems: ["is \(bytes.count) bytes, more than \(Self.maximumBytes): ignored"])
        }
        return Self.parse(String(decoding: bytes, as: UTF8.self))
    }

    static func parse(_ text: String) -> Loaded {
        var loaded = Loaded()
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard loaded.frames.count < maximumEntries else {
                loaded.problems.append("line \(index + 1): more than \(maximumEntries) screen sizes; the rest is ignored")
                break
            }
            switch entry(trimmed) {
            case .success(let (screen, frame)): loaded.frames[screen] = frame
            case .failure(let why): loaded.problems.append("line \(index + 1): \(why.reason)")
            }
        }
        return loaded
    }

    /// Writes every frame, replacing the file whole (a crash leaves the old
    /// file or the new one, never half of one). Returns why it failed, if it did.
    func save(_ frames: [Size: Rect]) -> String? {
        var text = "# insetd: the real keyboard's frame per screen size, as OSK bridges reported it.\n"
        text += "# Rewritten by insetd; WIDTHxHEIGHT X Y W H in screen points.\n"
        for (screen, frame) in frames.sorted(by: { ($0.key.width, $0.key.height) < ($1.key.width, $1.key.height) }) {
            text += "\(Self.number(screen.width))x\(Self.number(screen.height)) "
            text += [frame.minX, frame.minY, frame.width, frame.height].map(Self.number).joined(separator: " ") + "\n"
        }
        do {
            try Data(text.utf8).write(to: URL(filePath: path), options: .atomic)
            return nil
        } catch {
            return "\(error)"
        }
    }

    private struct Unusable: Error {
        var reason: String
    }

    private static func entry(_ line: Substring) -> Result<(Size, Rect), Unusable> {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        let size = words.first?.split(separator: "x") ?? []
        guard words.count == 5, size.count == 2 else {
            return .failure(Unusable(reason: "not WIDTHxHEIGHT X Y W H"))
        }
        let numbers = (size + words.dropFirst()).map { Double($0) }
        guard numbers.allSatisfy({ $0?.isFinite == true }) else {
            return .failure(Unusable(reason: "not WIDTHxHEIGHT X Y W H (numbers)"))
        }
        let n = numbers.map { $0! }
        let screen = Size(width: n[0], height: n[1])
        let frame = Rect(x: n[2], y: n[3], width: n[4], height: n[5])
        // The same bounds a bridge's report must keep (`oskFrame`).
        guard screen.width > 0, screen.height > 0, screen.width <= 100_000, screen.height <= 100_000 else {
            return .failure(Unusable(reason: "screen size out of range"))
        }
        guard frame.width > 0, frame.height > 0, frame.width <= screen.width + 1, frame.height <= screen.height,
            frame.minX < screen.width, frame.maxX > 0, frame.minY < screen.height, frame.maxY > 0
        else {
            return .failure(Unusable(reason: "the frame could not be on a \(number(screen.width))x\(number(screen.height)) screen"))
        }
        return .success((screen, frame))
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

}
