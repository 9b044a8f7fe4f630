import Testing
@testable import ink_replay

@Suite("Path text: the tool's own path operations, the same on every platform")
struct PathTextTests {
    @Test("last component, extension, base name, parent and join", arguments: [
        ("a/b/c.txt", "c.txt", "txt", "c", "a/b"),
        ("a/b/", "b", "", "b", "a"),
        ("c", "c", "", "c", ""),
        ("/c.tar.gz", "c.tar.gz", "gz", "c.tar", "/"),
        (".hidden", ".hidden", "", ".hidden", ""),
        ("/", "/", "", "/", "/"),
        ("", "", "", "", ""),
    ])
    func operations(path: String, last: String, ext: String, base: String, parent: String) {
        #expect(PathText.lastComponent(path) == last)
        #expect(PathText.pathExtension(path) == ext)
        #expect(PathText.baseName(path) == base)
        #expect(PathText.parent(path) == parent)
    }

    @Test("join puts exactly one slash between a directory and a name")
    func join() {
        #expect(PathText.join("out", "x.jsonl") == "out/x.jsonl")
        #expect(PathText.join("out/", "x.jsonl") == "out/x.jsonl")
        #expect(PathText.join("", "x.jsonl") == "x.jsonl")
    }
}
