import ArgumentParser
import OverlayKit
import OverlayModel

extension AttributeType: ExpressibleByArgument {}

/// tippecanoe's controls on `tile` that do not touch tile cutting, spelled as tippecanoe spells
/// them: which features and properties reach the tiles and as what type, feature ids, the tile
/// set's metadata, quiet runs and a buffer in screen pixels.
struct TileAttributeOptions: ParsableArguments {
    @Option(name: [.customShort("y"), .customLong("include")],
            help: ArgumentHelp("Keep only this property (repeat for more); all others are left out of the tiles.", valueName: "name"))
    var include: [String] = []

    @Option(name: [.customShort("x"), .customLong("exclude")],
            help: ArgumentHelp("Leave this property out of the tiles (repeat for more).", valueName: "name"))
    var exclude: [String] = []

    @Flag(name: [.customShort("X"), .customLong("exclude-all")],
          help: "Leave every property out of the tiles, except those named with --include.")
    var excludeAll = false

    @Option(name: [.customShort("T"), .customLong("attribute-type")],
            help: ArgumentHelp("Coerce a property to string, int, float or bool (repeat for more); values with no such reading are left out, with one warning counting them.",
                               valueName: "name:type"))
    var attributeTypes: [String] = []

    @Flag(help: "Number features by their position in the input and use that as their id.")
    var generateIds = false

    @Option(help: ArgumentHelp("Use this property's value as each feature's id.", valueName: "name"))
    var useAttributeForId: String?

    @Option(name: .customLong("where"),
            help: ArgumentHelp("Tile only features whose properties satisfy the expression (the language of filter --where, plus $type and $id).",
                               valueName: "expr"))
    var whereExpression: String?

    @Option(name: [.customShort("n"), .long], help: "The tile set's name in its metadata (default: the layer name).")
    var name: String?

    @Option(name: [.customShort("N"), .customLong("description")], help: "A sentence about the tile set in its metadata.")
    var tileSetDescription: String?

    @Option(name: [.customShort("A"), .long], help: "The data's attribution (text or HTML) in the tile set's metadata.")
    var attribution: String?

    @Option(name: [.customShort("b"), .customLong("buffer-pixels")], parsing: .unconditional,
            help: ArgumentHelp("Buffer in screen pixels of a 256-pixel tile, as tippecanoe's -b (0…256; tile units = px × extent / 256); instead of --buffer.",
                               valueName: "px"))
    var bufferPixels: Int?

    @Flag(name: [.customShort("q"), .long], help: "No progress and no notes; warnings and errors are still printed.")
    var quiet = false

    @Flag(name: [.customShort("P"), .customLong("read-parallel")],
          help: "Accepted for tippecanoe's sake: a GeoJSONSeq file is read in parallel whenever --threads is above 1.")
    var readParallel = false

    /// The `-T` values as a map from property name to type.
    /// - Throws: `ValidationError` (exit 64) naming the malformed value.
    func parsedAttributeTypes() throws -> [String: AttributeType] {
        var types = [String: AttributeType]()
        for text in attributeTypes {
            // The type follows the last colon: property names may hold colons.
            guard let colon = text.lastIndex(of: ":"), colon != text.startIndex else {
                throw ValidationError("--attribute-type \"\(text)\" is not NAME:TYPE")
            }
            let typeName = String(text[text.index(after: colon)...])
            guard let type = AttributeType(rawValue: typeName) else {
                throw ValidationError("--attribute-type \"\(text)\": the type must be one of "
                    + AttributeType.allCases.map(\.rawValue).joined(separator: ", "))
            }
            let name = String(text[..<colon])
            if let earlier = types[name], earlier != type {
                throw ValidationError("--attribute-type names \"\(name)\" twice, as \(earlier.rawValue) and \(type.rawValue)")
            }
            types[name] = type
        }
        return types
    }

    /// The `--where` filter, parsed.
    /// - Throws: `ValidationError` (exit 64) with the column of a syntax error, or why it is refused.
    func featureFilter() throws -> TileFeatureFilter? {
        guard let whereExpression else { return nil }
        do {
            return try TileFeatureFilter(parsing: whereExpression)
        } catch let syntax as WhereSyntaxError {
            throw ValidationError("--where: \(syntax)")
        } catch let diagnostic as Diagnostic {
            throw ValidationError("--where: \(diagnostic.message)")
        }
    }

    /// Prints a diagnostic on standard error, unless it is a note and the run is quiet.
    func show(_ diagnostic: Diagnostic) {
        if !quiet || diagnostic.severity != .note { Report.diagnostic(diagnostic) }
    }

    func validate() throws {
        _ = try featureFilter()
        _ = try parsedAttributeTypes()
        if generateIds && useAttributeForId != nil {
            throw ValidationError("--generate-ids and --use-attribute-for-id cannot be used together")
        }
        if let bufferPixels, !(0...256).contains(bufferPixels) {
            throw ValidationError("--buffer-pixels must be 0…256")
        }
    }

    /// Sets these options on `tiler`, whose extent is already chosen (the pixel buffer depends on it).
    func apply(to tiler: inout Tiler) {
        var selection = AttributeSelection(excluded: Set(exclude))
        if excludeAll || !include.isEmpty { selection.included = Set(include) }
        tiler.options.attributes = selection
        // Both parsed in validate() first, which ArgumentParser runs before run(): they cannot fail here.
        tiler.options.attributeTypes = AttributeCoercion((try? parsedAttributeTypes()) ?? [:])
        tiler.options.featureFilter = try? featureFilter()
        if generateIds { tiler.options.generateID = true }
        if let useAttributeForId { tiler.options.promoteID = useAttributeForId }
        if let name { tiler.name = name }
        if let tileSetDescription { tiler.description = tileSetDescription }
        if let attribution { tiler.attribution = attribution }
        if let bufferPixels {
            // ≤ 256 × 65536 after validation: no overflow; rounded to the nearest tile unit.
            tiler.options.buffer = (bufferPixels * tiler.options.extent + 128) / 256
        }
    }
}
