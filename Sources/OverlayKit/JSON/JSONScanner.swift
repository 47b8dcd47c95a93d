#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// A byte-level JSON tokenizer over a refillable window of the input, the engine under the
/// GeoJSON reader.
///
/// It keeps only the unparsed part of the input (plus the token being read) in memory, so a
/// file or pipe of any size streams through. Line numbers are counted lazily with `memchr`
/// over bytes as they are discarded or when a location is asked for, so the hot loops never
/// look at newlines. Every error carries line, column and the JSON Pointer of the value.
final class JSONScanner {
    /// Warnings found while reading values (duplicate members), for the reader to report.
    var warnings: [Diagnostic] = []
    /// The code a duplicate member is reported under: the format's reader names it (GeoJSON's
    /// comes from its code table).
    var duplicateMemberCode: Diagnostic.Code = .jsonDuplicateMember
    let input: ByteInput
    /// The window: `bytes[0..<end]` are input bytes starting at absolute offset `base`.
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    var position = 0
    private(set) var end = 0
    private var base = 0
    private var atEndOfInput = false
    /// While set, bytes from here on are kept through refills (a token being read).
    var mark: Int?
    /// While set, bytes from this absolute offset on are kept through refills too: the reader
    /// keeps the feature being read, to hand out its source bytes or to resume after an error.
    var retainFrom: Int?

    // Line bookkeeping: newlines before absolute offset `countedTo` are counted.
    private var line = 1
    private var lineStart = 0
    private var countedTo = 0

    /// The JSON Pointer of the value being read, as components (materialized only for errors).
    var path: [PathComponent] = []

    /// Whether long `coordinates` arrays are parsed ahead on a second core (`PositionLookahead`).
    var parsesPositionsAhead = false
    /// A helper starts once this many bytes of one `coordinates` value have been read (so short
    /// arrays never pay for a thread) and when at least `lookaheadMinimumBytes` are in the window
    /// ahead; it takes the window's last ~58 %, the scanner walks all of it.
    var lookaheadAfterBytes = 64 << 10
    var lookaheadMinimumBytes = 256 << 10
    /// Wait for a helper that has not finished instead of reading on without it (tests).
    var lookaheadWaits = false
    /// The positions parsed ahead, and the absolute offset at which to look at starting a helper
    /// again (`Int.max` outside `coordinates`).
    private var lookahead: PositionLookahead?
    /// The absolute offsets `lookahead` covers (empty without one), so the per-position check
    /// touches no object.
    private var lookaheadStart = 0, lookaheadEnd = 0
    private var nextLookaheadCheck = Int.max
    /// How many positions came from a helper (for tests: proof that the helper ran).
    private(set) var positionsTakenAhead = 0
    /// Whether `readLocatedValue` reads arrays of positions below `coordinates` as runs (tests
    /// turn it off to compare with the plain reading).
    var readsPositionRuns = true
    /// `readLocatedValue`'s buffers for runs of positions (nil until the first run).
    var runScratch: RunScratch?

    enum PathComponent {
        case key(String)
        case index(Int)
    }

    init(input: ByteInput, initialCapacity: Int = 1 << 20) {
        self.input = input
        capacity = initialCapacity
        bytes = .allocate(capacity: initialCapacity)
    }

    deinit { bytes.deallocate() }

    /// Absolute offset of the current position (for progress and locations).
    var absolutePosition: Int { base + position }

    // MARK: Window

    /// Makes sure `bytes[position]` exists; false at the end of input.
    @inline(__always)
    func ensure() throws -> Bool {
        position < end ? true : try refill()
    }

    /// Makes sure `count` bytes from `position` on are in the window, or all the input has
    /// left: the runs of positions parse numbers without looking for the window's end.
    func ensure(ahead count: Int) throws {
        var rounds = 0
        // Each refill at least doubles the window or reaches the end of input.
        while end - position < count, rounds < 64, try refill() { rounds += 1 }
    }

