/// FSST string compression (Boncz, Neumann, Leis, VLDB 2020), as MapLibre Tiles store it: a
/// table of up to 255 symbols of 1…8 bytes, and each string as symbol codes, with code 255
/// escaping one literal byte. The table is trained the paper's way, in five generations over a
/// growing part of a sample: compress with the current table, count each symbol and each pair of
/// adjacent symbols, and keep the 255 with the largest gain (count × length).
struct MLTFSST {
    /// Symbol bytes, one symbol after another.
    private(set) var symbolBytes = [UInt8]()
    /// Each symbol's length.
    private(set) var symbolLengths = [UInt32]()
    /// The symbols sorted by first byte, longest first within a first byte (so the first that
    /// matches is the longest match), and where each first byte's run starts (257 entries).
    private var entries = [Entry]()
    private var firstByteStarts = [UInt16](repeating: 0, count: 257)

    /// A symbol: its bytes packed big-endian into the low `length` bytes, and its code.
    private struct Entry {
        var key: UInt64
        var length: Int
        var code: UInt8
        /// First byte, then longest first: the order `entries` is sorted in.
        var order: Int { Int(key >> UInt64(8 * (length - 1))) << 4 | (8 - length) }
    }

    /// A symbol while a table is trained: packed as `Entry.key`.
    private struct Symbol: Equatable {
        var key: UInt64
        var length: Int

        /// The first `8 − length` bytes of `next` appended (symbols are at most 8 bytes).
        func joined(_ next: Symbol) -> Symbol {
            let room = min(next.length, 8 - length)
            return Symbol(key: key << UInt64(8 * room) | next.key >> UInt64(8 * (next.length - room)), length: length + room)
        }

    }

    /// A set of symbols (open addressing, linear probing): training asks it thousands of times a
    /// tile, where `Set`'s seeded hashing cost more than the rest of a generation.
    private struct SymbolSet {
        // 512 slots hold a table's 255 symbols at most half full, so most sets never grow.
        private var keys = [UInt64](repeating: 0, count: 512)
        private var lengths = [Int](repeating: 0, count: 512)   // 0: an empty slot
        private var count = 0

        /// Adds `symbol`; false when it was there already.
        mutating func insert(_ symbol: Symbol) -> Bool {
            if 2 * (count + 1) > keys.count { grow() }
            let mask = keys.count - 1
            var slot = Int(truncatingIfNeeded: (symbol.key &+ UInt64(symbol.length)) &* 0x9E37_79B9_7F4A_7C15 >> 40) & mask
            while lengths[slot] != 0 {
                if lengths[slot] == symbol.length && keys[slot] == symbol.key { return false }
                slot = (slot + 1) & mask
            }
            keys[slot] = symbol.key
            lengths[slot] = symbol.length
            count += 1
            return true
        }

        private mutating func grow() {
            let old = zip(keys, lengths).filter { $0.1 != 0 }
            keys = [UInt64](repeating: 0, count: 2 * keys.count)
            lengths = [Int](repeating: 0, count: keys.count)
            count = 0
            for (key, length) in old { _ = insert(Symbol(key: key, length: length)) }
        }
    }

    static let escape: UInt8 = 255
    private static let maximumSymbols = 255
    /// The most text a table is trained on: training takes time in proportion (at 8 KB it was
    /// half of a building tile set's MLT encoding); docs/tile.md has what 4 KB costs in bytes.
    private static let sampleBytes = 4 * 1024
    /// The part of the sample (of 128) each generation counts, as the paper's reference
    /// implementation (libfsst) grows it: early tables are rough, so counting all of the sample
    /// with them costs time for little; the last generation counts it all and makes no pairs.
    private static let sampleFractions = [8, 38, 68, 98, 128]

