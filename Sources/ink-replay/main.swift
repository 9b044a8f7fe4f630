// ink-replay: replay, verify and convert recorded ScratchpadInk touch sessions.
// A synchronous entry point on purpose: valgrind's callgrind cannot run an async main.
import Foundation

// SIGPIPE and SIGXFSZ ignored, closed standard descriptors held (StandardStream.prepare);
// standard output flushed and checked at exit: a lost report is an error, exit 1.
StandardStream.prepare()
exit(StandardStream.finish(InkReplay.main(Array(CommandLine.arguments.dropFirst()))))
