// Follows one scroll view through insetd with the Swift client library: it
// registers a full-screen form, focuses a field near its bottom and prints every
// event as one line, across daemon restarts (the library reconnects, says hello
// again, re-registers the view and restores the focus). scripts/systemd-test runs
// it inside a booted Debian to check that resync against a real systemd restart.
//
//   inset-follow /run/insetd/insetd.sock
//
// Output lines: `connected`, `keyboard PHASE height=H local=BOOL`,
// `adjustment VIEW bottom=B offset=Y`, `error MESSAGE`, `disconnected`.
import Glibc
import InsetClient
import InsetCore

let usage = "usage: inset-follow SOCKET (follows one focused view across daemon restarts)"
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments == ["--help"] || arguments == ["-h"] {
    print(usage)
    exit(0)
}
guard arguments.count == 1, !arguments[0].hasPrefix("-") else {
    let message = Array("inset-follow: expected one socket path\n\(usage)\n".utf8)
    _ = write(2, message, message.count)
    exit(2)
}
/// One output line, flushed at once so a file or pipe sees it as it happens.
func emit(_ line: String) {
    print(line)
    fflush(nil)
}

let client = InsetClient(socketPath: arguments[0], name: "inset-follow")
await client.start()
await client.register("form", ViewDescription(frame: Rect(x: 0, y: 0, width: 1280, height: 800), contentSize: Size(width: 1280, height: 2000)))
await client.focus("form", field: Rect(x: 0, y: 600, width: 300, height: 44))
for await event in client.events {
    switch event {
    case .connected: emit("connected")
    case .keyboard(let note, let isLocal):
        emit("keyboard \(note.phase) height=\(Int(note.endFrame.size.height)) local=\(isLocal)")
    case .adjustment(let view, let adjustment):
        emit("adjustment \(view) bottom=\(Int(adjustment.additionalBottomInset)) offset=\(Int(adjustment.contentOffset.y))")
    case .error(let error): emit("error \(error)")
    case .focusLost(let view): emit("focusLost \(view)")
    case .disconnected: emit("disconnected")
    }
}
