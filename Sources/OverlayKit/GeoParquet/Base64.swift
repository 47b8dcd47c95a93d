/// RFC 4648 base64, for binary columns.
enum Base64 {
    /// `bytes` in base64 with padding.
    static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var output = [UInt8]()
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let a = iterator.next() {
            let b = iterator.next()
            let c = iterator.next()
            let triple = UInt32(a) << 16 | UInt32(b ?? 0) << 8 | UInt32(c ?? 0)
            output.append(table[Int(triple >> 18 & 63)])
            output.append(table[Int(triple >> 12 & 63)])
            output.append(b == nil ? UInt8(ascii: "=") : table[Int(triple >> 6 & 63)])
            output.append(c == nil ? UInt8(ascii: "=") : table[Int(triple & 63)])
        }
        return String(decoding: output, as: UTF8.self)
    }
}
