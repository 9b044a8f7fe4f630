// ink-replay: replay, verify and convert recorded ScratchpadInk touch sessions.
// A synchronous entry point on purpose: valgrind's callgrind cannot run an async main.
import Foundation
@_spi(Tooling) import HitTestBridge

// SIGPIPE and SIGXFSZ ignored (a file-size limit makes a write fail with an error the tool
// reports, instead of killing the process half-way through a file), closed standard
// descriptors held (StandardStream.prepare); standard output flushed and checked at exit: a
// lost report is an error, exit 1.
StandardStream.prepare()
// The arguments by their bytes (`CommandLine.arguments` repairs bytes that are not UTF-8, and
// a repaired path names another file): each carried losslessly in a String (NameBytes).
let arguments = (1..<Int(CommandLine.argc)).map { NameBytes.string(cString: CommandLine.unsafeArgv[$0]!) }
exit(StandardStream.finish(InkReplay.main(arguments)))
