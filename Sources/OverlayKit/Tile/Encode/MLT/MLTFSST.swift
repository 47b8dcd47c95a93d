/// FSST string compression (Boncz, Neumann, Leis, VLDB 2020), as MapLibre Tiles store it: a
/// table of up to 255 symbols of 1…8 bytes, and each string as symbol codes, with code 255
/// escaping one literal byte. The table is trained the paper's way, in a few generations over a
/// sample: compress with the current table, count each symbol and each pair of adjacent symbols,
/// and keep the 255 with the largest gain (count × length).
struct MLTFSST {
    /// Symbol bytes, one symbol after another.
    private(set) var symbolBytes = [UInt8]()
    /// Each symbol's length.
    private(set) var symbolLengths = [UInt32]()
    /// Symbol code by packed bytes, one table per symbol length (index 0 unused).
    private var codes = [[UInt64: UInt8]](repeating: [:], count: 9)
    private var longest = 0

    static let escape: UInt8 = 255
    private static let maximumSymbols = 255
    private static let sampleBytes = 8 * 1024
    private static let generations = 5

    /// A table trained on `strings` (a sample of them when they are long).
    init(training strings: [[UInt8]]) {
        var sample = [[UInt8]]()
        var total = 0
        let stride = max(1, strings.reduce(0) { $0 + $1.count } / Self.sampleBytes)
        for (index, string) in strings.enumerated() where index % stride == 0 {
            sample.append(string)
            total += string.count
            if total >= Self.sampleBytes { break }
        }
        var symbols = [[UInt8]]()
        for _ in 0..<Self.generations {
            self = MLTFSST(symbols: symbols)
            // Counts by code: a symbol's index, or 256 + byte for an escaped byte.
            var single = [Int](repeating: 0, count: 512), pairs = [Int: Int]()
            pairs.reserveCapacity(total)
            for string in sample {
                var position = 0, previous = -1
                while position < string.count {
                    let (code, length) = match(string, at: position)
                    let key = code.map(Int.init) ?? 256 + Int(string[position])
                    single[key] += 1
                    if previous >= 0 { pairs[previous << 9 | key, default: 0] += 1 }
                    previous = key
                    position += length
                }
            }
            var current = [[UInt8]](), offset = 0                        // the table's symbols by code
            for length in symbolLengths {
                current.append(Array(symbolBytes[offset..<offset + Int(length)]))
                offset += Int(length)
            }
            func symbol(_ key: Int) -> [UInt8] { key < 256 ? current[key] : [UInt8(key - 256)] }
            var candidates = [(gain: Int, symbol: [UInt8])]()
            for (key, count) in single.enumerated() where count > 0 {
                let bytes = symbol(key)
                candidates.append((count * bytes.count, bytes))
            }
            for (key, count) in pairs where count > 1 {
                let joined = Array((symbol(key >> 9) + symbol(key & 511)).prefix(8))
                candidates.append((count * joined.count, joined))
            }
            candidates.sort { $0.gain != $1.gain ? $0.gain > $1.gain : $0.symbol.lexicographicallyPrecedes($1.symbol) }
            var chosen = [[UInt8]](), seen = Set<[UInt8]>()
            for candidate in candidates where chosen.count < Self.maximumSymbols && candidate.gain > 1 {
                if seen.insert(candidate.symbol).inserted { chosen.append(candidate.symbol) }
            }
            symbols = chosen
        }
        self = MLTFSST(symbols: symbols)
    }

    /// A table of the given symbols (at most 255, each 1…8 bytes).
    init(symbols: [[UInt8]]) {
        for symbol in symbols.prefix(Self.maximumSymbols) where (1...8).contains(symbol.count) {
            let key = Self.key(symbol[...])
            guard codes[symbol.count][key] == nil else { continue }
            codes[symbol.count][key] = UInt8(symbolLengths.count)
            symbolLengths.append(UInt32(symbol.count))
            symbolBytes += symbol
            longest = max(longest, symbol.count)
        }
    }

    @inline(__always)
    private static func key(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var packed: UInt64 = 0
        for byte in bytes { packed = packed << 8 | UInt64(byte) }
        return packed
    }

    /// The longest symbol at `position` (code and length), or nil and 1 for an escaped byte.
    @inline(__always)
    private func match(_ string: [UInt8], at position: Int) -> (UInt8?, Int) {
        var length = min(longest, string.count - position)
        while length > 0 {
            if let code = codes[length][Self.key(string[position..<position + length])] { return (code, length) }
            length -= 1
        }
        return (nil, 1)
    }

    /// `string` as codes.
    func compress(_ string: [UInt8], into out: inout [UInt8]) {
        var position = 0
        while position < string.count {
            let (code, length) = match(string, at: position)
            if let code { out.append(code) } else {
                out.append(Self.escape)
                out.append(string[position])
            }
            position += length
        }
    }

    /// Expands codes with a table given as bytes and lengths.
    static func decompress(_ compressed: ArraySlice<UInt8>, symbolBytes: ArraySlice<UInt8>, symbolLengths: [UInt64],
                           reader: MLTWire.Reader) throws -> [UInt8] {
        guard symbolLengths.count <= 256, symbolLengths.allSatisfy({ $0 <= 8 }) else {
            throw reader.failure("an FSST symbol table of \(symbolLengths.count) symbols or a symbol over 8 bytes")
        }
        var offsets = [Int](), offset = symbolBytes.startIndex
        for length in symbolLengths {
            offsets.append(offset)
            offset += Int(length)
        }
        guard offset <= symbolBytes.endIndex else {
            throw reader.failure("FSST symbol lengths exceed the symbol table")
        }
        var out = [UInt8]()
        out.reserveCapacity(compressed.count * 3)
        var index = compressed.startIndex
        while index < compressed.endIndex {
            let code = compressed[index]
            index += 1
            if code == escape {
                guard index < compressed.endIndex else { throw reader.failure("FSST escape at the end") }
                out.append(compressed[index])
                index += 1
            } else {
                guard Int(code) < offsets.count else { throw reader.failure("FSST code \(code) beyond the table") }
                out += symbolBytes[offsets[Int(code)]..<offsets[Int(code)] + Int(symbolLengths[Int(code)])]
            }
        }
        return out
    }
}
