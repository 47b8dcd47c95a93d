import OverlayModel

extension JSONValue {
    /// The value as compact JSON text (UTF-8), numbers with the fewest digits that round-trip.
    public var jsonBytes: [UInt8] {
        var out = JSONBytes()
        out.appendValue(self)
        return out.bytes
    }
}
