import Foundation
import OverlayModel

extension TileSetMetadata {
    /// Adds the metadata of another tile set joined to this one, as tippecanoe's `tile-join`
    /// unites them: bounds united and the center moved to their middle (its zoom kept), zoom
    /// ranges united, vector layers united by id (``VectorLayer/formUnion(_:)``), tilestats
    /// united (``TileStats/formUnion(_:)``), drop reports summed (`TileDropReport +=`). Of the
    /// other members, this set's are kept and those only `other` has are added (tippecanoe's
    /// `antimeridian_adjusted_bounds` united), so nothing a foreign writer put there is lost.
    /// Name, description and format stay this set's.
    public mutating func formUnion(_ other: TileSetMetadata) {
        if let more = other.bounds { bounds = bounds.map { $0.union(more) } ?? more }
        if center == nil { center = other.center }
        if let bounds, center != nil {
            center?.longitude = (bounds.west + bounds.east) / 2
            center?.latitude = (bounds.south + bounds.north) / 2
        }
        minZoom = min(minZoom, other.minZoom)
        maxZoom = max(maxZoom, other.maxZoom)
        for layer in other.vectorLayers {
            if let index = vectorLayers.firstIndex(where: { $0.id == layer.id }) {
                vectorLayers[index].formUnion(layer)
            } else {
                vectorLayers.append(layer)
            }
        }
        if let more = other.tileStats {
            if let mine = tileStats {
                if var stats = TileStats(json: mine), let theirs = TileStats(json: more) {
                    stats.formUnion(theirs)
                    tileStats = stats.json
                }
            } else {
                tileStats = more
            }
        }
        if let more = other.dropReport {
            if dropReport == nil { dropReport = more } else { dropReport! += more }
        }
        let key = Self.antimeridianBoundsKey
        if let mine = self.other[key], let theirs = other.other[key],
           let united = Self.bounds(mine).flatMap({ first in Self.bounds(theirs).map { first.union($0) } }) {
            self.other[key] = Self.text(united, as: mine)
        }
        self.other.addMissing(other.other)
    }

    /// tippecanoe's bounds shifted to straddle the antimeridian when that makes them smaller.
    static let antimeridianBoundsKey = "antimeridian_adjusted_bounds"

    /// Bounds from `[w, s, e, n]` or `"w,s,e,n"`; nil for anything else.
    static func bounds(_ value: JSONValue) -> Bounds? {
        let numbers: [Double]
        switch value {
        case .array(let items): numbers = items.compactMap(\.doubleValue)
        case .string(let text): numbers = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        default: return nil
        }
        guard numbers.count == 4, numbers.allSatisfy(\.isFinite) else { return nil }
        return Bounds(west: numbers[0], south: numbers[1], east: numbers[2], north: numbers[3])
    }

    /// `bounds` written as `form` was: a string `"w,s,e,n"` or an array.
    private static func text(_ bounds: Bounds, as form: JSONValue) -> JSONValue {
        let numbers = [bounds.west, bounds.south, bounds.east, bounds.north].map { value -> JSONValue in
            value == value.rounded() && abs(value) < 1e15 ? .integer(Int64(value)) : .number(value)
        }
        guard case .string = form else { return .array(numbers) }
        return .string(numbers.map { String(decoding: $0.jsonBytes, as: UTF8.self) }.joined(separator: ","))
    }
}

extension TileSetMetadata.VectorLayer {
    /// Adds the same layer from another tile set: fields united in order of first appearance
    /// (a field typed differently becomes "Mixed"), zoom ranges united; the description is this
    /// layer's, or the other's when this one has none.
    public mutating func formUnion(_ other: Self) {
        for field in other.fields {
            if let index = fields.firstIndex(where: { $0.name == field.name }) {
                if fields[index].type != field.type { fields[index].type = "Mixed" }
            } else {
                fields.append(field)
            }
        }
        minZoom = min(minZoom, other.minZoom)
        maxZoom = max(maxZoom, other.maxZoom)
        if description.isEmpty { description = other.description }
    }
}
