import Foundation

/// What kind of value an option takes: checked while parsing, shown in the usage line and
/// the help.
enum OptionKind: Sendable, Equatable {
    /// No value: given or not.
    case flag
    /// A number within `range` (`--name <placeholder>`), written in decimal: digits, a
    /// fraction, an exponent (`0.5`, `1e3`); not hexadecimal (`0x10`), `inf` or `nan`.
    case number(String, ClosedRange<Double>)
    /// A whole number within `range`, written in plain decimal digits only (issue 40:
    /// `--jobs 1.5`, `0x10` and `1e3` were taken as 1, 16 and 1000).
    case integer(String, ClosedRange<Int>)
    /// One of the listed values; a value written `prefix:<placeholder>` (as in
    /// `chromium:<page.html>`) takes anything after `prefix:`.
    case choice([String])
    /// Any text (a path, a list): the command checks it (`--name <placeholder>`).
    case text(String)

    /// `on` or `off`.
    static let onOff = OptionKind.choice(["on", "off"])

    /// The value part of the usage line (`<ms>`, `on|off`), empty for a flag.
    var placeholder: String {
        switch self {
        case .flag: ""
        case let .number(placeholder, _), let .integer(placeholder, _), let .text(placeholder): "<\(placeholder)>"
        case let .choice(values): values.joined(separator: "|")
        }
    }
}

/// One option of a command, declared once: its names, the value it takes, its help and its
/// default. The usage line, the help and the parser are made from it.
struct Option: Sendable {
    /// The canonical name (`--output`) first, then its aliases (`-o`).
    var names: [String]
    var kind: OptionKind
    /// What it does, one or more sentences (wrapped by the help).
    var help: String
    /// The default, in words, when there is one worth saying ("250", "as recorded").
    var defaultText: String?
    /// Whether the command needs it (shown without brackets in the usage line).
    var required = false

    init(_ names: String..., kind: OptionKind = .flag, help: String, default defaultText: String? = nil, required: Bool = false) {
        self.names = names
        self.kind = kind
        self.help = help
        self.defaultText = defaultText
        self.required = required
    }

    /// `--output`.
    var name: String { names[0] }

    /// `-o, --output <file>`: the help's left column.
    var signature: String {
        let short = names.dropFirst().filter { !$0.hasPrefix("--") }
        let long = [name] + names.dropFirst().filter { $0.hasPrefix("--") }
        let value = kind.placeholder
        return (short + long).joined(separator: ", ") + (value.isEmpty ? "" : " " + value)
    }

    /// `[--output <file>]` (or without brackets when required): the usage line's part.
    var usage: String {
        let value = kind.placeholder
        // A required option shows its short name (`-o <file>`), the others their long one.
        let text = (required ? names.first { !$0.hasPrefix("--") } ?? name : name) + (value.isEmpty ? "" : " " + value)
        return required ? text : "[\(text)]"
    }
}

/// A combination of options a command would ignore or cannot honour, refused (exit 64) with
/// the reason.
struct OptionRule: Sendable {
    enum Condition: Sendable {
        /// The option is given.
        case given(String)
        /// The option is given with a value that starts with the prefix.
        case value(String, prefix: String)
        /// The option is not given with a value that starts with the prefix (not given at all counts).
        case notValue(String, prefix: String)
    }

    var when: Condition
    /// Options refused under the condition.
    var refuses: [String]
    /// Why, completing "'--json' …" ("does not apply with '--oracle chromium:…' (…)").
    var reason: String

    /// The help's line for it.
    var helpText: String {
        refuses.joined(separator: ", ") + ": " + reason
    }
}

/// One command's options, declared once: parsing, the usage line and the help's OPTIONS
/// section all come from it. Shared groups (``ReplayOptions``, ``JobProgress``) are arrays of
/// ``Option`` composed into each command's table.
struct OptionTable: Sendable {
    var options: [Option]
    var rules: [OptionRule]

    init(_ groups: [Option]..., rules: [OptionRule] = []) {
        options = groups.flatMap { $0 }
        self.rules = rules
        var seen: Set<String> = []
        for option in options {
            for name in option.names { precondition(seen.insert(name).inserted, "option \(name) declared twice") }
        }
    }

    /// The declaration an option name (canonical or alias) stands for.
    func option(named name: String) -> Option? { options.first { $0.names.contains(name) } }

    /// Every name and alias the parser accepts.
    var acceptedNames: Set<String> { Set(options.flatMap(\.names)) }

    /// The usage line after `ink-replay <command> <arguments>`.
    var usage: String { options.map(\.usage).joined(separator: " ") }

    /// The help's OPTIONS section, `-h, --help` last, each line indented by two spaces.
    var help: String {
        var lines: [String] = []
        for option in options {
            var text = option.help
            if let defaultText = option.defaultText { text += " (default: \(defaultText))." }
            lines += Self.entry(option.signature, text)
        }
        lines += Self.entry("-h, --help", "Show help information.")
        if !rules.isEmpty {
            lines.append("")
            lines.append("Refused together (exit 64):")
            for rule in rules { lines += Self.wrap(rule.helpText, width: Self.width - 4).map { "  " + $0 } }
        }
        return lines.map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n")
    }

    static let width = 92
    static let column = 24

