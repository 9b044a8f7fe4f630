/// Which options a subcommand takes.
struct ArgumentSpec {
    /// Options that take a value (`--name value` or `--name=value`), with short aliases.
    var valued: [String: String] = [:]
    /// Flags (no value).
    var flags: Set<String> = []
}

/// Parsed arguments: options, flags and positional arguments.
struct ArgumentList {
    private(set) var positional: [String] = []
    private var values: [String: String] = [:]
    private var setFlags: Set<String> = []

    init(_ arguments: [String], spec: ArgumentSpec) throws {
        var index = 0
        var onlyPositional = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositional || !argument.hasPrefix("-") || argument == "-" {
                positional.append(argument)
                continue
            }
            if argument == "--" { onlyPositional = true; continue }
            var name = argument
            var inline: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            if let canonical = spec.valued[name] {
                guard values[canonical] == nil else { throw UsageError(message: "option '\(canonical)' given twice") }
                if let inline {
                    values[canonical] = inline
                } else {
                    guard index < arguments.count else { throw UsageError(message: "missing value for '\(name)'") }
                    values[canonical] = arguments[index]
                    index += 1
                }
            } else if spec.flags.contains(name), inline == nil {
                setFlags.insert(name)
            } else {
                throw UsageError(message: "unknown option '\(name)'")
            }
        }
    }

    func flag(_ name: String) -> Bool { setFlags.contains(name) }

    func string(_ name: String) -> String? { values[name] }

    /// A number option; `range` bounds what is accepted.
    func number(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let text = values[name] else { return nil }
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw UsageError(message: "'\(name)' takes a number from \(format(range.lowerBound)) to \(format(range.upperBound)), not '\(text)'")
        }
        return value
    }

    func choice<T: RawRepresentable & CaseIterable>(_ name: String, as _: T.Type) throws -> T? where T.RawValue == String {
        guard let text = values[name] else { return nil }
        guard let value = T(rawValue: text) else {
            throw UsageError(message: "'\(name)' takes one of \(T.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'")
        }
        return value
    }

    /// An `on`/`off` switch: `nil` when not given.
    func onOff(_ name: String) throws -> Bool? {
        enum Switch: String, CaseIterable { case on, off }
        return try choice(name, as: Switch.self).map { $0 == .on }
    }

    private func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
