import CLibyaml

/// A YAML document as a Swift tree, parsed by libyaml.
///
/// Why libyaml directly: it is the parser Yams wraps, but Yams imports Foundation
/// (and with it ICU), which was a third of the daemon's resident memory for one
/// file read at startup. The C library's pointers stay inside `parse`.
struct YAMLNode: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case scalar(Scalar)
        case sequence([YAMLNode])
        case mapping([Pair])
    }

    struct Scalar: Sendable, Equatable {
        var text: String
        /// False for quoted and block scalars: YAML resolves only plain scalars
        /// to numbers and booleans (`"300"` stays a string).
        var plain: Bool
    }

    struct Pair: Sendable, Equatable {
        var key: YAMLNode
        var value: YAMLNode
    }

    var kind: Kind
    /// Where the node starts, 1-based, for error messages.
    var line: Int
    var column: Int

    /// The scalar, nil for a collection.
    var scalar: Scalar? {
        if case .scalar(let scalar) = kind { return scalar }
        return nil
    }
}

/// Why a file is not one YAML document insetd can use.
struct YAMLError: Error, Equatable, CustomStringConvertible {
    var description: String
}

extension YAMLNode {
    /// Aliases let a small file name one subtree many times; the tree is built
    /// with each use copied, so its size is bounded here (a configuration has
    /// a few dozen nodes).
    static let nodeLimit = 10_000
    static let depthLimit = 64

    /// Parses `bytes` as a single YAML document; nil when it holds none (empty,
    /// or comments only).
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(YAMLError) -> YAMLNode? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { throw YAMLError(description: "libyaml could not start (out of memory)") }
        defer { yaml_parser_delete(&parser) }
        // libyaml reads from the pointer without copying, so it is only used inside this call.
        guard let start = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count > 0 else { return nil }
        yaml_parser_set_input_string(&parser, start, bytes.count)
        var document = yaml_document_t()
        guard yaml_parser_load(&parser, &document) == 1 else { throw parseError(parser) }
        defer { yaml_document_delete(&document) }
        let tree = try withUnsafeMutablePointer(to: &document) { (document) throws(YAMLError) -> YAMLNode? in
            guard let root = yaml_document_get_root_node(document) else { return nil }
            var builder = TreeBuilder(document: document)
            return try builder.node(root, depth: 0)
        }
        guard let tree else { return nil }

        var second = yaml_document_t()
        guard yaml_parser_load(&parser, &second) == 1 else { throw parseError(parser) }
        defer { yaml_document_delete(&second) }
        if let extra = yaml_document_get_root_node(&second) {
            throw YAMLError(description: "a second YAML document starts at line \(extra.pointee.start_mark.line + 1)")
        }
        return tree
    }

    private static func parseError(_ parser: yaml_parser_t) -> YAMLError {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown libyaml error \(parser.error.rawValue)"
        if parser.error == YAML_READER_ERROR {
            return YAMLError(description: "\(problem) at byte \(parser.problem_offset)")
        }
        var text = "\(problem) at line \(parser.problem_mark.line + 1), column \(parser.problem_mark.column + 1)"
        if let context = parser.context {
            text += " (\(String(cString: context)) at line \(parser.context_mark.line + 1))"
        }
        return YAMLError(description: text)
    }
}

/// Copies libyaml's node graph (indices into one array) into `YAMLNode` values.
private struct TreeBuilder {
    let document: UnsafeMutablePointer<yaml_document_t>
    var count = 0

    init(document: UnsafeMutablePointer<yaml_document_t>) { self.document = document }

    mutating func node(_ node: UnsafeMutablePointer<yaml_node_t>, depth: Int) throws(YAMLError) -> YAMLNode {
        count += 1
        let line = node.pointee.start_mark.line + 1
        let column = node.pointee.start_mark.column + 1
        guard count <= YAMLNode.nodeLimit else {
            throw YAMLError(description: "more than \(YAMLNode.nodeLimit) values (aliases repeat a subtree too often)")
        }
        guard depth < YAMLNode.depthLimit else {
            throw YAMLError(description: "nested deeper than \(YAMLNode.depthLimit) levels at line \(line)")
        }
        switch node.pointee.type {
        case YAML_SCALAR_NODE:
            let scalar = node.pointee.data.scalar
            let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            return YAMLNode(
                kind: .scalar(YAMLNode.Scalar(text: text, plain: scalar.style == YAML_PLAIN_SCALAR_STYLE)), line: line, column: column)
        case YAML_SEQUENCE_NODE:
            var items: [YAMLNode] = []
            var item = node.pointee.data.sequence.items.start
            while let current = item, current < node.pointee.data.sequence.items.top {
                items.append(try child(current.pointee, depth: depth))
                item = current + 1
            }
            return YAMLNode(kind: .sequence(items), line: line, column: column)
        case YAML_MAPPING_NODE:
            var pairs: [YAMLNode.Pair] = []
            var pair = node.pointee.data.mapping.pairs.start
            while let current = pair, current < node.pointee.data.mapping.pairs.top {
                pairs.append(.init(key: try child(current.pointee.key, depth: depth), value: try child(current.pointee.value, depth: depth)))
                pair = current + 1
            }
            return YAMLNode(kind: .mapping(pairs), line: line, column: column)
        default:
            throw YAMLError(description: "an empty node at line \(line)")
        }
    }

    private mutating func child(_ index: Int32, depth: Int) throws(YAMLError) -> YAMLNode {
        guard let child = yaml_document_get_node(document, index) else {
            throw YAMLError(description: "libyaml returned a dangling node reference \(index)")
        }
        return try node(child, depth: depth + 1)
    }
}
