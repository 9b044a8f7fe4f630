// ink-replay: replay, verify and convert recorded ScratchpadInk touch sessions.
// A synchronous entry point on purpose: valgrind's callgrind cannot run an async main.
import Foundation

// A file-size limit (`ulimit -f`) makes a write fail with an error the tool reports, and
// cleans up after, instead of killing the process half-way through a file.
signal(SIGXFSZ, SIG_IGN)
exit(InkReplay.main(Array(CommandLine.arguments.dropFirst())))
