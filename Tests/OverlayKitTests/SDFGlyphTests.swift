import OverlayKit
import OverlayKitTestFixtures
import XCTest

/// The label glyphs `serve` makes: the distance transform against brute force, the signed
/// distance field against known distances, and DejaVu Sans's glyphs PBF read back with a
/// decoder written here (not the encoder's code) — metrics a font of that size must have.
final class SDFGlyphTests: XCTestCase {
    // MARK: Distance transform

    func testDistanceTransformEqualsBruteForce() {
        var generator = SeededGenerator(seed: 7)
        for (width, height) in [(1, 1), (1, 9), (9, 1), (17, 11), (32, 32)] {
            for density in [0.02, 0.2, 0.7] {
                let shape = (0..<(width * height)).map { _ in Double(generator.next() % 1000) / 1000 < density }
                var grid = shape.map { $0 ? 0 : EuclideanDistanceTransform.far }
                EuclideanDistanceTransform.transform(&grid, width: width, height: height)
                let cells = shape.indices.filter { shape[$0] }
                for index in 0..<(width * height) {
                    let (x, y) = (index % width, index / width)
                    let nearest = cells.map { cell -> Double in
                        let dx = Double(cell % width - x), dy = Double(cell / width - y)
                        return dx * dx + dy * dy
                    }.min() ?? EuclideanDistanceTransform.far
                    XCTAssertEqual(grid[index], nearest, accuracy: nearest == EuclideanDistanceTransform.far ? 1e6 : 1e-9,
                                   "\(width)×\(height) density \(density) cell (\(x), \(y))")
                }
            }
        }
    }

    func testDistanceTransformKeepsSeededFractions() {
        // One cell seeded with 0.25² (an edge a quarter pixel away): two cells further it is 2 + 0.25 … squared parts add.
        var grid = [Double](repeating: EuclideanDistanceTransform.far, count: 5)
        grid[1] = 0.0625
        EuclideanDistanceTransform.transform(&grid, width: 5, height: 1)
        XCTAssertEqual(grid, [1.0625, 0.0625, 1.0625, 4.0625, 9.0625])
    }

    // MARK: Signed distance field

    /// The distance a field byte stands for (negative inside), by MapLibre's encoding.
    private func distance(_ byte: UInt8) -> Double { ((255 - Double(byte)) / 255 - SDFGlyphFont.cutoff) * SDFGlyphFont.radius }

    func testFieldOfAStraightEdgeIsTheDistanceToIt() {
        // Columns 0…9 covered, column 10 half covered (the edge through its center), the rest empty.
        let width = 24, height = 5
        var mask = [UInt8](repeating: 0, count: width * height)
        for row in 0..<height {
            for column in 0..<10 { mask[row * width + column] = 255 }
            mask[row * width + 10] = 128
        }
        let field = SignedDistanceField.encode(coverage: mask, width: width, height: height, radius: 8, cutoff: 0.25)
        for column in 0..<width {
            let trueDistance = Double(column - 10)
            let expected = UInt8(max(0, min(255, (255 - 255 * (trueDistance / 8 + 0.25)).rounded())))
            // 128/255 is not exactly one half: the edge pixel is off by 0.002 px.
            XCTAssertEqual(Double(field[2 * width + column]), Double(expected), accuracy: 1, "column \(column)")
        }
        XCTAssertEqual(field[2 * width + 10], 191, "the edge is MapLibre's 0.75")
    }

    func testFieldOfADiscIsCloseToTheTrueDistance() {
        // A disc with anti-aliased coverage from 16 × 16 samples a pixel.
        let size = 40, center = (x: 19.3, y: 20.6), radius = 9.0
        var mask = [UInt8](repeating: 0, count: size * size)
        for y in 0..<size {
            for x in 0..<size {
                var inside = 0
                for sy in 0..<16 {
                    for sx in 0..<16 {
                        let px = Double(x) + (Double(sx) + 0.5) / 16 - center.x, py = Double(y) + (Double(sy) + 0.5) / 16 - center.y
                        if px * px + py * py <= radius * radius { inside += 1 }
                    }
                }
                mask[y * size + x] = UInt8((Double(inside) * 255 / 256).rounded())
            }
        }
        let field = SignedDistanceField.encode(coverage: mask, width: size, height: size, radius: 8, cutoff: 0.25)
        var nearErrors = [Double](), farErrors = [Double]()
        for y in 0..<size {
            for x in 0..<size {
                let dx = Double(x) + 0.5 - center.x, dy = Double(y) + 0.5 - center.y
                let trueDistance = (dx * dx + dy * dy).squareRoot() - radius
                // Within what the byte can hold: 2 pixels inside to 6 outside.
                guard trueDistance > -1.8 && trueDistance < 5.8 else { continue }
                let error = abs(distance(field[y * size + x]) - trueDistance)
                if abs(trueDistance) < 1 { nearErrors.append(error) } else { farErrors.append(error) }
            }
        }
        XCTAssertGreaterThan(nearErrors.count, 80)
        XCTAssertGreaterThan(farErrors.count, 300)
        // TinySDF's edge model (0.5 − coverage, from the pixel's own center) is exact for a
        // straight edge through a pixel; on a curve, and further from the edge (where an edge
        // pixel's offset adds in squares), it errs by a fraction of a pixel. Measured: within
        // 1 px of the edge at most 0.41 px (mean 0.10), up to 6 px out at most 0.59 px.
        XCTAssertLessThan(nearErrors.max() ?? 1, 0.45, "error within a pixel of the edge")
        XCTAssertLessThan(nearErrors.reduce(0, +) / Double(nearErrors.count), 0.15, "mean error near the edge")
        XCTAssertLessThan(farErrors.max() ?? 1, 0.65, "error further out")
    }

