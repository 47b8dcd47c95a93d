import OverlayModel

/// Reads an MLT geometry column into `TileFeature`s: geometry types, the length streams turned
/// into offsets with the specification's implicit lengths (Multi* types alone have a
/// sub-geometry count, polygons a ring count, lines' point counts sit in the ring stream when
/// the column has polygons), and the vertices (componentwise deltas, optionally through a
/// vertex dictionary or Morton codes).
enum MLTGeometryDecoder {
    static func features(_ reader: inout MLTWire.Reader, streams: Int) throws -> [TileFeature] {
        guard streams >= 1 else { throw reader.failure("a geometry column without streams") }
        let typesHeader = try MLTWire.StreamHeader.read(&reader)
        let types = try MLTIntegerStream.read(&reader, header: typesHeader, signed: false)
        guard types.allSatisfy({ $0 <= 5 }) else { throw reader.failure("unknown geometry type") }
        var geometries: [UInt64]?, parts: [UInt64]?, rings: [UInt64]?, vertexOffsets: [UInt64]?
        var vertices = [Int32]()
        for _ in 1..<max(streams, 1) {
            let header = try MLTWire.StreamHeader.read(&reader)
            switch header.physicalStream {
            case .length:
                let values = try MLTIntegerStream.read(&reader, header: header, signed: false)
                switch MLTWire.LengthKind(rawValue: header.logicalStream) {
                case .geometries: geometries = values
                case .parts: parts = values
                case .rings: rings = values
                default: break                                              // triangles: not needed to draw
                }
            case .offset:
                let values = try MLTIntegerStream.read(&reader, header: header, signed: false)
                if header.logicalStream == MLTWire.OffsetKind.vertex.rawValue { vertexOffsets = values }
            case .data:
                vertices = try vertexBuffer(&reader, header: header)
            case .present:
                _ = try reader.take(header.byteLength)
            }
        }
        // Offsets level by level (absent or empty streams are no level).
        var levels = [[Int]]()
        let count = types.count
        func offsets(_ lengths: [UInt64], counts: (Int) -> Bool, slots: Int) throws -> [Int] {
            var result = [0], next = 0
            result.reserveCapacity(slots + 1)
            for slot in 0..<slots {
                var length = 1
                if counts(slot) {
                    guard next < lengths.count, lengths[next] <= 1 << 28 else { throw reader.failure("a length stream shorter than its geometries") }
                    length = Int(lengths[next])
                    next += 1
                }
                // Every level ends at a vertex, so no level holds more slots than a stream can.
                guard result[result.count - 1] + length <= MLTWire.maximumStreamValues else {
                    throw reader.failure("geometry lengths add up to more than \(MLTWire.maximumStreamValues)")
                }
                result.append(result[result.count - 1] + length)
            }
            return result
        }
        // The type of the feature each slot of a level belongs to.
        func owners(_ offsets: [Int], _ parent: [Int]) -> [Int] {
            var result = [Int]()
            result.reserveCapacity(offsets[offsets.count - 1])
            for index in 0..<offsets.count - 1 { result += repeatElement(parent[index], count: offsets[index + 1] - offsets[index]) }
            return result
        }
        let kinds = types.map(Int.init)
        let geometryLevel = (geometries ?? []).isEmpty ? nil : geometries
        let partLevel = (parts ?? []).isEmpty ? nil : parts
        let ringLevel = (rings ?? []).isEmpty ? nil : rings
        var slotTypes = kinds
        if let geometryLevel {
            let root = try offsets(geometryLevel, counts: { kinds[$0] > 2 }, slots: count)
            levels.append(root)
            slotTypes = owners(root, kinds)
            if let partLevel {
                let level1: [Int]
                if ringLevel != nil {
                    level1 = try offsets(partLevel, counts: { slotTypes[$0] == 2 || slotTypes[$0] == 5 }, slots: slotTypes.count)
                } else {
                    level1 = try offsets(partLevel, counts: { slotTypes[$0] == 1 || slotTypes[$0] == 4 }, slots: slotTypes.count)
                }
                levels.append(level1)
                if let ringLevel {
                    let partTypes = owners(level1, slotTypes)
                    levels.append(try offsets(ringLevel, counts: { partTypes[$0] != 0 && partTypes[$0] != 3 },
                                              slots: partTypes.count))
                }
            }
        } else if let partLevel {
            if let ringLevel {
                let root = try offsets(partLevel, counts: { kinds[$0] > 1 }, slots: count)
                levels.append(root)
                let partTypes = owners(root, kinds)
                levels.append(try offsets(ringLevel, counts: { partTypes[$0] == 1 || partTypes[$0] == 2 },
                                          slots: partTypes.count))
            } else {
                levels.append(try offsets(partLevel, counts: { kinds[$0] > 0 }, slots: count))
            }
        }
        let vertexCount = vertexOffsets?.count ?? vertices.count / 2
        guard (levels.last?.last ?? count) <= vertexCount else { throw reader.failure("geometry needs more vertices than the column has") }
        if let vertexOffsets, vertexOffsets.contains(where: { $0 >= UInt64(vertices.count / 2) }) {
            throw reader.failure("a vertex offset beyond the vertex dictionary")
        }

        var features = [TileFeature]()
        features.reserveCapacity(count)
        for index in 0..<count {
            var range = index..<index + 1
            for level in levels.dropLast() { range = level[range.lowerBound]..<level[range.upperBound] }
            let leaves: [Range<Int>] = levels.last.map { last in range.map { last[$0]..<last[$0 + 1] } } ?? [range]
            let kind = kinds[index]
            let type: TileGeometryType = kind == 0 || kind == 3 ? .point : kind == 1 || kind == 4 ? .line : .polygon
            var xy = [Int32](), ringLengths = [Int]()
            for leaf in leaves {
                for vertex in leaf {
                    let position = vertexOffsets.map { Int($0[vertex]) } ?? vertex
                    xy.append(vertices[2 * position])
                    xy.append(vertices[2 * position + 1])
                }
                if type == .polygon, let first = leaf.first {
                    let position = vertexOffsets.map { Int($0[first]) } ?? first
                    xy.append(vertices[2 * position])
                    xy.append(vertices[2 * position + 1])
                    ringLengths.append(leaf.count + 1)
                } else {
                    ringLengths.append(leaf.count)
                }
            }
            if type == .point { ringLengths = [xy.count / 2] }
            features.append(TileFeature(type: type, xy: xy, ringLengths: ringLengths, id: nil, properties: nil))
        }
        return features
    }

