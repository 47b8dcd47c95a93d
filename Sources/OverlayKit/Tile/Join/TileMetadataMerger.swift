import OverlayModel

/// Merges the metadata of joined tile sets (TileJSON / tippecanoe / MBTiles keys and our own
/// per-zoom drop counts) as `tile-join` users expect: bounds united, zoom range united,
/// `vector_layers` united by id with their fields united, `tilestats` layer and attribute counts
/// summed, per-zoom counts summed zoom by zoom, other counts summed (`layers` at the top, as
/// `overlaykit tile` 0.1 wrote it, is treated like `vector_layers`). Layer renames and property
/// filters of the join are applied to the layer lists.
///
/// Works on the JSON objects, so it follows whatever keys a writer puts there: a member is
/// merged by its shape (numbers summed in count objects, arrays of `{"zoom": …}` objects
/// matched by zoom) and by its name for the TileJSON keys below; anything else keeps the first
/// input's value.
public struct TileMetadataMerger: Sendable {
    /// The join's layer and property filters, so metadata describes the tiles written.
    public var options: VectorTileMerger.Options

    /// Creates a merger.
    public init(options: VectorTileMerger.Options = VectorTileMerger.Options()) { self.options = options }

    /// tippecanoe's cap on distinct values listed per attribute in `tilestats`.
    static let tilestatsValueLimit = 100

    /// One object merged from all inputs' objects (in order).
    public func merge(_ inputs: [JSONObject]) -> JSONObject {
        guard var result = inputs.first else { return JSONObject() }
        result = filtered(result)
        for next in inputs.dropFirst() { result = merge(result, filtered(next), path: []) }
        if let bounds = Self.bounds(result["bounds"]), case .array(let center)? = result["center"], center.count >= 2 {
            // The center follows the united bounds; its zoom stays.
            var newCenter = center
            newCenter[0] = Self.number((bounds[0] + bounds[2]) / 2)
            newCenter[1] = Self.number((bounds[1] + bounds[3]) / 2)
            result["center"] = .array(newCenter)
        } else if let bounds = Self.bounds(result["bounds"]), case .string(let center)? = result["center"] {
            let parts = center.split(separator: ",")
            let zoom = parts.count >= 3 ? "," + parts[2] : ""
            result["center"] = .string("\(Self.text((bounds[0] + bounds[2]) / 2)),\(Self.text((bounds[1] + bounds[3]) / 2))\(zoom)")
        }
        return result
    }

    /// Applies renames and filters to the layer lists of one input.
    private func filtered(_ object: JSONObject) -> JSONObject {
        var object = object
        for member in object.members {
            switch (member.key, member.value) {
            case ("vector_layers", .array(let layers)), ("layers", .array(let layers)):
                object[member.key] = .array(layers.compactMap { layer in
                    guard var layer = layer.objectValue, let id = layer["id"]?.stringValue else { return layer }
                    guard let name = options.outputName(of: id) else { return nil }
                    layer["id"] = .string(name)
                    if let fields = layer["fields"]?.objectValue {
                        layer["fields"] = .object(JSONObject(fields.members.filter { options.keeps(property: $0.key) }))
                    }
                    return .object(layer)
                })
            case ("tilestats", .object(var stats)):
                if case .array(let layers)? = stats["layers"] {
                    let kept: [JSONValue] = layers.compactMap { layer in
                        guard var layer = layer.objectValue, let id = layer["layer"]?.stringValue else { return layer }
                        guard let name = options.outputName(of: id) else { return nil }
                        layer["layer"] = .string(name)
                        if case .array(let attributes)? = layer["attributes"] {
                            let keptAttributes = attributes.filter { options.keeps(property: $0.objectValue?["attribute"]?.stringValue ?? "") }
                            layer["attributes"] = .array(keptAttributes)
                            layer["attributeCount"] = .integer(Int64(keptAttributes.count))
                        }
                        return .object(layer)
                    }
                    stats["layers"] = .array(kept)
                    stats["layerCount"] = .integer(Int64(kept.count))
                }
                object[member.key] = .object(stats)
            case ("json", .string(let text)):
                // MBTiles keeps vector_layers and tilestats in a JSON string.
                if case .object(let inner)? = try? JSONScanner(input: ByteInput(string: text)).readValue() {
                    object[member.key] = .string(Self.text(.object(filtered(inner))))
                }
            default: break
            }
        }
        return object
    }