    private func refill() throws -> Bool {
        if atEndOfInput { return false }
        var keep = mark ?? position
        if let retainFrom { keep = min(keep, max(0, retainFrom - base)) }
        if keep > 0 {
            countLines(upTo: base + keep)
            if end > keep { memmove(bytes, bytes + keep, end - keep) }
            base += keep
            position -= keep
            end -= keep
            if mark != nil { mark! -= keep }
        }
        if end == capacity {
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            grown.update(from: bytes, count: end)
            bytes.deallocate()
            bytes = grown
            capacity *= 2
        }
        let count = try input.read(into: UnsafeMutableRawBufferPointer(start: bytes + end, count: capacity - end))
        if count == 0 {
            atEndOfInput = true
            return false
        }
        end += count
        return true
    }

    // MARK: Locations

    /// Counts newlines in `[countedTo, target)`; the bytes must still be in the window.
    private func countLines(upTo target: Int) {
        guard target > countedTo else { return }
        var cursor = UnsafeMutableRawPointer(bytes + (countedTo - base))
        let stop = UnsafeMutableRawPointer(bytes + (target - base))
        while cursor < stop, let hit = memchr(cursor, 0x0A, stop - cursor) {
            line += 1
            lineStart = base + (hit.assumingMemoryBound(to: UInt8.self) - bytes) + 1
            cursor = hit + 1
        }
        countedTo = target
    }

    /// The location of an absolute offset at or after the last one asked for.
    func location(at absolute: Int) -> SourceLocation {
        let (line, column) = lineColumn(at: absolute)
        return SourceLocation(file: input.name, line: line, column: column, jsonPointer: pointer())
    }

    /// Line and column (1-based, column in bytes) of an absolute offset at or after the last
    /// one asked for; cheap enough to call for every ring.
    func lineColumn(at absolute: Int) -> (line: Int, column: Int) {
        if absolute >= countedTo && absolute <= base + end { countLines(upTo: absolute) }
        return (line, max(1, absolute - lineStart + 1))
    }

    /// Line and column of an earlier offset when its line is still known: it must not lie
    /// before the last offset located or counted past. Used to place an error at the end of
    /// the previous token (e.g. the missing ',' after a value) rather than at the next one.
    func lineColumnIfKnown(at absolute: Int) -> (line: Int, column: Int)? {
        guard absolute >= countedTo, absolute >= base, absolute <= base + end else { return nil }
        return lineColumn(at: absolute)
    }

    /// The location of the current position.
    func currentLocation() -> SourceLocation { location(at: absolutePosition) }

    /// A place in the text, resolved to line and column when taken, so it stays right after
    /// the window has moved past it (errors about an object are often found at its end).
    struct TextPosition {
        var offset: Int
        var line: Int
        var column: Int
    }

    /// The current position as a `TextPosition`.
    func here() -> TextPosition {
        let (line, column) = lineColumn(at: absolutePosition)
        return TextPosition(offset: absolutePosition, line: line, column: column)
    }

    /// An error at a position taken earlier.
    func error(_ code: Diagnostic.Code, _ message: String, at position: TextPosition, extraPath: [PathComponent] = []) -> Diagnostic {
        Diagnostic(.error, code: code, message: message,
                   location: SourceLocation(file: input.name, line: position.line, column: position.column,
                                            jsonPointer: pointer(extraPath)))
    }

    func warning(_ code: Diagnostic.Code, _ message: String, at position: TextPosition, extraPath: [PathComponent] = []) -> Diagnostic {
        var diagnostic = error(code, message, at: position, extraPath: extraPath)
        diagnostic.severity = .warning
        return diagnostic
    }

    /// The JSON Pointer of `path` plus `extra` components (RFC 6901 escaping).
    func pointer(_ extra: [PathComponent] = []) -> String {
        // Called for every feature's location: no joined array, no interpolation.
        var text = ""
        func append(_ component: PathComponent) {
            text.append("/")
            switch component {
            case .index(let index): text.append(String(index))
            case .key(let key): text.append(JSONPointer.escape(key))
            }
        }
        for component in path { append(component) }
        for component in extra { append(component) }
        return text
    }

    /// An error at an absolute offset.
    func error(_ code: Diagnostic.Code, _ message: String, at absolute: Int? = nil, extraPath: [PathComponent] = []) -> Diagnostic {
        var location = location(at: absolute ?? absolutePosition)
        location.jsonPointer = pointer(extraPath)
        return Diagnostic(.error, code: code, message: message, location: location)
    }

