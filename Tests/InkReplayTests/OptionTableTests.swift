import Foundation
@_spi(Tooling) import InkRecording
import Testing
@testable import ink_replay

/// Help that cannot lie: every subcommand's usage line lists exactly the options its parser
/// accepts, its help documents each, and each documented option is accepted by the built
/// tool (issue 32). Checked against the declaration and, independently, by reading `help`
/// output and running the tool.
@Suite("option tables: usage, help and parser agree")
struct OptionTableTests {
    /// The subcommands `ink-replay --help` lists.
    static func listedCommands() throws -> [String] {
        let overview = try CLITests.run("--help").stdout
        let section = try #require(overview.components(separatedBy: "SUBCOMMANDS:").last)
        return section.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  "), let word = line.split(separator: " ").first, !line.contains("See 'ink-replay") else { return nil }
            return String(word)
        }
    }

    /// Option names in a usage line (`[--cache on|off]`, `-o <file>`).
    static func usageOptions(_ help: String) throws -> Set<String> {
        let line = try #require(help.split(separator: "\n").first { $0.hasPrefix("USAGE: ") })
        return Set(line.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "[]")) }
            .filter { $0.hasPrefix("-") })
    }

    /// Option names documented in the OPTIONS section, aliases included, `-h, --help` left out.
    static func documentedOptions(_ help: String) throws -> [[String]] {
        let section = try #require(help.components(separatedBy: "\nOPTIONS:\n").last)
        return section.split(separator: "\n").compactMap { line -> [String]? in
            guard line.hasPrefix("  -") else { return nil }
            let signature = line.dropFirst(2).split(separator: " ").prefix { $0.hasPrefix("-") }
            let names = signature.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) }
            return names.contains("--help") ? nil : names
        }
    }

    @Test("the overview lists every subcommand the tool has")
    func everyCommandListed() throws {
        #expect(Set(try Self.listedCommands()) == Set(InkReplay.commands.map { $0.name }))
    }

    @Test("usage line, help and parser name the same options, for every subcommand")
    func usageHelpParserAgree() throws {
        for command in InkReplay.commands {
            let help = try CLITests.run("help", command.name).stdout
            let usage = try Self.usageOptions(help)
            let documented = try Self.documentedOptions(help)
            let table = command.options
            // The usage line shows each option once, by its usage name.
            #expect(usage == Set(table.options.map { $0.required ? ($0.names.first { !$0.hasPrefix("--") } ?? $0.name) : $0.name }),
                    "\(command.name): usage \(usage.sorted())")
            // The help documents each option with all its names; the parser takes exactly those.
            #expect(Set(documented.flatMap { $0 }) == table.acceptedNames, "\(command.name): help \(documented)")
            #expect(documented.count == table.options.count, "\(command.name)")
            for names in documented {
                #expect(names.contains { usage.contains($0) }, "\(command.name): \(names) not in the usage line")
            }
            // Every refused combination is in the help, with its reason.
            let refused = help.components(separatedBy: "Refused together (exit 64):").dropFirst().joined()
                .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            for rule in table.rules { #expect(refused.contains(rule.helpText), "\(command.name): \(rule.helpText)") }
        }
    }

    /// A value the option takes, read from the help's signature where it shows one.
    static func sampleValue(_ option: Option) -> String? {
        switch option.kind {
        case .flag: nil
        case let .number(_, range): "\(range.lowerBound == 0 ? 1 : range.upperBound)"
        case let .integer(_, range): "\(range.lowerBound == 0 ? 1 : range.upperBound)"
        case let .choice(values): values.first { !$0.contains("<") }
        case .text: option.name == "--shard" ? "1/1" : option.name == "--latencies" ? "0" : option.name == "--filter" ? "1,1,1,1,1,1" : "/nonexistent-ink-replay-value"
        }
    }

    @Test("every option the help documents is accepted by the tool; options other commands take are not")
    func documentedOptionsAccepted() throws {
        let everyName = Set(InkReplay.commands.flatMap { $0.options.acceptedNames })
        for command in InkReplay.commands {
            let help = try CLITests.run("help", command.name).stdout
            for names in try Self.documentedOptions(help) {
                let option = try #require(command.options.option(named: names[0]))
                for name in names {
                    // A positional that does not exist makes each command stop early, after parsing.
                    var arguments = [command.name, name]
                    if let value = Self.sampleValue(option) { arguments.append(value) }
                    arguments.append("/nonexistent-ink-replay-input")
                    let result = try CLITests.run(arguments)
                    #expect(!result.stderr.contains("unknown option"), "\(arguments): \(result.stderr)")
                    #expect(!result.stderr.contains("takes"), "\(arguments): \(result.stderr)")
                }
            }
            for name in everyName.subtracting(command.options.acceptedNames) {
                #expect(throws: UsageError.self, "\(command.name) \(name)") {
                    try ArgumentList([name, "1"], table: command.options)
                }
            }
        }
    }

    @Test("options no command uses, and combinations a command ignores, exit 64 with the reason", arguments: [
        (["render", "--json", "x.jsonl", "-o", "x.svg"], "Error: unknown option '--json'"),
        (["export", "--json", "x.jsonl", "-o", "x.inkml"], "Error: unknown option '--json'"),
        (["timeline", "--json", "x.jsonl", "-o", "x.svg"], "Error: unknown option '--json'"),
        (["run", "--oracle", "chromium:page.html", "--json", "x"], "Error: '--json' does not apply with '--oracle chromium:<page.html>'"),
        (["run", "--oracle", "chromium:page.html", "--oracle-latency", "30", "x"], "Error: '--oracle-latency' does not apply with '--oracle chromium:<page.html>'"),
        (["timeline", "--oracle", "chromium:page.html", "--timeout", "30", "x", "-o", "y"], "Error: '--timeout' does not apply with '--oracle chromium:<page.html>'"),
        (["verify", "--oracle", "chromium:page.html", "x"], "Error: '--oracle' takes one of recorded, regions, not 'chromium:page.html'"),
        (["render", "--oracle", "chromium:page.html", "x", "-o", "y"], "Error: '--oracle' takes one of recorded, regions, not 'chromium:page.html'"),
        (["export", "x", "-o", "y", "--all-touches", "--cache", "on"], "Error: '--cache' does not apply with '--all-touches'"),
        (["run", "--picture", "p.html", "x"], "Error: '--picture' needs '--oracle chromium:<page.html>'"),
        (["bench", "geometry", "--seed", "3"], "Error: '--seed' does not apply to 'bench geometry'"),
        (["verify", "x", "--shard", "0/2"], "Error: '--shard' takes k/n"),
        (["verify", "x", "--jobs", "0"], "Error: '--jobs' takes a whole number from 1 to 1024 in decimal digits, not '0'"),
        (["fixtures", "--json", "x"], "Error: unknown option '--json'"),
    ])
    func refused(arguments: [String], message: String) throws {
        let result = try CLITests.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
    }

    @Test("--progress help mentions --json only where the command has it")
    func progressHelp() throws {
        for command in InkReplay.commands where command.options.option(named: "--progress") != nil {
            let help = try CLITests.run("help", command.name).stdout
            let progress = help.components(separatedBy: "--progress ").dropFirst().joined()
            #expect(progress.contains("--json") == (command.options.option(named: "--json") != nil), "\(command.name)")
        }
    }

    @Test("help fixtures names every session it writes")
    func fixturesHelp() throws {
        let help = try CLITests.run("help", "fixtures").stdout.replacingOccurrences(of: "\n", with: " ")
        for (name, _) in SyntheticSessions.all { #expect(help.contains(name), "\(name)") }
        #expect(help.contains("Write the \(SyntheticSessions.all.count) synthetic fixture sessions"))
    }

    @Test("every whole-number option takes plain decimal digits only: 1.5, 0x10, 1e3, +4 and the like are usage errors (issue 40: --jobs took them as 1, 16 and 1000)")
    func integerOptions() throws {
        var checked = 0
        for command in InkReplay.commands {
            for option in command.options.options {
                guard case let .integer(_, range) = option.kind else { continue }
                checked += 1
                for bad in ["1.5", "0x10", "1e3", "+4", " 4", "4 ", "", "1_0", "٤", "4.0", "99999999999999999999", "\(range.upperBound + 1)"] {
                    #expect(throws: UsageError.self, "\(command.name) \(option.name) '\(bad)'") {
                        try ArgumentList([option.name, bad], table: command.options)
                    }
                }
                let good = "\(max(range.lowerBound, 1))"
                let parsed = try? ArgumentList([option.name, good], table: command.options)
                #expect(parsed?.integer(option.name) == Int(good) || parsed == nil, "\(command.name) \(option.name)")
            }
        }
        #expect(checked >= 7)   // --jobs (run, verify), --seed (several), --passes, --strokes, --limit
        for value in ["1.5", "0x10", "1e3"] {
            let result = try CLITests.run("verify", "--jobs", value, CLITests.fixtures + "/decimal-point.jsonl")
            #expect(result.status == 64 && result.stderr.contains("'--jobs' takes a whole number from 1 to 1024 in decimal digits, not '\(value)'"), "\(result.stderr)")
        }
        #expect(try CLITests.run("verify", "--jobs", "2", CLITests.fixtures + "/decimal-point.jsonl").status == 0)
        // Other numbers are decimal too (Double also reads hexadecimal, inf and nan), and --shard's digits.
        for arguments in [["--timeout", "0x10"], ["--timeout", "0x1p3"], ["--timeout", "inf"], ["--jitter", "nan"], ["--shard", "+1/2"], ["--shard", "1/0x2"]] {
            let result = try CLITests.run(["verify"] + arguments + [CLITests.fixtures + "/decimal-point.jsonl"])
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
        }
        #expect(try CLITests.run("verify", "--timeout", "2.5e2", CLITests.fixtures + "/decimal-point.jsonl").status == 0)
    }
}
