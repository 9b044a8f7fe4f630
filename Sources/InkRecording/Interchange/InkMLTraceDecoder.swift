@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
/// Why the text of one `<trace>` could not be decoded.
package struct InkMLTraceFault: Error, Sendable, Hashable {
    /// The 0-based point where the fault is.
    package var point: Int
    /// What was wrong.
    package var message: String
}

/// Decodes the content of an InkML `<trace>` (W3C InkML, trace grammar) into channel
/// values, resolving the difference encodings.
///
/// - Points are separated by commas (a trailing comma is allowed); values in a point by
///   optional white space: `10 0,'2'-1,"1"0` needs none where a prefix, a sign, `T`, `F`,
///   `*`, `?` or `#` starts the next value.
/// - A value is a decimal (`12`, `1.5`, `.5`, `2e-3`), a hex integer (`#1F`), `T` or `F`
///   (1 or 0), `?` (missing) or `*` (as before).
/// - The prefixes `!` (explicit), `'` (first difference: the change from the previous
///   value) and `"` (second difference: the change of that change) set the channel's mode
///   for this value and the following ones until another prefix; a trace starts explicit.
///   A second difference adds to the previous change `v[i-1] - v[i-2]`, so it needs two
///   earlier values of the channel.
/// - `*` repeats the previous value's encoding: the same value when explicit, the same
///   difference otherwise; in an intermittent channel, the last known value.
/// - Regular channels need a value in every point; intermittent channels come after them
///   and may be left out (their last known value, or the channel default, then applies).
///
/// The result is row-major: `channelCount` values per point, `.nan` for a `?`.
package struct InkMLTraceDecoder: Sendable {
    /// Values every point must have.
    package let regularCount: Int
    /// The channels' values when an intermittent channel was never given.
    package let defaults: [Double]
    /// Which channels are boolean (T and F allowed, no prefixes).
    package let booleans: [Bool]

    package var channelCount: Int { defaults.count }

    package init(regularCount: Int, defaults: [Double], booleans: [Bool]) {
        self.regularCount = regularCount
        self.defaults = defaults
        self.booleans = booleans
    }

    private enum Mode { case explicit, first, second }

    private struct ChannelState {
        var mode = Mode.explicit
        var previous: Double?
        var beforePrevious: Double?
        var lastRaw: Double?
        var lastRawMode = Mode.explicit

        mutating func push(_ value: Double) {
            beforePrevious = previous
            previous = value
        }
    }

    private enum Raw {
        case number(Double)
        case boolean(Double)
        case missing
        case repeatPrevious
    }

    /// The most points one trace may hold (35 minutes of pen at 240 Hz): a longer trace is
    /// refused, so converting one trace holds at most about 220 MB (measured: docs/bad-input.md).
    package static let maxPoints = 500_000

    /// Decodes a trace's text.
    package func decode(_ text: [UInt8]) throws(InkMLTraceFault) -> [Double] {
        var out: [Double] = []
        out.reserveCapacity(min(text.count / 3, Self.maxPoints * channelCount))
        var states = [ChannelState](repeating: ChannelState(), count: channelCount)
        var intermittentLast = Array(defaults)
        var point = 0
        var inPoint = 0
        var index = 0
        let count = text.count

        func fault(_ message: String) -> InkMLTraceFault { InkMLTraceFault(point: point, message: message) }

        func finishPoint() throws(InkMLTraceFault) {
            guard inPoint >= regularCount else {
                throw fault("\(inPoint) value\(inPoint == 1 ? "" : "s"); the trace format needs \(regularCount) in every point")
            }
            guard point < Self.maxPoints else {
                throw fault("a trace of more than \(Self.maxPoints) points; split it into traces of at most that many")
            }
            for channel in inPoint..<channelCount { out.append(intermittentLast[channel]) }
            point += 1
            inPoint = 0
        }

        while true {
            while index < count, xmlIsSpace(text[index]) { index += 1 }
            guard index < count else { break }
            var byte = text[index]
            if byte == UInt8(ascii: ",") {
                if inPoint == 0 { throw fault("an empty point (two commas, or a comma first)") }
                try finishPoint()
                index += 1
                var look = index
                while look < count, xmlIsSpace(text[look]) { look += 1 }
                if look == count { return out }   // a trailing comma
                continue
            }
            guard inPoint < channelCount else {
                throw fault("more than \(channelCount) value\(channelCount == 1 ? "" : "s") (missing a comma between points?)")
            }
            let channel = inPoint
            var mode: Mode?
            switch byte {
            case UInt8(ascii: "!"): mode = .explicit
            case UInt8(ascii: "'"): mode = .first
            case UInt8(ascii: "\""): mode = .second
            default: break
            }
            if mode != nil {
                index += 1
                while index < count, xmlIsSpace(text[index]) { index += 1 }
                guard index < count else { throw fault("a difference prefix with no value after it") }
                byte = text[index]
            }
            let raw: Raw
            switch byte {
            case UInt8(ascii: "T"), UInt8(ascii: "F"):
                guard mode == nil else { throw fault("a prefix before \(Character(Unicode.Scalar(byte)))") }
                raw = .boolean(byte == UInt8(ascii: "T") ? 1 : 0)
                index += 1
            case UInt8(ascii: "?"):
                guard mode == nil else { throw fault("a prefix before ?") }
                raw = .missing
                index += 1
            case UInt8(ascii: "*"):
                guard mode == nil else { throw fault("a prefix before *") }
                raw = .repeatPrevious
                index += 1
            default:
                raw = .number(try readNumber(text, &index, fault: fault))
            }
            if booleans[channel], case .number = raw { throw fault("channel \(channel + 1) is boolean: expected T or F") }
            if !booleans[channel], case .boolean = raw { throw fault("channel \(channel + 1) is numeric: T or F is not a value") }

            var state = states[channel]
            if let mode { state.mode = mode }
            let isIntermittent = channel >= regularCount
            switch raw {
            case .missing:
                out.append(.nan)
            case .boolean(let value):
                state.push(value)
                out.append(value)
                intermittentLast[channel] = value
            case .repeatPrevious:
                if isIntermittent {
                    out.append(intermittentLast[channel])
                } else {
                    guard let lastRaw = state.lastRaw else { throw fault("* with no earlier value in channel \(channel + 1)") }
                    let value = try resolve(lastRaw, mode: state.lastRawMode, state: state, fault: fault)
                    state.push(value)
                    out.append(value)
                }
            case .number(let number):
                let value = try resolve(number, mode: state.mode, state: state, fault: fault)
                state.lastRaw = number
                state.lastRawMode = state.mode
                state.push(value)
                out.append(value)
                intermittentLast[channel] = value
            }
            states[channel] = state
            inPoint += 1
        }
        if inPoint > 0 { try finishPoint() }
        return out
    }

    private func resolve(
        _ number: Double, mode: Mode, state: ChannelState, fault: (String) -> InkMLTraceFault
    ) throws(InkMLTraceFault) -> Double {
        switch mode {
        case .explicit:
            return number
        case .first:
            guard let previous = state.previous else { throw fault("a first difference (') with no earlier value") }
            return previous + number
        case .second:
            guard let previous = state.previous, let beforePrevious = state.beforePrevious else {
                throw fault("a second difference (\") needs two earlier values")
            }
            return previous + (previous - beforePrevious) + number
        }
    }

    private func readNumber(
        _ text: [UInt8], _ index: inout Int, fault: (String) -> InkMLTraceFault
    ) throws(InkMLTraceFault) -> Double {
        let count = text.count
        var negative = false
        if index < count, text[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
            while index < count, xmlIsSpace(text[index]) { index += 1 }
        }
        guard index < count else { throw fault("a sign with no number after it") }
        if text[index] == UInt8(ascii: "#") {
            index += 1
            var value: UInt64 = 0
            var digits = 0
            while index < count, let digit = Self.hexDigit(text[index]) {
                guard value <= (UInt64.max >> 4) else { throw fault("a hex value too large") }
                value = value << 4 | UInt64(digit)
                digits += 1
                index += 1
            }
            guard digits > 0 else { throw fault("# with no hex digits") }
            return negative ? -Double(value) : Double(value)
        }
        let start = index
        var sawDigit = false
        while index < count, Self.isDigit(text[index]) { index += 1; sawDigit = true }
        if index < count, text[index] == UInt8(ascii: ".") {
            index += 1
            while index < count, Self.isDigit(text[index]) { index += 1; sawDigit = true }
        }
        guard sawDigit else {
            var end = start
            while end < count, end - start < 12, !xmlIsSpace(text[end]), text[end] != UInt8(ascii: ",") { end += 1 }
            throw fault("\(InputText.quoted(text[start..<max(end, min(start + 1, count))])) is not a number")
        }
        if index < count, text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") {
            var look = index + 1
            if look < count, text[look] == UInt8(ascii: "+") || text[look] == UInt8(ascii: "-") { look += 1 }
            if look < count, Self.isDigit(text[look]) {
                index = look
                while index < count, Self.isDigit(text[index]) { index += 1 }
            }
        }
        guard let value = Double(String(decoding: text[start..<index], as: UTF8.self)), value.isFinite else {
            throw fault("\(InputText.quoted(text[start..<index])) is not a finite number")
        }
        return negative ? -value : value
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }
}