    // MARK: The font's glyphs

    func testLatinRangeOfDejaVuSans() throws {
        let font = try SDFGlyphFont()
        let range = try XCTUnwrap(GlyphRange(start: 0))
        let decoded = try DecodedGlyphs(font.pbf(fontStack: "DejaVu Sans", range: range))
        XCTAssertEqual(decoded.name, "DejaVu Sans")
        XCTAssertEqual(decoded.range, "0-255")
        let byID = Dictionary(uniqueKeysWithValues: decoded.glyphs.map { ($0.id, $0) })
        XCTAssertEqual(byID.count, decoded.glyphs.count, "each code point once")
        // Every printable ASCII and Latin-1 character; DejaVu has no glyphs for the C0/C1 controls.
        for value in UInt32(0x20)...0x7E { XCTAssertNotNil(byID[value], "U+\(String(value, radix: 16))") }
        for value in UInt32(0xA0)...0xFF { XCTAssertNotNil(byID[value], "U+\(String(value, radix: 16))") }
        XCTAssertEqual(decoded.glyphs.count, 95 + 96)

        let space = try XCTUnwrap(byID[0x20])
        XCTAssertEqual([space.width, space.height], [0, 0])
        XCTAssertNil(space.bitmap, "a space draws nothing")
        XCTAssertEqual(space.advance, 8, "DejaVu Sans's space is 651/2048 em: 7.6 px at 24 px")

        let capital = try XCTUnwrap(byID[UInt32(UInt8(ascii: "H"))])
        let descender = try XCTUnwrap(byID[UInt32(UInt8(ascii: "g"))])
        let small = try XCTUnwrap(byID[UInt32(UInt8(ascii: "x"))])
        // DejaVu Sans at 24 px: ascender 1901/2048 em = 22.3 px (23 whole), cap height 1493/2048 = 17.5 px,
        // x-height 1120/2048 = 13.1 px, H advance 1540/2048 = 18.0 px.
        let ascender = 23
        XCTAssertEqual(capital.top + ascender, 18, "H's top above the baseline")
        XCTAssertEqual(capital.height, 18)
        XCTAssertEqual(capital.advance, 18)
        XCTAssertEqual(small.top + ascender, 14, "x's top above the baseline (13.1 px: the 14th row is partly inked)")
        XCTAssertLessThan(descender.top + ascender - descender.height, -3, "g reaches below the baseline")
        for glyph in decoded.glyphs {
            let label = "U+\(String(glyph.id, radix: 16))"
            XCTAssertTrue((0...32).contains(glyph.advance), label)
            XCTAssertTrue((0...40).contains(glyph.width) && (0...40).contains(glyph.height), label)
            XCTAssertTrue((-4...24).contains(glyph.left), label)
            guard let bitmap = glyph.bitmap else {
                XCTAssertEqual([glyph.width, glyph.height], [0, 0], label)
                continue
            }
            let width = glyph.width + 6, height = glyph.height + 6
            XCTAssertEqual(bitmap.count, width * height, label)
            // Inside the edge somewhere; the 3-pixel border is at least 3 px outside it.
            XCTAssertGreaterThanOrEqual(bitmap.max() ?? 0, 192, label)
            var border: [UInt8] = []
            for column in 0..<width { border += [bitmap[column], bitmap[(height - 1) * width + column]] }
            for row in 0..<height { border += [bitmap[row * width], bitmap[row * width + width - 1]] }
            XCTAssertLessThanOrEqual(border.max() ?? 0, 96, label)
        }
        // H: two stems, so a row through its middle crosses the edge four times.
        let bitmap = try XCTUnwrap(capital.bitmap)
        let width = capital.width + 6, row = 3 + capital.height / 4
        let insides = (0..<width).map { bitmap[row * width + $0] >= 192 }
        XCTAssertEqual(zip(insides, insides.dropFirst()).filter { $0 != $1 }.count, 4, "H's stems")
    }

