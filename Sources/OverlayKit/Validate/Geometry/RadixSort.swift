/// Least-significant-digit radix sort of 64-bit keys, for the chain check's left edges (tens of
/// thousands of keys per polygon on coastlines, where the comparison sort was an eighth of the
/// check). Eleven bits a pass, six passes at most, counted for all passes in one read; a pass
/// whose digit is the same in every key is skipped.
extension Array where Element == UInt64 {
    /// Sorts the keys in increasing order, with the same result as `sort()`. O(n) time and n
    /// keys of extra space; arrays of up to 512 keys take the library's sort.
    mutating func radixSort() {
        let n = count
        guard n > 512 else {
            sort()
            return
        }
        let digitBits = 11, buckets = 1 << 11, passes = 6  // 6 × 11 ≥ 64
        var counts = [Int](repeating: 0, count: passes * buckets)
        var spare = [UInt64](repeating: 0, count: n)
        counts.withUnsafeMutableBufferPointer { counts in
            withUnsafeMutableBufferPointer { keys in
                spare.withUnsafeMutableBufferPointer { spare in
                    @inline(__always) func digit(_ key: UInt64, _ pass: Int) -> Int {
                        Int(truncatingIfNeeded: key >> UInt64(pass * digitBits)) & (buckets - 1)
                    }
                    for key in keys {
                        for pass in 0..<passes { counts[pass * buckets + digit(key, pass)] += 1 }
                    }
                    var source = keys, destination = spare
                    for pass in 0..<passes {
                        let base = pass * buckets
                        // One bucket holding every key: this digit orders nothing.
                        if counts[base + digit(source[0], pass)] == n { continue }
                        var offset = 0
                        for bucket in base..<(base + buckets) {
                            let count = counts[bucket]
                            counts[bucket] = offset
                            offset += count
                        }
                        for key in source {
                            let slot = base + digit(key, pass)
                            destination[counts[slot]] = key
                            counts[slot] += 1
                        }
                        swap(&source, &destination)
                    }
                    // After an odd number of passes the sorted keys are in the spare buffer.
                    if source.baseAddress != keys.baseAddress, let from = source.baseAddress {
                        keys.baseAddress?.update(from: from, count: n)
                    }
                }
            }
        }
    }
}
