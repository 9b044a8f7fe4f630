// ink-replay: replay, verify and convert recorded ScratchpadInk touch sessions.
// A synchronous entry point on purpose: valgrind's callgrind cannot run an async main.
import Foundation

exit(InkReplay.main(Array(CommandLine.arguments.dropFirst())))
