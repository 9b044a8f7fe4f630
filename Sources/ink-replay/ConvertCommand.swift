import Foundation
import InkCore

/// `ink-replay convert`: recorded ink from other formats into session logs.
enum ConvertCommand: Command {
    static let name = "convert"
    static let usage = "ink-replay convert <input>... -o <directory> [--limit <n>] [--answer-latency <ms>]"
    static let help = """
        OVERVIEW: Convert Quick, Draw! raw drawings into session logs, one per drawing.

        Input is a JSON array of drawings or newline-delimited JSON (one drawing per line),
        each with "drawing": [[[x…], [y…], [t…]], …]. Each stroke becomes a finger touch at
        its recorded pace. There was no page under the game's canvas: each log records an
        empty region snapshot and the page's answer ("ink") arriving --answer-latency ms after
        each touch-down. Output files are named quickdraw-<word>-<key_id>.jsonl. A drawing
        that cannot be read is reported with its file, line and field, and the others are
        still converted (exit 1 at the end).

        USAGE: \(usage)

        ARGUMENTS:
          <input>                 Quick, Draw! raw files (.json or .ndjson).

        OPTIONS:
          -o, --output <dir>      Where to write the session logs (created if missing).
          --limit <n>             Convert at most the first n drawings of each input.
          --answer-latency <ms>   Recorded answer latency (default: 16).
          -h, --help              Show help information.
        """
    static let spec = ArgumentSpec(
        valued: ["-o": "--output", "--output": "--output", "--limit": "--limit", "--answer-latency": "--answer-latency"])

    static func run(_ arguments: inout ArgumentList) throws -> Int32 {
        guard !arguments.positional.isEmpty else { throw UsageError(message: "missing <input>") }
        guard let output = arguments.string("--output") else { throw UsageError(message: "missing '--output <directory>'") }
        let limit = try arguments.number("--limit", in: 1...1_000_000_000).map { Int($0) } ?? Int.max
        let latency = (try arguments.number("--answer-latency", in: 0...3_600_000) ?? 16) / 1000
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure(message: "\(output): cannot create the directory: \(error.localizedDescription)")
        }
        var written = 0
        var faults = 0
        for input in arguments.positional {
            guard let data = FileManager.default.contents(atPath: input) else {
                printError("Error: \(input): cannot read the file")
                faults += 1
                continue
            }
            let (drawings, errors) = QuickDrawReader.read(Array(data), file: input)
            for error in errors { printError("Error: \(error)") }
            faults += errors.count
            for drawing in drawings.prefix(limit) {
                let log = SessionLog(quickDraw: drawing, answerLatency: latency)
                let word = drawing.word.isEmpty ? "drawing" : drawing.word.replacingOccurrences(of: " ", with: "-")
                let key = drawing.keyID.isEmpty ? "\(written + 1)" : drawing.keyID
                let path = (output as NSString).appendingPathComponent("quickdraw-\(word)-\(key).jsonl")
                do { try log.write(to: path) } catch {
                    throw CommandFailure(message: "\(path): cannot write: \(error.localizedDescription)")
                }
                written += 1
            }
        }
        print("wrote \(written) session logs to \(output)" + (faults > 0 ? " (\(faults) inputs failed)" : ""))
        return faults == 0 ? 0 : 1
    }
}
