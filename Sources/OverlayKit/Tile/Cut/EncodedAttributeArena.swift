import OverlayModel

/// The stored ids and properties (a record's attribute bytes, `StoredRecord`) of the points a dense tile holds
/// while it is built from records, one slot each, handed to the tile as its
/// ``DeferredTileAttributes``: the points stay a few dozen bytes each until the tile is
/// encoded, instead of a few hundred decoded.
struct EncodedAttributeArena {
    private var bytes = [UInt8]()
    /// By slot: where its bytes start (they run to the next slot's start, or the end).
    private var starts = [Int]()
    /// By feature of the tile: its slot, or -1 when the feature carries its own attributes.
    private var slots = [Int32]()

    /// True while another slot can be numbered.
    var hasFreeSlot: Bool { starts.count < Int(Int32.max) }

    /// Keeps `attributes` for the next feature of the tile (`hasFreeSlot` must be true).
    mutating func appendSlot(_ attributes: UnsafeRawBufferPointer) {
        slots.append(Int32(starts.count))
        starts.append(bytes.count)
        bytes.append(contentsOf: attributes)
    }

    /// The next feature of the tile carries its own attributes.
    mutating func appendOwn() { slots.append(-1) }

    /// Keeps the features at `indices` (ascending), dropping the bytes of the others.
    mutating func keep(at indices: [Int]) {
        var keptBytes = [UInt8](), keptStarts = [Int](), keptSlots = [Int32]()
        keptSlots.reserveCapacity(indices.count)
        for index in indices {
            let slot = slots[index]
            guard slot >= 0 else {
                keptSlots.append(-1)
                continue
            }
            let range = self.range(Int(slot))
            keptSlots.append(Int32(keptStarts.count))
            keptStarts.append(keptBytes.count)
            keptBytes += bytes[range]
        }
        (bytes, starts, slots) = (keptBytes, keptStarts, keptSlots)
    }

    /// The tile's deferred attributes; nil when every feature carries its own.
    func deferred() -> DeferredTileAttributes? {
        guard !starts.isEmpty else { return nil }
        return DeferredTileAttributes(storage: Storage(bytes: bytes, starts: starts), slots: slots)
    }

    private func range(_ slot: Int) -> Range<Int> {
        starts[slot]..<(slot + 1 < starts.count ? starts[slot + 1] : bytes.count)
    }

    /// The arena once the tile is built: read only, from any thread.
    private final class Storage: DeferredAttributeStorage {
        let bytes: [UInt8]
        let starts: [Int]

        init(bytes: [UInt8], starts: [Int]) {
            self.bytes = bytes
            self.starts = starts
        }

        func attributes(slot: Int, source: Int) -> TileAttributes {
            let end = slot + 1 < starts.count ? starts[slot + 1] : bytes.count
            return bytes.withUnsafeBytes {
                StoredRecord.attributes(UnsafeRawBufferPointer(rebasing: $0[starts[slot]..<end]), source: source)
            }
        }
    }
}