    func warning(_ code: Diagnostic.Code, _ message: String, at absolute: Int, extraPath: [PathComponent] = []) -> Diagnostic {
        var diagnostic = error(code, message, at: absolute, extraPath: extraPath)
        diagnostic.severity = .warning
        return diagnostic
    }

    /// At the very start of the input, skips a UTF-8 byte-order mark (RFC 8259 §8.1 lets a
    /// parser ignore it) and returns true; columns on line 1 then count from after it.
    func skipByteOrderMark() throws -> Bool {
        guard base + position == 0 else { return false }
        while end - position < 3, try refill() {}
        guard end - position >= 3, bytes[position] == 0xEF, bytes[position + 1] == 0xBB, bytes[position + 2] == 0xBF else {
            return false
        }
        position += 3
        lineStart = 3
        return true
    }

    // MARK: Tokens

    /// Skips JSON whitespace; returns the next byte without consuming it, or nil at the end.
    @inline(__always)
    func peekSignificant() throws -> UInt8? {
        // Locals, not stored properties, in the loop: the compiler keeps them in registers.
        while true {
            let window = bytes, limit = end
            var cursor = position
            while cursor < limit {
                let byte = window[cursor]
                if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                    cursor += 1
                } else {
                    position = cursor
                    return byte
                }
            }
            position = cursor
            guard try refill() else { return nil }
        }
    }

    /// Like `peekSignificant`, and also skips RS (0x1E), which separates GeoJSON text sequences.
    func peekSignificantSkippingRecordSeparators() throws -> UInt8? {
        while let byte = try peekSignificant() {
            if byte != 0x1E { return byte }
            sawRecordSeparator = true
            position += 1
        }
        return nil
    }

    /// True once an RS has been skipped: the input is an RFC 8142 text sequence.
    private(set) var sawRecordSeparator = false

    /// Consumes `byte` after whitespace, or throws naming what was expected.
    @inline(__always)
    func expect(_ byte: UInt8, _ what: String) throws {
        guard let next = try peekSignificant() else {
            throw error(.jsonUnexpectedEnd, "input ended where \(what) was expected")
        }
        guard next == byte else { throw unexpected(next, expecting: what) }
        position += 1
    }

    func unexpected(_ byte: UInt8, expecting what: String) -> Diagnostic {
        let shown = byte >= 0x20 && byte < 0x7F ? "'\(Character(UnicodeScalar(byte)))'" : String(format: byte)
        return error(.jsonSyntax, "expected \(what) but found \(shown)")
    }

    /// After a member or element: consumes `,` and returns true, or consumes `close` and
    /// returns false.
    @inline(__always)
    func commaOrClose(_ close: UInt8) throws -> Bool {
        guard let next = try peekSignificant() else {
            throw error(.jsonUnexpectedEnd, "input ended inside \(close == UInt8(ascii: "]") ? "an array" : "an object")")
        }
        position += 1
        if next == UInt8(ascii: ",") { return true }
        if next == close { return false }
        position -= 1
        throw unexpected(next, expecting: close == UInt8(ascii: "]") ? "',' or ']'" : "',' or '}'")
    }

    /// Reads a number token; returns the pointer and length inside the window (valid until the
    /// next refill).
    @inline(__always)
    func numberToken() throws -> (start: Int, count: Int) {
        var start = position
        while true {
            let window = bytes, limit = end
            var cursor = position
            while cursor < limit {
                let byte = window[cursor]
                // Digits, '-', '+', '.', 'e', 'E'.
                guard byte &- 0x30 < 10 || byte == 0x2D || byte == 0x2E || byte == 0x2B || byte | 0x20 == 0x65 else {
                    position = cursor
                    return (start, cursor - start)
                }
                cursor += 1
            }
            // The token may go on past the window: keep it through the refill.
            position = cursor
            mark = start
            let more = try refill()
            start = mark!
            mark = nil
            if !more { return (start, position - start) }
        }
    }

    /// Reads a JSON number as a Double, exactly as `Double(String)` would.
    @inline(__always)
    func readDouble() throws -> Double {
        // The common case in one pass: scanned and parsed together (a separate token scan was
        // 13% of `info`'s instructions). The window's end, a malformed or an out-of-range number
        // takes the tokenizing path, which reports it exactly.
        if let found = JSONNumberParser.parsePrefix(bytes + position, end: bytes + end), found.value.isFinite {
            position += found.length
            return found.value
        }
        let token = try numberToken()
        if token.count > 0, let value = JSONNumberParser.parse(bytes + token.start, count: token.count) {
            guard value.isFinite else { throw numberOutOfRange(token) }
            return value
        }
        throw invalidNumber(token)
    }

    /// Reads a number as `.integer` when it is an integer literal that fits Int64, else `.number`.
    func readNumberValue() throws -> JSONValue {
        let token = try numberToken()
        if token.count > 0, let integer = JSONNumberParser.parseInteger(bytes + token.start, count: token.count) {
            return .integer(integer)
        }
        if token.count > 0, let value = JSONNumberParser.parse(bytes + token.start, count: token.count) {
            guard value.isFinite else { throw numberOutOfRange(token) }
            return .number(value)
        }
        throw invalidNumber(token)
    }

    /// A number beyond ±1.8e308 reads as an infinity, which no JSON or KML can hold: RFC 8259 §6
    /// lets a parser limit the range, and an error here beats writing `inf` or `null` later.
    func numberOutOfRange(_ token: (start: Int, count: Int)) -> Diagnostic {
        let text = String(decoding: UnsafeBufferPointer(start: bytes + token.start, count: min(token.count, 40)), as: UTF8.self)
        return error(.jsonNumberOutOfRange,
                     "'\(text)' is beyond the range of a 64-bit float (±1.8e308), which is the range JSON numbers are read in",
                     at: base + token.start)
    }

    func invalidNumber(_ token: (start: Int, count: Int)) -> Diagnostic {
        if token.count == 0 {
            let byte = position < end ? bytes[position] : 0
            return unexpected(byte, expecting: "a value")
        }
        let text = String(decoding: UnsafeBufferPointer(start: bytes + token.start, count: min(token.count, 40)), as: UTF8.self)
        return error(.jsonInvalidNumber, "'\(text)' is not a valid JSON number", at: base + token.start)
    }

    /// Reads a string (the opening quote is next), decoding escapes; rejects control characters
    /// and invalid UTF-8.
    func readString() throws -> String {
        let startOffset = absolutePosition
        try expect(UInt8(ascii: "\""), "a string")
        mark = position
        defer { mark = nil }
        // Fast path: no escapes.
        var ascii = true
        while true {
            guard try position < end || refill() else {
                throw error(.jsonUnexpectedEnd, "input ended inside a string", at: startOffset)
            }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let buffer = UnsafeBufferPointer(start: bytes + mark!, count: position - mark!)
                position += 1
                // ASCII is valid UTF-8 as it stands, and String(decoding:as: UTF8.self) takes it
                // in one specialized copy; String(validating:as:) goes through generic code.
                if ascii { return String(decoding: buffer, as: UTF8.self) }
                guard let text = String(validating: buffer, as: UTF8.self) else {
                    throw error(.jsonInvalidUtf8, "string is not valid UTF-8", at: startOffset)
                }
                return text
            }
            if byte >= 0x80 { ascii = false }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 {
                throw error(.jsonControlCharacter, "unescaped control character in a string")
            }
            position += 1
        }
        // Slow path: decode escapes into a byte array.
        var decoded = Array(UnsafeBufferPointer(start: bytes + mark!, count: position - mark!))
        while true {
            guard try position < end || refill() else {
                throw error(.jsonUnexpectedEnd, "input ended inside a string", at: startOffset)
            }
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: decoded, as: UTF8.self) else {
                    throw error(.jsonInvalidUtf8, "string is not valid UTF-8", at: startOffset)
                }
                return text
            case UInt8(ascii: "\\"):
                try readEscape(into: &decoded)
            case 0..<0x20:
                position -= 1
                throw error(.jsonControlCharacter, "unescaped control character in a string")
            default:
                decoded.append(byte)
            }
        }
    }

    private func readEscape(into decoded: inout [UInt8]) throws {
        guard try ensure() else { throw error(.jsonUnexpectedEnd, "input ended inside a string escape") }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(byte)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHex4()
            if scalar >= 0xD800 && scalar < 0xDC00 {
                // A high surrogate must be followed by an escaped low surrogate.
                guard try ensure(), bytes[position] == UInt8(ascii: "\\") else {
                    throw error(.jsonInvalidEscape, "unpaired UTF-16 surrogate in \\u escape")
                }
                position += 1
                guard try ensure(), bytes[position] == UInt8(ascii: "u") else {
                    throw error(.jsonInvalidEscape, "unpaired UTF-16 surrogate in \\u escape")
                }
                position += 1
                let low = try readHex4()
                guard low >= 0xDC00 && low < 0xE000 else {
                    throw error(.jsonInvalidEscape, "unpaired UTF-16 surrogate in \\u escape")
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if scalar >= 0xDC00 && scalar < 0xE000 {
                throw error(.jsonInvalidEscape, "unpaired UTF-16 surrogate in \\u escape")
            }
            decoded.append(contentsOf: Array(String(Character(UnicodeScalar(scalar)!)).utf8))
        default:
            position -= 1
            throw error(.jsonInvalidEscape, "invalid escape '\\\(Character(UnicodeScalar(byte)))' in a string")
        }
    }

    private func readHex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard try ensure() else { throw error(.jsonUnexpectedEnd, "input ended inside a \\u escape") }
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw error(.jsonInvalidEscape, "\\u escape needs four hex digits")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    /// Reads an object key and the ':' after it; returns the key text.
    func readKey() throws -> String {
        let key = try readString()
        try expect(UInt8(ascii: ":"), "':' after an object key")
        return key
    }

    /// Consumes a literal (`true`, `false`, `null`) whose first byte is next.
    func readLiteral(_ literal: StaticString) throws {
        let start = absolutePosition
        for index in 0..<literal.utf8CodeUnitCount {
            guard try ensure(), bytes[position] == literal.utf8Start[index] else {
                throw error(.jsonSyntax, "invalid literal; expected '\(literal)'", at: start)
            }
            position += 1
        }
    }

    /// Reads any JSON value, keeping object member order. Depth is limited so hostile input
    /// cannot exhaust the stack.
    func readValue(depth: Int = 0) throws -> JSONValue {
        guard depth < 512 else { throw error(.jsonTooDeep, "values nest more than 512 levels deep") }
        guard let byte = try peekSignificant() else {
            throw error(.jsonUnexpectedEnd, "input ended where a value was expected")
        }
        switch byte {
        case UInt8(ascii: "\""):
            return .string(try readString())
        case UInt8(ascii: "{"):
            position += 1
            var object = JSONObject()
            if try peekSignificant() == UInt8(ascii: "}") {
                position += 1
                return .object(object)
            }
            let start = base + position - 1
            repeat {
                let key = try readKey()
                path.append(.key(key))
                object.append(key, try readValue(depth: depth + 1))
                path.removeLast()
            } while try commaOrClose(UInt8(ascii: "}"))
            if object.count > 1, let duplicates = object.removingDuplicateKeys() {
                for key in duplicates {
                    warnings.append(warning(duplicateMemberCode, "member \"\(key)\" appears more than once; the last one counts",
                                            at: start, extraPath: [.key(key)]))
                }
            }
            return .object(object)
        case UInt8(ascii: "["):
            position += 1
            var array = [JSONValue]()
            if try peekSignificant() == UInt8(ascii: "]") {
                position += 1
                return .array(array)
            }
            repeat {
                path.append(.index(array.count))
                array.append(try readValue(depth: depth + 1))
                path.removeLast()
            } while try commaOrClose(UInt8(ascii: "]"))
            return .array(array)
        case UInt8(ascii: "t"):
            try readLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try readLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try readLiteral("null")
            return .null
        default:
            return try readNumberValue()
        }
    }

    /// The window bytes between two absolute offsets; both must still be in the window (see
    /// `retainFrom`). Valid until the next refill.
    func windowBytes(from start: Int, to stop: Int) -> UnsafeRawBufferPointer {
        precondition(start >= base && stop <= base + end && start <= stop, "bytes no longer in the window")
        return UnsafeRawBufferPointer(start: bytes + (start - base), count: stop - start)
    }

    // MARK: Positions parsed ahead

    /// Called where a `coordinates` value starts (and with nil where it ends): arms or disarms
    /// `PositionLookahead` for it.
    func coordinatesBegin(at absolute: Int?) {
        guard parsesPositionsAhead else { return }
        nextLookaheadCheck = absolute.map { $0 + lookaheadAfterBytes } ?? Int.max
    }

    /// At a position's first number inside a long `coordinates` value: starts a helper on the
    /// window's tail when the last one has been walked past and enough bytes are ahead.
    @inline(__always)
    func considerLookahead() {
        if base + position >= nextLookaheadCheck { startLookahead() }
    }

    private func startLookahead() {
        let here = base + position
        if end - position < lookaheadMinimumBytes {
            // Too little ahead: look again after some more bytes (a refill is near).
            nextLookaheadCheck = here + (lookaheadMinimumBytes >> 4)
            return
        }
        if let running = lookahead, !running.isFinished {
            // One helper at a time: its core is busy (or taken by other work); read on alone.
            nextLookaheadCheck = here + (lookaheadMinimumBytes >> 4)
            return
        }
        let from = position + (end - position) * 42 / 100
        do {
            let started = try PositionLookahead(window: bytes, base: base, from: from, to: end, waits: lookaheadWaits)
            lookahead = started
            (lookaheadStart, lookaheadEnd) = (started.regionStart, started.regionEnd)
            nextLookaheadCheck = base + end
        } catch {
            // No thread: read on alone.
            lookahead = nil
            (lookaheadStart, lookaheadEnd) = (0, 0)
            nextLookaheadCheck = Int.max
        }
    }

    /// The position whose first number is at the current offset, if a helper parsed it: its
    /// coordinate, with the scanner moved past the position's `]`.
    @inline(__always)
    func takeLookaheadPosition() -> Coordinate? {
        let here = base + position
        guard here >= lookaheadStart && here < lookaheadEnd, let found = lookahead?.take(numberAt: here) else { return nil }
        positionsTakenAhead += 1
        position = found.end - base
        return found.coordinate
    }

    /// Right after a position (the scanner just past its `]`): the positions that follow it in
    /// the same array, when a helper parsed them as its neighbours, handed to `take` as one
    /// buffer, the scanner moved past the last one's `]`; returns how many (often thousands: a
    /// ring's run of positions costs one call instead of a walk through the grammar each).
    @inline(__always)
    func takeChainedLookaheadPositions(_ take: (UnsafeBufferPointer<Coordinate>) -> Void) -> Int {
        let here = base + position
        guard here > lookaheadStart && here <= lookaheadEnd, let lookahead,
              let run = lookahead.takeChainedRun(after: here, take) else { return 0 }
        position = run.end - base
        positionsTakenAhead += run.count
        return run.count
    }

    /// Moves back (or forward) to an absolute offset still in the window.
    func seek(to absolute: Int) {
        precondition(absolute >= base && absolute <= base + end, "offset no longer in the window")
        position = absolute - base
    }

    /// Advances to just after the next `byte` (e.g. a newline), or to the end of input.
    /// Returns false when the input ended first.
    func skip(through byte: UInt8) throws -> Bool {
        while try position < end || refill() {
            if let hit = memchr(bytes + position, Int32(byte), end - position) {
                position = hit.assumingMemoryBound(to: UInt8.self) - bytes + 1
                return true
            }
            position = end
        }
        return false
    }

    /// Skips any value without building it, checking its JSON syntax (strings are checked for
    /// escapes, control characters and UTF-8; numbers against the JSON grammar). O(bytes), no
    /// allocation for nesting up to 64 levels; nesting is limited to 512 like `readValue`.
    func skipValue() throws {
        // Open containers as bits (1 = object), so a deep value costs no allocation.
        var stack = ContainerStack()
        var expectingValue = true
        while true {
            if expectingValue {
                guard let byte = try peekSignificant() else {
                    throw error(.jsonUnexpectedEnd, "input ended where a value was expected")
                }
                switch byte {
                case UInt8(ascii: "{"):
                    guard stack.depth < 512 else { throw error(.jsonTooDeep, "values nest more than 512 levels deep") }
                    position += 1
                    if try peekSignificant() == UInt8(ascii: "}") {
                        position += 1
                    } else {
                        stack.push(object: true)
                        try skipString()
                        try expect(UInt8(ascii: ":"), "':' after an object key")
                        continue
                    }
                case UInt8(ascii: "["):
                    guard stack.depth < 512 else { throw error(.jsonTooDeep, "values nest more than 512 levels deep") }
                    position += 1
                    if try peekSignificant() == UInt8(ascii: "]") {
                        position += 1
                    } else {
                        stack.push(object: false)
                        continue
                    }
                case UInt8(ascii: "\""):
                    try skipString()
                case UInt8(ascii: "t"): try readLiteral("true")
                case UInt8(ascii: "f"): try readLiteral("false")
                case UInt8(ascii: "n"): try readLiteral("null")
                default:
                    let token = try numberToken()
                    guard token.count > 0, JSONScanner.isNumber(bytes + token.start, count: token.count) else {
                        throw invalidNumber(token)
                    }
                }
                expectingValue = false
            }
            // After a value: done at the top, else ',' or the container's close.
            guard stack.depth > 0 else { return }
            let inObject = stack.topIsObject
            if try commaOrClose(inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                if inObject {
                    try skipString()
                    try expect(UInt8(ascii: ":"), "':' after an object key")
                }
                expectingValue = true
            } else {
                stack.pop()
            }
        }
    }

    /// Skips a string (the opening quote is next) with the checks `readString` makes.
    private func skipString() throws {
        let startOffset = absolutePosition
        try expect(UInt8(ascii: "\""), "a string")
        mark = position
        defer { mark = nil }
        var sawNonASCII = false
        while true {
            guard try position < end || refill() else {
                throw error(.jsonUnexpectedEnd, "input ended inside a string", at: startOffset)
            }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                // Escapes are rare: check this one by decoding it (the bytes are dropped).
                position += 1
                var decoded: [UInt8] = []
                try readEscape(into: &decoded)
                continue
            }
            if byte < 0x20 { throw error(.jsonControlCharacter, "unescaped control character in a string") }
            if byte >= 0x80 { sawNonASCII = true }
            position += 1
        }
        if sawNonASCII,
           String(validating: UnsafeBufferPointer(start: bytes + mark!, count: position - mark!), as: UTF8.self) == nil {
            throw error(.jsonInvalidUtf8, "string is not valid UTF-8", at: startOffset)
        }
        position += 1
    }

    /// True when the bytes follow JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    @inline(__always)
    static func isNumber(_ start: UnsafePointer<UInt8>, count: Int) -> Bool {
        var p = start
        let stop = start + count
        if p < stop && p.pointee == UInt8(ascii: "-") { p += 1 }
        guard p < stop, p.pointee &- 0x30 < 10 else { return false }
        if p.pointee == 0x30 {
            p += 1
        } else {
            repeat { p += 1 } while p < stop && p.pointee &- 0x30 < 10
        }
        if p < stop && p.pointee == UInt8(ascii: ".") {
            p += 1
            guard p < stop, p.pointee &- 0x30 < 10 else { return false }
            repeat { p += 1 } while p < stop && p.pointee &- 0x30 < 10
        }
        if p < stop && p.pointee | 0x20 == UInt8(ascii: "e") {
            p += 1
            if p < stop && (p.pointee == UInt8(ascii: "+") || p.pointee == UInt8(ascii: "-")) { p += 1 }
            guard p < stop, p.pointee &- 0x30 < 10 else { return false }
            repeat { p += 1 } while p < stop && p.pointee &- 0x30 < 10
        }
        return p == stop
    }
}

/// Open JSON containers as a bit stack (1 = object), for skipping without allocating.
private struct ContainerStack {
    private var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private(set) var depth = 0

    @inline(__always)
    mutating func push(object: Bool) {
        let word = depth >> 6, bit = UInt64(1) << UInt64(depth & 63)
        withUnsafeMutableBytes(of: &words) { raw in
            let slots = raw.bindMemory(to: UInt64.self)
            if object { slots[word] |= bit } else { slots[word] &= ~bit }
        }
        depth += 1
    }

    @inline(__always)
    mutating func pop() { depth -= 1 }

    var topIsObject: Bool {
        let index = depth - 1
        return withUnsafeBytes(of: words) { raw in
            raw.bindMemory(to: UInt64.self)[index >> 6] & (UInt64(1) << UInt64(index & 63)) != 0
        }
    }
}

private extension String {
    init(format byte: UInt8) {
        let hex = String(byte, radix: 16, uppercase: true)
        self = "byte 0x" + (byte < 16 ? "0" : "") + hex
    }
}
