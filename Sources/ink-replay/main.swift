// ink-replay: replay, verify and convert recorded ScratchpadInk touch sessions.
// A synchronous entry point on purpose: valgrind's callgrind cannot run an async main.
import Foundation
@_spi(Tooling) @_spi(FrontEnd) import HitTestBridge

// A file-size limit (`ulimit -f`) makes a write fail with an error the tool reports, and
// cleans up after, instead of killing the process half-way through a file.
signal(SIGXFSZ, SIG_IGN)
// The arguments by their bytes (`CommandLine.arguments` repairs bytes that are not UTF-8, and
// a repaired path names another file): each carried losslessly in a String (NameBytes).
let arguments = (1..<Int(CommandLine.argc)).map { NameBytes.string(cString: CommandLine.unsafeArgv[$0]!) }
exit(InkReplay.main(arguments))