    /// A table trained on `strings` (a sample of them when they are long: at most 4 KB). The
    /// counts and candidates are kept in flat lists, pairs in an open-addressing count table,
    /// candidates sorted as packed integers: training runs once per string column of every MLT
    /// tile, so it must cost little beside the tile's encoding. A function of `strings` alone.
    init(training strings: [[UInt8]]) {
        var sample = [[UInt8]]()
        var total = 0
        let stride = max(1, strings.reduce(0) { $0 + $1.count } / Self.sampleBytes)
        for (index, string) in strings.enumerated() where index % stride == 0 {
            // A long string is sampled by its start, so no string makes the sample long.
            let taken = min(string.count, Self.sampleBytes - total)
            sample.append(taken == string.count ? string : Array(string[..<taken]))
            total += taken
            if total >= Self.sampleBytes { break }
        }
        // Which strings each generation counts: a fixed hash of the string's place in the sample
        // below the generation's fraction (of 128), so the choice depends on the sample alone.
        let draws = sample.indices.map { Int(truncatingIfNeeded: (UInt64($0 + 1) &* 0x9E37_79B9_7F4A_7C15) >> 57) }
        var symbols = [Symbol]()
        var single = [Int](repeating: 0, count: 512)
        var pairs = PairCounts()
        var candidates = [Symbol](), order = [UInt64]()
        for fraction in Self.sampleFractions {
            self = MLTFSST(trained: symbols)
            let last = fraction >= 128
            // Counts by code: a symbol's index, or 256 + byte for an escaped byte.
            for index in single.indices { single[index] = 0 }
            var counted = 0
            for (index, string) in sample.enumerated() where draws[index] < fraction { counted += string.count }
            if !last { pairs.reset(forAtMost: counted) }
            for (index, string) in sample.enumerated() where draws[index] < fraction {
                string.withUnsafeBufferPointer { string in
                    var position = 0, previous = -1
                    while position < string.count {
                        let (code, length) = match(string, at: position)
                        let key = code.map(Int.init) ?? 256 + Int(string[position])
                        single[key] += 1
                        if !last && previous >= 0 { pairs.add(Int32(previous << 9 | key)) }
                        previous = key
                        position += length
                    }
                }
            }
            let current = symbols
            func symbol(_ key: Int) -> Symbol { key < 256 ? current[key] : Symbol(key: UInt64(key - 256), length: 1) }
            // Candidates with their gain (count × length), ordered by gain, then by when they
            // were found (singles by code, pairs as first counted): one packed integer each.
            candidates.removeAll(keepingCapacity: true)
            order.removeAll(keepingCapacity: true)
            func consider(_ candidate: Symbol, count: Int) {
                let gain = count * candidate.length
                guard gain > 1 else { return }
                // Gains are below 2^16 · 8 (a sample of 4 KB), candidates below 2^32.
                order.append(UInt64(UInt32.max - UInt32(gain)) << 32 | UInt64(candidates.count))
                candidates.append(candidate)
            }
            for (key, count) in single.enumerated() where count > 0 { consider(symbol(key), count: count) }
            if !last {
                pairs.forEach { key, count in
                    let first = symbol(Int(key) >> 9)
                    if count > 1 && first.length < 8 { consider(first.joined(symbol(Int(key) & 511)), count: count) }
                }
            }
            order.sort()
            var chosen = [Symbol](), seen = SymbolSet()
            for packed in order where chosen.count < Self.maximumSymbols {
                let candidate = candidates[Int(truncatingIfNeeded: packed & 0xFFFF_FFFF)]
                if seen.insert(candidate) { chosen.append(candidate) }
            }
            symbols = chosen
        }
        self = MLTFSST(trained: symbols)
    }

    /// Counts of pairs of codes (each below 2^18) in an open-addressing table at most half full,
    /// emptied for each generation: counting by sorting the pairs took a third of training.
    private struct PairCounts {
        private var keys = [Int32]()              // -1: an empty slot
        private var counts = [Int32]()
        private var used = [Int32]()              // the slots filled, in the order they were filled

        /// Empties the table for at most `count` pairs (it only grows: emptying visits the
        /// slots used, not the whole table).
        mutating func reset(forAtMost count: Int) {
            var capacity = 64
            while capacity < 2 * count { capacity *= 2 }
            if keys.count < capacity {
                keys = [Int32](repeating: -1, count: capacity)
                counts = [Int32](repeating: 0, count: capacity)
            } else {
                for slot in used { keys[Int(slot)] = -1; counts[Int(slot)] = 0 }
            }
            used.removeAll(keepingCapacity: true)
        }