    /// A help entry: the signature in the left column, the text wrapped in the right.
    static func entry(_ signature: String, _ text: String) -> [String] {
        var wrapped = wrap(text, width: width - 2 - column)
        if wrapped.isEmpty { wrapped = [""] }
        var lines: [String] = []
        if signature.count < column {
            lines.append(signature + String(repeating: " ", count: column - signature.count) + wrapped.removeFirst())
        } else {
            lines.append(signature)
        }
        lines += wrapped.map { String(repeating: " ", count: column) + $0 }
        return lines
    }

    /// Words into lines of at most `width` characters (a longer word keeps its own line).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

/// Parsed arguments: options, flags and positional arguments, checked against a table.
struct ArgumentList {
    private(set) var positional: [String] = []
    private var values: [String: String] = [:]
    private var setFlags: Set<String> = []
    let table: OptionTable

    init(_ arguments: [String], table: OptionTable) throws {
        self.table = table
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
            guard let option = table.option(named: name) else { throw UsageError(message: "unknown option '\(name)'") }
            let canonical = option.name
            if option.kind == .flag {
                guard inline == nil else { throw UsageError(message: "'\(canonical)' takes no value") }
                setFlags.insert(canonical)
                continue
            }
            guard values[canonical] == nil else { throw UsageError(message: "option '\(canonical)' given twice") }
            let value: String
            if let inline {
                value = inline
            } else {
                guard index < arguments.count else { throw UsageError(message: "missing value for '\(name)'") }
                value = arguments[index]
                index += 1
            }
            try Self.check(value, of: option)
            values[canonical] = value
        }
        for rule in table.rules where holds(rule.when) {
            if let refused = rule.refuses.first(where: isGiven) { throw UsageError(message: "'\(refused)' \(rule.reason)") }
        }
        for option in table.options where option.required && !isGiven(option.name) {
            throw UsageError(message: "missing '\(option.name) \(option.kind.placeholder)'")
        }
    }

    /// Refuses a value its declaration does not take.
    private static func check(_ value: String, of option: Option) throws {
        switch option.kind {
        case .flag, .text: return
        case let .number(_, range):
            guard isDecimal(value), let number = Double(value), number.isFinite, range.contains(number) else {
                throw UsageError(message: "'\(option.name)' takes a number from \(format(range.lowerBound)) to \(format(range.upperBound)), not '\(value)'")
            }
        case let .integer(_, range):
            // Digits only: no sign, point, exponent or base prefix; at most 18 of them, so
            // the conversion cannot overflow before the range is checked.
            guard !value.isEmpty, value.utf8.count <= 18, value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  let number = Int(value), range.contains(number) else {
                throw UsageError(message: "'\(option.name)' takes a whole number from \(range.lowerBound) to \(range.upperBound) in decimal digits, not '\(value)'")
            }
        case let .choice(choices):
            let accepted = choices.contains { choice in
                if let open = choice.firstIndex(of: "<") { return value.hasPrefix(choice[..<open]) && value.count > choice[..<open].count }
                return value == choice
            }
            guard accepted else {
                throw UsageError(message: "'\(option.name)' takes one of \(choices.joined(separator: ", ")), not '\(value)'")
            }
        }
    }

    private func holds(_ condition: OptionRule.Condition) -> Bool {
        switch condition {
        case let .given(name): isGiven(name)
        case let .value(name, prefix): values[name]?.hasPrefix(prefix) == true
        case let .notValue(name, prefix): values[name]?.hasPrefix(prefix) != true
        }
    }

    /// The options among `names` that were given, in `names`' order, as they would be typed
    /// (`--cache on --pencil-only`): what a shard's report says it was run with.
    func given(among names: [String]) -> String {
        names.filter(isGiven).map { name in values[name].map { "\(name) \($0)" } ?? name }.joined(separator: " ")
    }

    /// Whether the option (canonical name) was given.
    func isGiven(_ name: String) -> Bool { setFlags.contains(name) || values[name] != nil }

    /// Whether this command declares the option (shared code asks before reading one).
    func declares(_ name: String) -> Bool { table.option(named: name) != nil }

    func flag(_ name: String) -> Bool {
        assert(declares(name), "\(name) is not declared")
        return setFlags.contains(name)
    }

    func string(_ name: String) -> String? {
        assert(declares(name), "\(name) is not declared")
        return values[name]
    }

    /// A number option, checked against its declared range while parsing.
    func number(_ name: String) -> Double? {
        string(name).flatMap(Double.init)
    }

    /// A whole-number option, checked (digits, range) while parsing.
    func integer(_ name: String) -> Int? {
        string(name).flatMap { Int($0) }
    }

    /// Whether `text` is a decimal number: an optional `-`, digits, an optional fraction and
    /// an optional exponent (what `Double` also reads as hexadecimal, `inf` or `nan` is not).
    private static func isDecimal(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        func digits() -> Bool {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count > 0
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        guard digits() else { return false }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            guard digits() else { return false }
        }
        return bytes.isEmpty
    }

    /// A choice option as an enumeration whose raw values are its declared choices.
    func choice<T: RawRepresentable>(_ name: String, as _: T.Type) throws -> T? where T.RawValue == String {
        guard let text = string(name) else { return nil }
        guard let value = T(rawValue: text) else { throw UsageError(message: "'\(name)' does not take '\(text)'") }
        return value
    }

    /// An `on`/`off` switch: `nil` when not given.
    func onOff(_ name: String) -> Bool? { string(name).map { $0 == "on" } }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
