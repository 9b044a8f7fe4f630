@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore

/// The engine's options, one typed group: `--cache`, `--speculative`, `--timeout`,
/// `--fallback`, `--gesture-window`, `--pencil-only`. What swift-argument-parser's
/// `@OptionGroup` is to a command, this is to ours (the package takes no dependency): each
/// option is declared once (``declarations(defaults:cacheDefault:)``: name, value, help,
/// range), read once from the parsed arguments (``init(_:)``), and mapped once onto an
/// ``InkEngineConfiguration`` (``configuration(over:)``).
///
/// The defaults are the command's, not the group's: a replay runs with the region cache off
/// (recorded answers are replayed as such), `host` and a replay against a real page with it
/// on. A command names its defaults once (``Defaults``) and both its help and its
/// configuration come from them.
struct EngineOptions: Sendable, Equatable {
    /// The options of the group, in the order the help lists them.
    enum Name: String, CaseIterable, Sendable {
        case cache = "--cache"
        case speculative = "--speculative"
        case timeout = "--timeout"
        case fallback = "--fallback"
        case gestureWindow = "--gesture-window"
        case pencilOnly = "--pencil-only"
    }

    /// `--cache`: `nil` when not given.
    var regionCache: Bool?
    /// `--speculative`.
    var speculativeInk: Bool?
    /// `--timeout`, in seconds (given in milliseconds).
    var decisionTimeout: Double?
    /// `--fallback`.
    var fallback: HitTestVerdict?
    /// `--gesture-window`, in seconds (given in milliseconds).
    var gestureWindow: Double?
    /// `--pencil-only`.
    var pencilOnly = false

    /// Nothing given: the command's defaults.
    init() {}

    /// The group's options as given on the command line: the one place they are read.
    /// - Throws: ``UsageError`` for a `--fallback` the engine does not know (the table
    ///   refuses it first).
    init(_ arguments: ArgumentList) throws {
        regionCache = arguments.onOff(Name.cache.rawValue)
        speculativeInk = arguments.onOff(Name.speculative.rawValue)
        decisionTimeout = arguments.number(Name.timeout.rawValue).map { $0 / 1000 }
        fallback = try arguments.choice(Name.fallback.rawValue, as: HitTestVerdict.self)
        gestureWindow = arguments.number(Name.gestureWindow.rawValue).map { $0 / 1000 }
        pencilOnly = arguments.flag(Name.pencilOnly.rawValue)
    }

    /// Whether any engine option was given. A live recording replays with the configuration
    /// it names unless one is (``SessionReplay/ReplayConfiguration/usesRecordedEngine``).
    var isAnyGiven: Bool { self != EngineOptions() }

    /// `defaults` with every option given put in its place: the engine's configuration.
    func configuration(over defaults: InkEngineConfiguration) -> InkEngineConfiguration {
        var configuration = defaults
        if let regionCache { configuration.useRegionCache = regionCache }
        if let speculativeInk { configuration.speculativeInk = speculativeInk }
        if let decisionTimeout { configuration.decisionTimeout = decisionTimeout }
        if let fallback { configuration.fallback = fallback }
        if let gestureWindow { configuration.gestureWindow = gestureWindow }
        if pencilOnly { configuration.pencilOnly = true }
        return configuration
    }

    /// What a command runs the engine with when an option is not given, and how its help says
    /// so: declared once per kind of command.
    struct Defaults: Sendable {
        /// The configuration the options are put over.
        var engine: InkEngineConfiguration
        /// `--cache`'s default in words, when it needs more than `on` or `off`.
        var cacheDefault: String?

        /// The replays in simulated time (`run`, `verify`, `render`, `export`, `timeline`):
        /// the region cache off, so recorded answers are replayed as such.
        static let replay = Defaults(
            engine: InkEngineConfiguration(useRegionCache: false),
            cacheDefault: "off, so recorded answers are replayed as such; with --oracle chromium: on. A live recording replays with "
                + "the configuration it names unless one of the engine options "
                + Name.allCases.map(\.rawValue).joined(separator: ", ")
                + " is given, and must then still decide as it did live")

        /// `host`, the engine live: the engine's own defaults (the region cache on).
        static let host = Defaults(engine: InkEngineConfiguration())

        /// A replay against a real page (`--oracle chromium:<page.html>`): the real page
        /// answers in real time, so the region cache is on, as live. The options are those
        /// of ``replay`` (one table); only the defaults differ, as its `--cache` help says.
        static let realPage = Defaults(engine: InkEngineConfiguration())

        /// The configuration for these arguments: the defaults with the options given.
        func configuration(_ arguments: ArgumentList) throws -> InkEngineConfiguration {
            try EngineOptions(arguments).configuration(over: engine)
        }
    }

    /// The group's declarations, for a command's ``OptionTable``, each showing the default
    /// `defaults` gives it.
    static func declarations(_ defaults: Defaults) -> [Option] {
        let engine = defaults.engine
        return Name.allCases.map { name in
            let option = name.rawValue
            switch name {
            case .cache:
                return Option(option, kind: .onOff, help: "Let fresh region snapshots decide without a round trip",
                              default: defaults.cacheDefault ?? onOff(engine.useRegionCache))
            case .speculative:
                return Option(option, kind: .onOff,
                              help: "Draw a touch that waits for a round trip as tentative ink when the page's last region snapshot (kept even when too old to decide, or with --cache off) shows nothing interactive near it; retract it if the page disagrees. With a fresh snapshot and the cache on, the cache decides at once, and with no snapshot there is nothing to go on: no tentative ink then",
                              default: onOff(engine.speculativeInk))
            case .timeout:
                return Option(option, kind: .number("ms", 0...(InkEngineConfiguration.maximumDecisionTimeout * 1000)),
                              help: "Deadline for an unanswered hit test", default: milliseconds(engine.decisionTimeout))
            case .fallback:
                return Option(option, kind: .choice(HitTestVerdict.allCases.map(\.rawValue)), help: "Where an unanswered touch goes",
                              default: engine.fallback.rawValue)
            case .gestureWindow:
                return Option(option, kind: .number("ms", 0...60_000),
                              help: "A second finger within this time makes a gesture that goes to the page; 0 disables",
                              default: milliseconds(engine.gestureWindow))
            case .pencilOnly:
                precondition(!engine.pencilOnly, "--pencil-only is a flag: it can only turn pencil-only on")
                return Option(option, help: "Fingers go to the page, pencils ink, without asking.")
            }
        }
    }

    private static func onOff(_ value: Bool) -> String { value ? "on" : "off" }

    /// Seconds as the help's whole milliseconds (`0.25` → `250`).
    private static func milliseconds(_ seconds: Double) -> String { String(Int((seconds * 1000).rounded())) }
}