    /// The vertex buffer as x, y pairs.
    private static func vertexBuffer(_ reader: inout MLTWire.Reader, header: MLTWire.StreamHeader) throws -> [Int32] {
        if header.logical1 == .morton {
            let codes = try MLTIntegerStream.read(&reader, header: MLTWire.StreamHeader(
                physicalStream: header.physicalStream, logicalStream: header.logicalStream, logical1: header.logical2,
                physical: header.physical, valueCount: header.valueCount, byteLength: header.byteLength), signed: false)
            guard header.mortonBits <= 16 else { throw reader.failure("Morton codes of \(header.mortonBits) bits") }
            var xy = [Int32]()
            xy.reserveCapacity(2 * codes.count)
            for code in codes {
                var x: Int64 = 0, y: Int64 = 0
                for bit in 0..<header.mortonBits {
                    x |= Int64((code >> UInt64(2 * bit)) & 1) << Int64(bit)
                    y |= Int64((code >> UInt64(2 * bit + 1)) & 1) << Int64(bit)
                }
                xy.append(Int32(truncatingIfNeeded: x - Int64(header.mortonShift)))
                xy.append(Int32(truncatingIfNeeded: y - Int64(header.mortonShift)))
            }
            return xy
        }
        var plain = header
        plain.logical1 = header.logical1 == .componentwiseDelta ? .none : header.logical1
        let raw = try MLTIntegerStream.read(&reader, header: plain, signed: false)
        guard raw.count % 2 == 0 else { throw reader.failure("an odd number of vertex coordinates") }
        // Vertices are always componentwise zigzag deltas (MapLibre Native reads them so whatever
        // the logical technique names).
        var xy = [Int32]()
        xy.reserveCapacity(raw.count)
        var x: Int32 = 0, y: Int32 = 0
        for index in stride(from: 0, to: raw.count, by: 2) {
            x &+= Int32(truncatingIfNeeded: MLTWire.unzigzag(raw[index]))
            y &+= Int32(truncatingIfNeeded: MLTWire.unzigzag(raw[index + 1]))
            xy.append(x)
            xy.append(y)
        }
        return xy
    }
}
