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
        /// The symbol's first byte.
        var firstByte: Int { Int(truncatingIfNeeded: key >> UInt64(8 * (length - 1))) }
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
    /// tile, where `Set`'s seeded hashing cost more than the rest of a generation. Emptied by the
    /// slots it filled, so one set serves every generation of a training: filling 8 KB of fresh
    /// slots a generation was a tenth of training.
    private struct SymbolSet {
        // 512 slots hold a table's 255 symbols at most half full, so most sets never grow.
        private var keys = [UInt64](repeating: 0, count: 512)
        private var lengths = [UInt8](repeating: 0, count: 512)  // 0: an empty slot
        private var filled = [Int]()                               // the slots in use

        /// Adds `symbol`; false when it was there already.
        mutating func insert(_ symbol: Symbol) -> Bool {
            if 2 * (filled.count + 1) > keys.count { grow() }
            let mask = keys.count - 1, length = UInt8(truncatingIfNeeded: symbol.length)
            var slot = Int(truncatingIfNeeded: (symbol.key &+ UInt64(symbol.length)) &* 0x9E37_79B9_7F4A_7C15 >> 40) & mask
            while lengths[slot] != 0 {
                if lengths[slot] == length && keys[slot] == symbol.key { return false }
                slot = (slot + 1) & mask
            }
            keys[slot] = symbol.key
            lengths[slot] = length
            filled.append(slot)
            return true
        }

        /// Empties the set, visiting the slots in use only.
        mutating func removeAll() {
            for slot in filled { lengths[slot] = 0 }
            filled.removeAll(keepingCapacity: true)
        }

        private mutating func grow() {
            let old = filled.map { Symbol(key: keys[$0], length: Int(lengths[$0])) }
            keys = [UInt64](repeating: 0, count: 2 * keys.count)
            lengths = [UInt8](repeating: 0, count: keys.count)
            filled.removeAll(keepingCapacity: true)
            for symbol in old { _ = insert(symbol) }
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

    /// A table trained on `strings` (a sample of them when they are long: at most 4 KB). A
    /// function of `strings` alone, through their sample.
    init(training strings: [[UInt8]]) {
        self.init(trainingSample: Self.sample(strings))
    }

    /// The part of `strings` a table is trained on: every string while they hold at most 4 KB,
    /// else evenly spaced ones, up to 4 KB in all.
    static func sample(_ strings: [[UInt8]]) -> [[UInt8]] {
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
        return sample
    }

    /// A table trained on `sample` (from `sample(_:)`). The counts and candidates are kept in
    /// flat lists, pairs in an open-addressing count table, candidates sorted as packed
    /// integers: training runs once per string column of every MLT tile, so it must cost little
    /// beside the tile's encoding.
    init(trainingSample sample: [[UInt8]]) {
        // Which strings each generation counts: a fixed hash of the string's place in the sample
        // below the generation's fraction (of 128), so the choice depends on the sample alone.
        let draws = sample.indices.map { Int(truncatingIfNeeded: (UInt64($0 + 1) &* 0x9E37_79B9_7F4A_7C15) >> 57) }
        var symbols = [Symbol]()
        var single = [Int](repeating: 0, count: 512)               // zeroed again as it is read
        var pairs = PairCounts(), seen = SymbolSet(), candidates = Candidates()
        for fraction in Self.sampleFractions {
            let table = MLTFSST(trained: symbols)                  // a local: no access to `self` a byte
            let last = fraction >= 128
            // Counts by code: a symbol's index, or 256 + byte for an escaped byte.
            if !last { pairs.removeAll() }
            for (index, string) in sample.enumerated() where draws[index] < fraction {
                string.withUnsafeBufferPointer { string in
                    var position = 0, previous = -1
                    while position < string.count {
                        let (code, length) = table.match(string, at: position)
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
            // were found (singles by code, pairs as first counted).
            candidates.removeAll()
            for key in single.indices where single[key] > 0 {
                candidates.consider(symbol(key), count: single[key])
                single[key] = 0
            }
            if !last {
                for slot in 0..<pairs.count {
                    let (key, count) = pairs[slot]
                    let first = symbol(Int(key) >> 9)
                    if count > 1 && first.length < 8 { candidates.consider(first.joined(symbol(Int(key) & 511)), count: count) }
                }
            }
            candidates.order.sort()
            var chosen = [Symbol]()
            chosen.reserveCapacity(Self.maximumSymbols)
            seen.removeAll()
            for packed in candidates.order where chosen.count < Self.maximumSymbols {
                let candidate = candidates.symbols[Int(truncatingIfNeeded: packed & 0xFFFF_FFFF)]
                if seen.insert(candidate) { chosen.append(candidate) }
            }
            symbols = chosen
        }
        self = MLTFSST(trained: symbols)
    }

    /// A generation's candidates, and each one's gain and place packed into one integer that
    /// sorts by gain, then by place, with no comparison closure.
    private struct Candidates {
        var symbols = [Symbol]()
        var order = [UInt64]()

        mutating func removeAll() {
            symbols.removeAll(keepingCapacity: true)
            order.removeAll(keepingCapacity: true)
        }

        /// Adds `candidate` found `count` times, unless its gain (count × length) is at most 1.
        mutating func consider(_ candidate: Symbol, count: Int) {
            let gain = count * candidate.length
            guard gain > 1 else { return }
            // Gains are below 2^16 · 8 (a sample of 4 KB), candidates below 2^32.
            order.append(UInt64(UInt32.max - UInt32(truncatingIfNeeded: gain)) << 32 | UInt64(symbols.count))
            symbols.append(candidate)
        }
    }

    /// Counts of pairs of codes (each below 2^18) in an open-addressing table at most half full,
    /// emptied for each generation: counting by sorting the pairs took a third of training. The
    /// table grows with the distinct pairs, not the pairs counted: sized for every pair of the
    /// sample, filling its fresh slots was a sixth of training.
    private struct PairCounts {
        private var keys = [Int32](repeating: -1, count: 64)   // -1: an empty slot
        private var counts = [Int32](repeating: 0, count: 64)
        private var used = [Int32]()              // the slots filled, in the order they were filled

        /// Empties the table (it only grows: emptying visits the slots used, not the whole table).
        mutating func removeAll() {
            for slot in used { keys[Int(slot)] = -1; counts[Int(slot)] = 0 }
            used.removeAll(keepingCapacity: true)
        }

        /// Twice the slots, the keys counted so far placed again in the order first counted.
        private mutating func grow() {
            let old = used.map { (keys[Int($0)], counts[Int($0)]) }
            keys = [Int32](repeating: -1, count: 2 * keys.count)
            counts = [Int32](repeating: 0, count: keys.count)
            used.removeAll(keepingCapacity: true)
            let mask = keys.count - 1
            for (key, count) in old {
                var slot = Int(truncatingIfNeeded: (UInt64(UInt32(key)) &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
                while keys[slot] >= 0 { slot = (slot + 1) & mask }
                keys[slot] = key
                counts[slot] = count
                used.append(Int32(slot))
            }
        }

        /// Counts one more `key`.
        @inline(__always)
        mutating func add(_ key: Int32) {
            if 2 * (used.count + 1) > keys.count { grow() }
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

        /// The keys counted.
        var count: Int { used.count }

        /// The `index`th key first counted, and its count.
        subscript(index: Int) -> (Int32, Int) {
            let slot = Int(used[index])
            return (keys[slot], Int(counts[slot]))
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
        var byteCount = 0
        for symbol in kept {
            entries.append(Entry(key: symbol.key, length: symbol.length, code: UInt8(symbolLengths.count)))
            symbolLengths.append(UInt32(symbol.length))
            byteCount += symbol.length
        }
        symbolBytes = [UInt8](repeating: 0, count: byteCount)
        symbolBytes.withUnsafeMutableBufferPointer { bytes in
            var at = 0
            for symbol in kept {
                for index in stride(from: symbol.length - 1, through: 0, by: -1) {
                    bytes[at] = UInt8(truncatingIfNeeded: symbol.key >> UInt64(8 * index))
                    at += 1
                }
            }
        }
        // Sorted by first byte, longest first, equal lengths in code order: each first byte's run
        // counted and summed into starts, the symbols placed into their runs in code order, then
        // each run ordered by length by insertion (runs are short; a table is built every
        // generation of a training, where sorting the whole table cost more than counting).
        for entry in entries { firstByteStarts[entry.firstByte + 1] += 1 }
        for byte in 0..<256 { firstByteStarts[byte + 1] += firstByteStarts[byte] }
        var next = firstByteStarts
        let unsorted = entries
        for entry in unsorted {
            entries[Int(next[entry.firstByte])] = entry
            next[entry.firstByte] += 1
        }
        for byte in 0..<256 {
            let start = Int(firstByteStarts[byte]), end = Int(firstByteStarts[byte + 1])
            guard end - start > 1 else { continue }
            for index in start + 1..<end {
                let entry = entries[index]
                var place = index
                while place > start && entries[place - 1].length < entry.length {
                    entries[place] = entries[place - 1]
                    place -= 1
                }
                entries[place] = entry
            }
        }
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
