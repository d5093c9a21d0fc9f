/// The types a value of the configuration file can be asked for. insetd's
/// own, with `ConfigContent` and `ConfigFileReader`, so that the daemon does
/// not link a configuration library (1.1 MB of the installed binary with what
/// it pulls in) to read one small YAML file (docs/PERFORMANCE.md, "Footprint").
enum ConfigType: String, Sendable {
    case string, int, double, bool, stringArray, intArray, doubleArray, boolArray
}

/// One value of the configuration file, converted to the type it was asked for.
enum ConfigContent: Sendable, Equatable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case stringArray([String])
    case intArray([Int])
    case doubleArray([Double])
    case boolArray([Bool])
}

/// Typed reads of the configuration file's dotted keys (`keyboard.mode`).
/// Each answers nil both when the key is absent and when its value is not of
/// that type: the loader first asks whether a key is there at all, so it can
/// tell a default from a problem, and words the problem itself.
struct ConfigFileReader: Sendable {
    let snapshot: YAMLConfigSnapshot

    func string(forKey key: String) -> String? {
        guard case .string(let value)? = content(key, .string) else { return nil }
        return value
    }

    func stringArray(forKey key: String) -> [String]? {
        guard case .stringArray(let value)? = content(key, .stringArray) else { return nil }
        return value
    }

    func int(forKey key: String) -> Int? {
        guard case .int(let value)? = content(key, .int) else { return nil }
        return value
    }

    func double(forKey key: String) -> Double? {
        guard case .double(let value)? = content(key, .double) else { return nil }
        return value
    }

    func bool(forKey key: String) -> Bool? {
        guard case .bool(let value)? = content(key, .bool) else { return nil }
        return value
    }

    /// The snapshot's error (a value of another type) is the loader's problem
    /// to word, with the key, the value and the line, so it is dropped here.
    private func content(_ key: String, _ type: ConfigType) -> ConfigContent? {
        try? snapshot.value(forKey: key, type: type)
    }
}
