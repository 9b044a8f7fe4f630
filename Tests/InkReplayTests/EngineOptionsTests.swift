@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
@_spi(Tooling) import SessionReplay
import Testing
@testable import ink_replay

/// The engine options are one group (issue 41): declared once, read once, mapped once onto
/// the engine's configuration, with each command's defaults.
@Suite("engine options: one group, each command's defaults")
struct EngineOptionsTests {
    static func parse(_ arguments: [String], _ command: any Command.Type) throws -> ArgumentList {
        try ArgumentList(arguments, table: command.options)
    }

    @Test("every command that runs the engine declares the whole group, in one order, from the one declaration")
    func declaredOnce() {
        let names = EngineOptions.Name.allCases.map(\.rawValue)
        for command in [RunCommand.self, VerifyCommand.self, RenderCommand.self, ExportCommand.self, TimelineCommand.self,
                        HostCommand.self] as [any Command.Type] {
            let declared = command.options.options.map(\.name).filter(names.contains)
            #expect(declared == names, "\(command.name)")
        }
        let replay = EngineOptions.declarations(.replay), host = EngineOptions.declarations(.host)
        // The same options, kinds and help; only the defaults each command shows differ.
        #expect(replay.map(\.help) == host.map(\.help) && replay.map(\.kind) == host.map(\.kind))
        #expect(replay.map(\.defaultText) == [EngineOptions.Defaults.replay.cacheDefault, "off", "250", "ink", "150", nil])
        #expect(host.map(\.defaultText) == ["on", "off", "250", "ink", "150", nil])
    }

    @Test("nothing given: each command's own defaults, and a recording replays with its own configuration")
    func defaults() throws {
        let replay = try ReplayOptions.configuration(Self.parse(["a.jsonl"], VerifyCommand.self))
        #expect(replay.engine == InkEngineConfiguration(useRegionCache: false) && replay.usesRecordedEngine)
        let host = try EngineOptions.Defaults.host.configuration(Self.parse([], HostCommand.self))
        #expect(host == InkEngineConfiguration())
        #expect(host.useRegionCache && host.fallback == .ink)
        let realPage = try EngineOptions.Defaults.realPage.configuration(Self.parse(["a.jsonl"], RunCommand.self))
        #expect(realPage.useRegionCache)
    }

    @Test("every option given is mapped, in milliseconds, the same for every command; any one of them makes a replay use it")
    func mapped() throws {
        let all = ["--cache", "on", "--speculative", "on", "--timeout", "100", "--fallback", "page", "--gesture-window", "0",
                   "--pencil-only"]
        var expected = InkEngineConfiguration(decisionTimeout: 0.1, fallback: .page, pencilOnly: true, gestureWindow: 0,
                                              useRegionCache: true, speculativeInk: true)
        #expect(try EngineOptions.Defaults.host.configuration(Self.parse(all, HostCommand.self)) == expected)
        let replay = try ReplayOptions.configuration(Self.parse(["a.jsonl"] + all, VerifyCommand.self))
        #expect(replay.engine == expected && !replay.usesRecordedEngine)
        // `--cache off` on the host, the replay's default spelled out on verify: still given.
        expected = InkEngineConfiguration(useRegionCache: false)
        #expect(try EngineOptions.Defaults.host.configuration(Self.parse(["--cache", "off"], HostCommand.self)) == expected)
        for one in [["--cache", "off"], ["--speculative", "off"], ["--timeout", "250"], ["--fallback", "ink"],
                    ["--gesture-window", "150"], ["--pencil-only"]] {
            let options = try EngineOptions(Self.parse(["a.jsonl"] + one, VerifyCommand.self))
            #expect(options.isAnyGiven, "\(one)")
            #expect(!(try ReplayOptions.configuration(Self.parse(["a.jsonl"] + one, VerifyCommand.self))).usesRecordedEngine, "\(one)")
        }
        #expect(!(try EngineOptions(Self.parse(["a.jsonl", "--seed", "2"], VerifyCommand.self))).isAnyGiven)
    }
}