    func testRangesBeyondTheFontAndTheirNames() throws {
        let font = try SDFGlyphFont()
        // Hangul: DejaVu Sans has none; the range is empty but well formed.
        let hangul = try DecodedGlyphs(font.pbf(fontStack: "DejaVu Sans,Noto Sans Regular", range: try XCTUnwrap(GlyphRange(start: 0xAC00))))
        XCTAssertEqual(hangul.name, "DejaVu Sans,Noto Sans Regular")
        XCTAssertEqual(hangul.range, "44032-44287")
        XCTAssertTrue(hangul.glyphs.isEmpty)
        // Greek and Cyrillic are in DejaVu Sans.
        XCTAssertGreaterThan(try font.glyphs(in: try XCTUnwrap(GlyphRange(start: 0x300))).count, 100)
        // The same range twice: the same glyphs (kept, not made again).
        XCTAssertEqual(try font.glyphs(in: try XCTUnwrap(GlyphRange(start: 0))), try font.glyphs(in: try XCTUnwrap(GlyphRange(start: 0))))

        XCTAssertEqual(GlyphRange(parsing: "256-511")?.start, 256)
        for bad in ["0-256", "1-256", "256-255", "-0-255", "0-", "0255", "+0-255", "0-255-0", "1114368-1114623", "٠-٢٥٥", ""] {
            XCTAssertNil(GlyphRange(parsing: bad), bad)
        }
        XCTAssertEqual(GlyphRange(parsing: "1113856-1114111")?.end, 0x10FFFF)
    }
}

/// A glyphs PBF read with its own wire-format reader (independent of `GlyphsPBF`).
struct DecodedGlyphs {
    struct Glyph {
        var id: UInt32 = 0, bitmap: [UInt8]?, width = 0, height = 0, left = 0, top = 0, advance = 0
    }

    var name = "", range = ""
    var glyphs: [Glyph] = []

    init(_ bytes: [UInt8]) throws {
        var outer = Wire(bytes[...])
        while let (field, value) = try outer.next() {
            guard field == 1, case .bytes(let stack) = value else { throw Wire.Failure.unexpected(field) }
            var inner = Wire(stack)
            while let (field, value) = try inner.next() {
                switch (field, value) {
                case (1, .bytes(let text)): name = String(decoding: text, as: UTF8.self)
                case (2, .bytes(let text)): range = String(decoding: text, as: UTF8.self)
                case (3, .bytes(let entry)): glyphs.append(try Self.glyph(entry))
                default: throw Wire.Failure.unexpected(field)
                }
            }
        }
    }

    private static func glyph(_ bytes: ArraySlice<UInt8>) throws -> Glyph {
        var glyph = Glyph()
        var wire = Wire(bytes)
        func signed(_ raw: UInt64) -> Int { Int(Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)) }
        while let (field, value) = try wire.next() {
            switch (field, value) {
            case (1, .varint(let raw)): glyph.id = UInt32(raw)
            case (2, .bytes(let data)): glyph.bitmap = Array(data)
            case (3, .varint(let raw)): glyph.width = Int(raw)
            case (4, .varint(let raw)): glyph.height = Int(raw)
            case (5, .varint(let raw)): glyph.left = signed(raw)
            case (6, .varint(let raw)): glyph.top = signed(raw)
            case (7, .varint(let raw)): glyph.advance = Int(raw)
            default: throw Wire.Failure.unexpected(field)
            }
        }
        return glyph
    }

    /// Protobuf fields: varints and length-delimited bytes (all a glyphs PBF has).
    struct Wire {
        enum Value { case varint(UInt64), bytes(ArraySlice<UInt8>) }
        enum Failure: Error { case truncated, unexpected(UInt64) }
        var bytes: ArraySlice<UInt8>

        init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

        mutating func varint() throws -> UInt64 {
            var value: UInt64 = 0
            for shift in stride(from: 0, to: 64, by: 7) {
                guard let byte = bytes.popFirst() else { throw Failure.truncated }
                value |= UInt64(byte & 0x7F) << UInt64(shift)
                if byte < 0x80 { return value }
            }
            throw Failure.truncated
        }

        mutating func next() throws -> (UInt64, Value)? {
            guard !bytes.isEmpty else { return nil }
            let key = try varint()
            switch key & 7 {
            case 0: return (key >> 3, .varint(try varint()))
            case 2:
                let length = Int(try varint())
                guard length <= bytes.count else { throw Failure.truncated }
                defer { bytes = bytes.dropFirst(length) }
                return (key >> 3, .bytes(bytes.prefix(length)))
            default: throw Failure.unexpected(key >> 3)
            }
        }
    }
}