    private func merge(_ a: JSONObject, _ b: JSONObject, path: [String]) -> JSONObject {
        var result = a
        for member in b.members {
            guard let existing = result[member.key] else {
                result[member.key] = member.value
                continue
            }
            result[member.key] = merge(member.key, existing, member.value, path: path + [member.key])
        }
        return result
    }

    private func merge(_ key: String, _ a: JSONValue, _ b: JSONValue, path: [String]) -> JSONValue {
        switch key {
        case "bounds", "antimeridian_adjusted_bounds":
            guard let first = Self.bounds(a), let second = Self.bounds(b) else { return a }
            let united = [min(first[0], second[0]), min(first[1], second[1]), max(first[2], second[2]), max(first[3], second[3])]
            if case .string = a { return .string(united.map(Self.text).joined(separator: ",")) }
            return .array(united.map(Self.number))
        case "minzoom", "maxzoom", "min_zoom", "max_zoom":
            guard let x = Self.double(a), let y = Self.double(b) else { return a }
            let value = key.hasPrefix("min") ? min(x, y) : max(x, y)
            if case .string = a { return .string(Self.text(value)) }
            return Self.number(value)
        case _ where key == "vector_layers" || (key == "layers" && path == ["layers"]):
            return .array(unite(a, b, id: "id") { self.mergeVectorLayer($0, $1) })
        case "layers" where path.count >= 2 && path[path.count - 2] == "tilestats":
            return .array(unite(a, b, id: "layer") { self.mergeStatsLayer($0, $1) })
        case "layerCount" where path.count >= 2 && path[path.count - 2] == "tilestats":
            return a   // recounted by the caller below
        case "json":
            guard case .string(let first) = a, case .string(let second) = b,
                  case .object(let x)? = try? JSONScanner(input: ByteInput(string: first)).readValue(),
                  case .object(let y)? = try? JSONScanner(input: ByteInput(string: second)).readValue() else { return a }
            return .string(Self.text(.object(merge(x, y, path: path))))
        case "tilestats":
            guard case .object(let x) = a, case .object(let y) = b else { return a }
            var merged = merge(x, y, path: path)
            if case .array(let layers)? = merged["layers"] { merged["layerCount"] = .integer(Int64(layers.count)) }
            return .object(merged)
        default:
            return mergeByShape(a, b, path: path)
        }
    }

    /// Counts sum; arrays of per-zoom objects merge zoom by zoom; objects merge member by
    /// member; anything else keeps the first value.
    private func mergeByShape(_ a: JSONValue, _ b: JSONValue, path: [String]) -> JSONValue {
        switch (a, b) {
        case (.integer(let x), .integer(let y)):
            return path.last.map(Self.isDescriptive) == true ? a : .integer(x &+ y)
        case (.object(let x), .object(let y)):
            return .object(merge(x, y, path: path))
        case (.array(let x), .array(let y)) where Self.isPerZoom(x) && Self.isPerZoom(y):
            var byZoom = [Int64: JSONObject](), order = [Int64]()
            for item in x + y {
                guard let object = item.objectValue, case .integer(let zoom)? = object["zoom"] else { continue }
                if let known = byZoom[zoom] {
                    var merged = known
                    for member in object.members where member.key != "zoom" {
                        if let existing = merged[member.key] {
                            merged[member.key] = mergeByShape(existing, member.value, path: path + [member.key])
                        } else {
                            merged[member.key] = member.value
                        }
                    }
                    byZoom[zoom] = merged
                } else {
                    byZoom[zoom] = object
                    order.append(zoom)
                }
            }
            return .array(order.sorted().compactMap { byZoom[$0].map(JSONValue.object) })
        default:
            return a
        }
    }

    /// Integer members that describe the tile set rather than count things: not summed.
    private static func isDescriptive(_ key: String) -> Bool {
        ["zoom", "extent", "buffer", "version", "spec_version", "tile_type", "tile_compression", "internal_compression"].contains(key)
    }

    private static func isPerZoom(_ items: [JSONValue]) -> Bool {
        !items.isEmpty && items.allSatisfy { item in
            if case .integer? = item.objectValue?["zoom"] { return true }
            return false
        }
    }

