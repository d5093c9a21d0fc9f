/// A client's string made safe to put in a log line.
///
/// Why: anything a client sends (its name, a view name) is the client's choice,
/// and a log line is read by journald and by people. A newline followed by
/// `<2>` would forge a journal entry at critical priority, terminal escape
/// sequences would redraw an operator's screen, and a 60 KB name would bury
/// the log. Control characters (C0, DEL, C1, and the Unicode line and paragraph
/// separators) are written as visible escapes, and the text is cut at `limit`
/// characters with a note of how much was left out.
package func logSafe(_ text: some StringProtocol, limit: Int = 120) -> String {
    var result = ""
    var written = 0
    var scalars = text.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
        guard written < limit else {
            var rest = 1
            while scalars.next() != nil { rest += 1 }
            result += "…(+\(rest) characters)"
            break
        }
        switch scalar.value {
        case 0x0A: result += "\\n"
        case 0x0D: result += "\\r"
        case 0x09: result += "\\t"
        case 0x5C: result += "\\\\"
        case 0..<0x20, 0x7F..<0xA0, 0x2028, 0x2029:
            result += "\\u{" + String(scalar.value, radix: 16) + "}"
        default: result.unicodeScalars.append(scalar)
        }
        written += 1
    }
    return result
}
