#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

extension XMLStreamReader {
    /// The most recent input, as the chunks libxml2 was handed (newest last), to find columns
    /// for diagnostics; the reader adds each batch's chunks as it takes the batch, so the window
    /// ends where the parser was when the events being read were queued.
    final class LineWindow {
        /// `windowStart` is the absolute offset of the first byte of `chunks[0]`. Whole chunks
        /// are dropped once the rest still covers `windowSize` bytes, so each byte is copied once.
        @exclusivity(unchecked) private var chunks: [[UInt8]] = []
        @exclusivity(unchecked) private var windowStart = 0
        @exclusivity(unchecked) private var windowCount = 0
        /// Absolute offsets of the newlines inside the window.
        @exclusivity(unchecked) private var newlines: [Int] = []
        @exclusivity(unchecked) private var newlinesHead = 0
        @exclusivity(unchecked) private var newlinesBeforeWindow = 0
        private static let windowSize = 4 << 20

        func remember(_ chunk: [UInt8]) {
            guard chunk.count > 0 else { return }
            let base = windowStart + windowCount
            chunks.append(chunk)
            windowCount += chunk.count
            // memchr finds newlines at memory speed.
            chunk.withUnsafeBytes { bytes in
                var index = 0
                while index < bytes.count, let hit = memchr(bytes.baseAddress! + index, 0x0A, bytes.count - index) {
                    let position = bytes.baseAddress!.distance(to: UnsafeRawPointer(hit))
                    newlines.append(base + position)
                    index = position + 1
                }
            }
            while let first = chunks.first, windowCount - first.count >= LineWindow.windowSize {
                chunks.removeFirst()
                windowCount -= first.count
                windowStart += first.count
                while newlinesHead < newlines.count && newlines[newlinesHead] < windowStart {
                    newlinesHead += 1
                    newlinesBeforeWindow += 1
                }
            }
            if newlinesHead > 4096 && newlinesHead * 2 > newlines.count {
                newlines.removeFirst(newlinesHead)
                newlinesHead = 0
            }
        }

        /// The 1-based byte column of the first `needle` on `line` (after `anchor`, when given).
        /// Diagnostics only: a byte-by-byte search of one line.
        func column(onLine line: Int, of needle: [UInt8], after anchor: [UInt8]?) -> Int? {
            let index = newlinesHead + line - 2 - newlinesBeforeWindow  // the newline ending line-1
            let lineStart: Int
            if line == 1 && windowStart == 0 {
                lineStart = 0
            } else if index >= newlinesHead && index < newlines.count {
                lineStart = newlines[index] + 1
            } else {
                return nil
            }
            let lineEnd = index + 1 < newlines.count ? newlines[index + 1] : windowStart + windowCount
            var from = lineStart
            if let anchor {
                guard let found = find(anchor, from: from, to: lineEnd) else { return nil }
                from = found + anchor.count
            }
            guard let found = find(needle, from: from, to: lineEnd) else { return nil }
            return found - lineStart + 1
        }

        /// The absolute offset of the first `needle` in [from, to), walking the chunks once.
        private func find(_ needle: [UInt8], from: Int, to: Int) -> Int? {
            guard !needle.isEmpty, from >= windowStart, to <= windowStart + windowCount, to - from >= needle.count else { return nil }
            // Copy just the searched range out of the chunks (one line: small).
            var range: [UInt8] = []
            range.reserveCapacity(to - from)
            // The line is recent: find its first chunk walking back from the newest (the window
            // holds about a thousand chunks; features ask for their column one by one).
            var chunk = chunks.count - 1
            var chunkStart = windowStart + windowCount - chunks[chunk].count
            while chunkStart > from && chunk > 0 {
                chunk -= 1
                chunkStart -= chunks[chunk].count
            }
            while chunk < chunks.count {
                let chunkEnd = chunkStart + chunks[chunk].count
                if chunkEnd > from && chunkStart < to {
                    range.append(contentsOf: chunks[chunk][max(from, chunkStart) - chunkStart..<min(to, chunkEnd) - chunkStart])
                }
                if chunkEnd >= to { break }
                chunkStart = chunkEnd
                chunk += 1
            }
            var index = 0
            while index + needle.count <= range.count {
                if range[index] == needle[0] && range[index..<index + needle.count].elementsEqual(needle) { return from + index }
                index += 1
            }
            return nil
        }
    }
}