    /// Items of two arrays of objects united by an identifying member, first-seen order.
    private func unite(_ a: JSONValue, _ b: JSONValue, id: String, merge: (JSONObject, JSONObject) -> JSONObject) -> [JSONValue] {
        var order = [String](), byID = [String: JSONObject](), others = [JSONValue]()
        for item in (a.arrayItems + b.arrayItems) {
            guard let object = item.objectValue, let name = object[id]?.stringValue else {
                others.append(item)
                continue
            }
            if let known = byID[name] { byID[name] = merge(known, object) } else {
                byID[name] = object
                order.append(name)
            }
        }
        return order.compactMap { byID[$0].map(JSONValue.object) } + others
    }

    /// TileJSON vector layer: fields united (a field typed differently becomes "Mixed"), zoom
    /// range united, other members from the first.
    private func mergeVectorLayer(_ a: JSONObject, _ b: JSONObject) -> JSONObject {
        var result = a
        if case .object(var fields)? = a["fields"], case .object(let more)? = b["fields"] {
            for field in more.members {
                if let known = fields[field.key] {
                    if known != field.value { fields[field.key] = .string("Mixed") }
                } else {
                    fields[field.key] = field.value
                }
            }
            result["fields"] = .object(fields)
        } else if result["fields"] == nil, let fields = b["fields"] {
            result["fields"] = fields
        }
        for key in ["minzoom", "maxzoom"] {
            if let x = a[key], let y = b[key] { result[key] = merge(key, x, y, path: [key]) } else if let y = b[key] { result[key] = y }
        }
        return result
    }

    /// tilestats layer: counts summed, geometry "Mixed" when they differ, attributes united.
    private func mergeStatsLayer(_ a: JSONObject, _ b: JSONObject) -> JSONObject {
        var result = a
        if let x = a["count"], let y = b["count"] { result["count"] = mergeByShape(x, y, path: ["count"]) }
        if let x = a["geometry"], let y = b["geometry"], x != y { result["geometry"] = .string("Mixed") }
        let attributes = unite(a["attributes"] ?? .array([]), b["attributes"] ?? .array([]), id: "attribute") { x, y in
            var merged = x
            // An attribute's count is its number of distinct values: exact from the united
            // lists while both lists are complete, otherwise the sum (an upper bound).
            if let first = x["count"], let second = y["count"] { merged["count"] = mergeByShape(first, second, path: ["count"]) }
            if case .array(let values)? = x["values"], case .array(let more)? = y["values"],
               x["count"] == .integer(Int64(values.count)), y["count"] == .integer(Int64(more.count)) {
                var united = values
                for value in more where !united.contains(value) { united.append(value) }
                if united.count <= Self.tilestatsValueLimit { merged["count"] = .integer(Int64(united.count)) }
            }
            if let first = x["type"], let second = y["type"], first != second { merged["type"] = .string("mixed") }
            if case .array(let values)? = x["values"], case .array(let more)? = y["values"] {
                var united = values
                for value in more where !united.contains(value) && united.count < Self.tilestatsValueLimit { united.append(value) }
                merged["values"] = .array(united)
            }
            if let first = x["min"]?.doubleValue, let second = y["min"]?.doubleValue, second < first { merged["min"] = y["min"] }
            if let first = x["max"]?.doubleValue, let second = y["max"]?.doubleValue, second > first { merged["max"] = y["max"] }
            return merged
        }
        result["attributes"] = .array(attributes)
        result["attributeCount"] = .integer(Int64(attributes.count))
        return result
    }

    /// [west, south, east, north] from an array or a "w,s,e,n" string.
    static func bounds(_ value: JSONValue?) -> [Double]? {
        let numbers: [Double]
        switch value {
        case .array(let items)?: numbers = items.compactMap(\.doubleValue)
        case .string(let text)?: numbers = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        default: return nil
        }
        return numbers.count == 4 && numbers.allSatisfy(\.isFinite) ? numbers : nil
    }

    private static func double(_ value: JSONValue) -> Double? {
        if let number = value.doubleValue { return number }
        return value.stringValue.flatMap(Double.init)
    }

    private static func number(_ value: Double) -> JSONValue {
        value == value.rounded() && abs(value) < 1e15 ? .integer(Int64(value)) : .number(value)
    }

    private static func text(_ value: Double) -> String {
        var out = JSONBytes()
        out.appendValue(number(value))
        return String(decoding: out.bytes, as: UTF8.self)
    }

    private static func text(_ value: JSONValue) -> String {
        var out = JSONBytes()
        out.appendValue(value)
        return String(decoding: out.bytes, as: UTF8.self)
    }
}

private extension JSONValue {
    var arrayItems: [JSONValue] {
        if case .array(let items) = self { return items }
        return []
    }
}
