import OverlayModel

/// Merges the metadata of joined tile sets as `tile-join` users expect, on the typed
/// `TileSetMetadata`: each input's layers renamed, left out and their fields filtered as the
/// join's options say (``filtered(_:)``), then the inputs united in order
/// (`TileSetMetadata.formUnion`): bounds and zoom range united, `vector_layers` united by id
/// with their fields united, `tilestats` counts summed and values united, the `overlaykit` drop
/// report summed zoom by zoom (`TileDropReport +=`), and the members the type does not know
/// (tippecanoe's `generator`, `strategies`, an attribution) kept from the first input that has
/// them.
public struct TileMetadataMerger: Sendable {
    /// The join's layer and property filters, so metadata describes the tiles written.
    public var options: VectorTileMerger.Options

    /// Creates a merger.
    public init(options: VectorTileMerger.Options = VectorTileMerger.Options()) { self.options = options }

    /// The inputs' metadata, filtered and united in order; nil when there are none. Name,
    /// description and format are the first input's.
    public func merge(_ inputs: [TileSetMetadata]) -> TileSetMetadata? {
        guard var result = inputs.first.map(filtered) else { return nil }
        for input in inputs.dropFirst() { result.formUnion(filtered(input)) }
        return result
    }

    /// One input's metadata as the join's filters leave it: vector layers and tilestats layers
    /// renamed or left out (two that a rename gives one name become one), and fields and
    /// tilestats attributes of left-out properties removed.
    public func filtered(_ metadata: TileSetMetadata) -> TileSetMetadata {
        var result = metadata
        result.vectorLayers = []
        for var layer in metadata.vectorLayers {
            guard let name = options.outputName(of: layer.id) else { continue }
            layer.id = name
            layer.fields.removeAll { !options.keeps(property: $0.name) }
            if let index = result.vectorLayers.firstIndex(where: { $0.id == name }) {
                result.vectorLayers[index].formUnion(layer)
            } else {
                result.vectorLayers.append(layer)
            }
        }
        if let json = metadata.tileStats, let stats = TileStats(json: json) {
            var kept = TileStats(layers: [], other: stats.other)
            for var layer in stats.layers {
                guard let name = options.outputName(of: layer.name) else { continue }
                layer.name = name
                layer.attributes.removeAll { !options.keeps(property: $0.name) }
                kept.formUnion(TileStats(layers: [layer]))
            }
            result.tileStats = kept.json
        }
        return result
    }

    /// The layers and properties the inputs' metadata lists that the join's filters leave out,
    /// each once in order of first appearance: layers by their names before renaming,
    /// properties by the fields of the layers kept.
    public func dropped(from inputs: [TileSetMetadata]) -> (layers: [String], properties: [String]) {
        var layers = [String](), properties = [String]()
        for layer in inputs.flatMap(\.vectorLayers) {
            guard options.outputName(of: layer.id) != nil else {
                if !layers.contains(layer.id) { layers.append(layer.id) }
                continue
            }
            for field in layer.fields where !options.keeps(property: field.name) && !properties.contains(field.name) {
                properties.append(field.name)
            }
        }
        return (layers, properties)
    }
}