        /// Counts one more `key`; at most as many distinct keys as `reset` was given.
        @inline(__always)
        mutating func add(_ key: Int32) {
            let mask = keys.count - 1
            var slot = Int(truncatingIfNeeded: (UInt64(UInt32(key)) &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
            while true {
                let held = keys[slot]
                if held == key { counts[slot] += 1; return }
                if held < 0 {
                    keys[slot] = key
                    counts[slot] = 1
                    used.append(Int32(slot))
                    return
                }
                slot = (slot + 1) & mask
            }
        }

        /// Each key counted and its count, in the order first counted.
        func forEach(_ body: (Int32, Int) -> Void) {
            for slot in used { body(keys[Int(slot)], Int(counts[Int(slot)])) }
        }
    }

    /// A table of the given symbols (at most 255, each 1…8 bytes; the first of equal ones kept).
    init(symbols: [[UInt8]]) {
        var unique = [Symbol](), seen = SymbolSet()
        for bytes in symbols where (1...8).contains(bytes.count) {
            let symbol = Symbol(key: bytes.reduce(0) { $0 << 8 | UInt64($1) }, length: bytes.count)
            if seen.insert(symbol) { unique.append(symbol) }
        }
        self.init(trained: unique)
    }

    /// A table of `symbols` (distinct, 1…8 bytes each) in order: codes by position, at most 255.
    private init(trained symbols: [Symbol]) {
        let kept = symbols.prefix(Self.maximumSymbols)
        entries.reserveCapacity(kept.count)
        symbolLengths.reserveCapacity(kept.count)
        symbolBytes.reserveCapacity(8 * kept.count)
        for symbol in kept {
            entries.append(Entry(key: symbol.key, length: symbol.length, code: UInt8(symbolLengths.count)))
            symbolLengths.append(UInt32(symbol.length))
            for index in stride(from: symbol.length - 1, through: 0, by: -1) {
                symbolBytes.append(UInt8(truncatingIfNeeded: symbol.key >> UInt64(8 * index)))
            }
        }
        // Sorted by order, equal orders in code order (as a stable sort leaves them): one packed
        // integer a symbol sorts without a comparison closure, a table is built every generation.
        var keys = entries.map { UInt32($0.order) << 8 | UInt32($0.code) }
        keys.sort()
        let unsorted = entries
        for (index, key) in keys.enumerated() { entries[index] = unsorted[Int(key & 0xFF)] }
        // Each first byte's run: counted, then summed into starts.
        for entry in entries { firstByteStarts[entry.order >> 4 + 1] += 1 }
        for byte in 0..<256 { firstByteStarts[byte + 1] += firstByteStarts[byte] }
    }

    /// The longest symbol at `position` (code and length), or nil and 1 for an escaped byte.
    /// `string` is a buffer: training matches every byte of its sample five times over.
    @inline(__always)
    private func match(_ string: UnsafeBufferPointer<UInt8>, at position: Int) -> (UInt8?, Int) {
        let first = Int(string[position])
        let start = Int(firstByteStarts[first]), end = Int(firstByteStarts[first + 1])
        guard start < end else { return (nil, 1) }
        let available = min(8, string.count - position)
        var window: UInt64 = 0
        if available == 8, let base = string.baseAddress {
            // The next 8 bytes at once, the first as the most significant.
            window = UInt64(bigEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
        } else {
            for offset in 0..<available { window = window << 8 | UInt64(string[position + offset]) }
        }
        for index in start..<end {
            let entry = entries[index]
            if entry.length <= available && window >> UInt64(8 * (available - entry.length)) == entry.key {
                return (entry.code, entry.length)
            }
        }
        return (nil, 1)
    }

    /// `string` as codes.
    func compress(_ string: [UInt8], into out: inout [UInt8]) {
        string.withUnsafeBufferPointer { string in
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
