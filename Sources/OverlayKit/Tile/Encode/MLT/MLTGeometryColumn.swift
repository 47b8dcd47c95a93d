/// The geometry column of an MLT feature table: a geometry type per feature, the topology as
/// length streams (sub-geometries of Multi* types, rings per polygon, vertices per ring or
/// line) with the specification's implicit lengths, and the vertices as interleaved x, y with
/// componentwise zigzag deltas. Built from the same `TileFeature`s the MVT encoder gets, with
/// the same drawable parts: lines of at least 2 points, rings of at least 3 distinct points
/// written without their closing point (MLT decoders close rings, as MVT's ClosePath does).
struct MLTGeometryColumn {
    /// MLT geometry types.
    enum Kind: UInt32 {
        case point = 0, lineString = 1, polygon = 2, multiPoint = 3, multiLineString = 4, multiPolygon = 5
    }

    /// One feature's drawable parts: kind, and runs of points (`lengths` per polygon give its
    /// ring count, then each ring's points, in `rings`).
    struct Shape {
        var kind: Kind
        /// Points per line, per ring, or the point count of a point feature.
        var rings: [Int]
        /// Rings per polygon (polygon kinds only).
        var polygons: [Int]
        /// x, y pairs of every drawn point.
        var xy: [Int32]
    }

    /// The drawable shape of `feature`; nil when nothing drawable is left (MVT writes no such feature).
    static func shape(of feature: TileFeature) -> Shape? {
        var xy = [Int32](), rings = [Int](), polygons = [Int]()
        xy.reserveCapacity(feature.xy.count)
        var start = 0
        switch feature.type {
        case .point:
            let count = feature.xy.count / 2
            guard count > 0 else { return nil }
            return Shape(kind: count == 1 ? .point : .multiPoint, rings: [count], polygons: [], xy: feature.xy)
        case .line:
            for length in feature.ringLengths {
                defer { start += length }
                guard length >= 2 else { continue }
                xy += feature.xy[2 * start..<2 * (start + length)]
                rings.append(length)
            }
            guard !rings.isEmpty else { return nil }
            return Shape(kind: rings.count == 1 ? .lineString : .multiLineString, rings: rings, polygons: [], xy: xy)
        case .polygon:
            for length in feature.ringLengths {
                defer { start += length }
                var count = length
                if count > 1 && feature.xy[2 * start] == feature.xy[2 * (start + count - 1)]
                    && feature.xy[2 * start + 1] == feature.xy[2 * (start + count - 1) + 1] { count -= 1 }
                guard count >= 3 else { continue }
                // Exteriors are clockwise with y down (positive area), holes the other way; a
                // ring of no area stays with the polygon before it, as a hole would.
                var area: Int64 = 0
                for index in 0..<count {
                    let next = (index + 1) % count
                    area += Int64(feature.xy[2 * (start + index)]) * Int64(feature.xy[2 * (start + next) + 1])
                        - Int64(feature.xy[2 * (start + next)]) * Int64(feature.xy[2 * (start + index) + 1])
                }
                if polygons.isEmpty || area > 0 { polygons.append(1) } else { polygons[polygons.count - 1] += 1 }
                xy += feature.xy[2 * start..<2 * (start + count)]
                rings.append(count)
            }
            guard !rings.isEmpty else { return nil }
            return Shape(kind: polygons.count == 1 ? .polygon : .multiPolygon, rings: rings, polygons: polygons, xy: xy)
        }
    }

    /// Appends the stream count and the streams of `shapes` (one per feature, in order).
    static func append(_ shapes: [Shape], to out: inout [UInt8]) {
        let hasPolygons = shapes.contains { $0.kind == .polygon || $0.kind == .multiPolygon }
        var types = [UInt32](), geometries = [UInt32](), parts = [UInt32](), rings = [UInt32]()
        types.reserveCapacity(shapes.count)
        var vertexCount = 0
        for shape in shapes {
            types.append(shape.kind.rawValue)
            vertexCount += shape.xy.count / 2
            switch shape.kind {
            case .point: break
            case .multiPoint: geometries.append(UInt32(shape.rings[0]))
            case .lineString, .multiLineString:
                if shape.kind == .multiLineString { geometries.append(UInt32(shape.rings.count)) }
                // Lines' point counts go where rings' do when the column has polygons.
                if hasPolygons { rings += shape.rings.map(UInt32.init) } else { parts += shape.rings.map(UInt32.init) }
            case .polygon, .multiPolygon:
                if shape.kind == .multiPolygon { geometries.append(UInt32(shape.polygons.count)) }
                parts += shape.polygons.map(UInt32.init)
                rings += shape.rings.map(UInt32.init)
            }
        }
        let streams = 2 + [geometries, parts, rings].filter { !$0.isEmpty }.count
        MLTWire.appendVarint(UInt64(streams), to: &out)
        MLTIntegerStream.append(types, kind: .data, logicalStream: MLTWire.DictionaryKind.none.rawValue, to: &out)
        if !geometries.isEmpty {
            MLTIntegerStream.append(geometries, kind: .length, logicalStream: MLTWire.LengthKind.geometries.rawValue, to: &out)
        }
        if !parts.isEmpty {
            MLTIntegerStream.append(parts, kind: .length, logicalStream: MLTWire.LengthKind.parts.rawValue, to: &out)
        }
        if !rings.isEmpty {
            MLTIntegerStream.append(rings, kind: .length, logicalStream: MLTWire.LengthKind.rings.rawValue, to: &out)
        }
        var payload = [UInt8]()
        payload.reserveCapacity(vertexCount * 3)
        var previousX: Int32 = 0, previousY: Int32 = 0
        for shape in shapes {
            var index = 0
            while index + 1 < shape.xy.count {
                let x = shape.xy[index], y = shape.xy[index + 1]
                MLTWire.appendVarint(MLTWire.zigzag(Int64(x) - Int64(previousX)), to: &payload)
                MLTWire.appendVarint(MLTWire.zigzag(Int64(y) - Int64(previousY)), to: &payload)
                previousX = x
                previousY = y
                index += 2
            }
        }
        MLTWire.StreamHeader(physicalStream: .data, logicalStream: MLTWire.DictionaryKind.vertex.rawValue,
                             logical1: .componentwiseDelta, physical: .varint, valueCount: 2 * vertexCount,
                             byteLength: payload.count).write(to: &out)
        out += payload
    }
}
