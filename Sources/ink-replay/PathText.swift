@_spi(Tooling) import HitTestBridge

/// File-path text the way the tool prints and builds paths: plain string operations with
/// `/` as the separator, the same on Linux and Apple platforms (no `NSString` bridging, which
/// needs Objective-C interop on Apple platforms).
enum PathText {
    /// A path as every output shows it: standard output and standard error, text, `--json`
    /// and JUnit alike (issue 40: names with terminal escape sequences reached standard
    /// output raw). Control characters read `\u{1B}`, a byte that is not UTF-8 `\x{FF}`
    /// (`NameBytes`); the rest as it is. Shown twice, a path reads the same.
    static func shown(_ path: String) -> String { InputText.name(path) }

    /// The last component: `a/b/c.txt` → `c.txt`, `a/b/` → `b`, `/` → `/`.
    static func lastComponent(_ path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        if trimmed == "/" { return "/" }
        return trimmed.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? ""
    }

    /// The extension of the last component, without its dot: `c.tar.gz` → `gz`, `.hidden` → ``.
    static func pathExtension(_ path: String) -> String {
        let name = lastComponent(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// The last component without its extension: `a/b/c.txt` → `c`.
    static func baseName(_ path: String) -> String {
        let name = lastComponent(path), ext = pathExtension(path)
        return ext.isEmpty ? name : String(name.dropLast(ext.count + 1))
    }

    /// Everything before the last component: `a/b/c` → `a/b`, `c` → ``, `/c` → `/`.
    static func parent(_ path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let head = trimmingTrailingSlashes(String(trimmed[..<slash]))
        return head.isEmpty ? "/" : head
    }

    /// `directory` and `component` joined by one `/`.
    static func join(_ directory: String, _ component: String) -> String {
        if directory.isEmpty { return component }
        return directory.hasSuffix("/") ? directory + component : directory + "/" + component
    }

    private static func trimmingTrailingSlashes(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }
}
