import OverlayModel

// Tracks: `gx:Track` (`when` times paired with `gx:coord` positions) and `gx:MultiTrack`.
extension KMLParserCore {
    /// `gx:Track`: a polyline (a point when it has one position) with its times in `info`.
    func parseTrackGeometry(line: Int, info: inout GeometryInfo) throws -> Shape? {
        let (coordinates, times) = try parseTrack(info: &info)
        guard !coordinates.isEmpty else {
            report(.kmlEmptyGeometry, "<gx:Track> has no gx:coord; read without geometry", line: line)
            return nil
        }
        if !times.isEmpty { info.times = .array(times.map { .string($0) }) }
        guard coordinates.count > 1 else {
            report(.kmlShortLine, "<gx:Track> has one position; read as a Point", line: line)
            return .annotation(PointAnnotation(coordinate: coordinates[0]))
        }
        return .polyline(Polyline(coordinates: coordinates))
    }

    /// `gx:MultiTrack`: one track is a polyline, several a multi polyline; times per track.
    func parseMultiTrack(line: Int, info: inout GeometryInfo) throws -> Shape? {
        var lines: [Polyline] = []
        var allTimes: [JSONValue] = []
        try xml.forEachChild { part in
            switch part {
            case "Track":
                let trackLine = xml.line
                let (coordinates, times) = try parseTrack(info: &info)
                if coordinates.count == 1 {
                    report(.kmlShortLine, "<gx:Track> in a gx:MultiTrack has one position, which is no line; track dropped", line: trackLine)
                } else if !coordinates.isEmpty {
                    lines.append(Polyline(coordinates: coordinates))
                    allTimes.append(.array(times.map { .string($0) }))
                }
            case "altitudeMode", "interpolate":
                try readGeometryField(part, info: &info)
            default:
                try skipReported(xml.qualifiedName, in: "gx:MultiTrack")
            }
        }
        guard !lines.isEmpty else {
            report(.kmlEmptyGeometry, "<gx:MultiTrack> has no track; read without geometry", line: line)
            return nil
        }
        // One track is a polyline, as gx:Track is; several make a multi polyline.
        if lines.count == 1 {
            if case .array(let times)? = allTimes.first, !times.isEmpty { info.times = .array(times) }
            return .polyline(lines[0])
        }
        if allTimes.contains(where: { $0 != .array([]) }) { info.times = .array(allTimes) }
        return .multiPolyline(MultiPolyline(lines))
    }

    /// `gx:Track`: `when` times and `gx:coord` positions ("lon lat alt"), pairwise.
    private func parseTrack(info: inout GeometryInfo) throws -> ([Coordinate], [String]) {
        var coordinates: [Coordinate] = []
        var times: [String] = []
        try xml.forEachChild { part in
            switch part {
            case "when":
                times.append(try xml.readText().kmlTrimmed)
            case "coord":
                let line = xml.line
                textBuffer.removeAll(keepingCapacity: true)
                try xml.readTextBytes(into: &textBuffer)
                let values = textBuffer.withUnsafeBufferPointer { KMLCoordinates.parseSpaceSeparated($0) }
                if let values, values.count == 2 || values.count == 3 {
                    coordinates.append(Coordinate(latitude: values[1], longitude: values[0], altitude: values.count == 3 ? values[2] : nil))
                } else {
                    report(.kmlBadCoordinate, "gx:coord '\(String(decoding: textBuffer.prefix(60), as: UTF8.self))' is not 'longitude latitude [altitude]'; position skipped",
                           line: line)
                    coordinates.append(Coordinate(latitude: .nan, longitude: .nan))
                }
            case "altitudeMode", "extrude", "tessellate":
                try readGeometryField(part, info: &info)
            case "ExtendedData":
                var properties = KMLPropertyBuilder()
                try parseExtendedData(into: &properties)
                // Per-vertex arrays are not carried per track here; they are reported.
                if !properties.isEmpty {
                    report(.kmlIgnoredElement, "ExtendedData inside a gx:Track is not kept", line: xml.line, once: "track-extended-data")
                }
            default:
                try skipReported(xml.qualifiedName, in: "gx:Track")
            }
        }
        // Keep times paired with positions: a skipped gx:coord drops its time too.
        if times.count == coordinates.count {
            var keptCoordinates: [Coordinate] = []
            var keptTimes: [String] = []
            for (coordinate, time) in zip(coordinates, times) where !coordinate.latitude.isNaN {
                keptCoordinates.append(coordinate)
                keptTimes.append(time)
            }
            return (keptCoordinates, keptTimes)
        }
        if !times.isEmpty {
            report(.kmlTrackMismatch, "gx:Track has \(times.count) <when> and \(coordinates.count) <gx:coord>; times kept as given", line: xml.line)
        }
        return (coordinates.filter { !$0.latitude.isNaN }, times)
    }
}
