import ArgumentParser
import OverlayKit

/// A zoom given as a number, or `g`: guessed from the data (tippecanoe's `-zg`, `-Bg`).
enum ZoomArgument: ExpressibleByArgument, Equatable {
    case zoom(Int)
    case guess

    init?(argument: String) {
        if argument == "g" {
            self = .guess
        } else if let zoom = Int(argument) {
            self = .zoom(zoom)
        } else {
            return nil
        }
    }

    var defaultValueDescription: String {
        switch self {
        case .zoom(let zoom): return "\(zoom)"
        case .guess: return "g"
        }
    }
}

/// `NAME:RULE` for `--accumulate-attribute`.
struct AccumulatedAttribute: ExpressibleByArgument {
    var name: String
    var rule: ClusterAttributeRule

    init?(argument: String) {
        guard let colon = argument.lastIndex(of: ":"), colon != argument.startIndex,
              let rule = ClusterAttributeRule(rawValue: String(argument[argument.index(after: colon)...])) else { return nil }
        name = String(argument[..<colon])
        self.rule = rule
    }
}

/// What keeps tiles loadable at any data size: the per-tile budget and its strategy, point
/// thinning, tiny-shape reduction and clustering, spelled as tippecanoe spells them.
struct TileDensityOptions: ParsableArguments {
    @Option(name: [.customShort("M"), .customLong("max-tile-bytes"), .customLong("maximum-tile-bytes")], parsing: .unconditional,
            help: "Most bytes a tile may take gzip-compressed (default 512000, tippecanoe's 500 KiB).")
    var maxTileBytes: Int?

    @Option(name: [.customShort("O"), .customLong("max-tile-features"), .customLong("maximum-tile-features")], parsing: .unconditional,
            help: "Most features a tile may hold (default 200000).")
    var maxTileFeatures: Int?

    @Flag(help: "No byte limit per tile.")
    var noTileSizeLimit = false

    @Flag(help: "No feature limit per tile.")
    var noFeatureLimit = false

    @Flag(help: "Over budget: drop the features closest to their neighbours (the default).")
    var dropDensestAsNeeded = false
    @Flag(help: "Over budget: drop an even share of the features.")
    var dropFractionAsNeeded = false
    @Flag(help: "Over budget: drop the smallest lines and polygons first.")
    var dropSmallestAsNeeded = false
    @Flag(help: "Over budget: merge the densest features into their neighbours.")
    var coalesceDensestAsNeeded = false
    @Flag(help: "Over budget: merge the smallest features into their neighbours.")
    var coalesceSmallestAsNeeded = false

    @Option(name: [.customShort("r"), .customLong("drop-rate")], parsing: .unconditional,
            help: "Points kept per zoom below the base zoom: one in RATE of the zoom below (default 2.5; 1 keeps all).")
    var dropRate: Double?

    @Option(name: [.customShort("B"), .customLong("base-zoom")], parsing: .unconditional,
            help: "Zoom from which every point is kept: a number, or g to guess (no tile over 50000 points); default the max zoom.")
    var baseZoom: ZoomArgument?

    @Flag(help: "Drop polygons and lines too small to draw instead of adding them up into small stand-ins.")
    var noTinyPolygonReduction = false

    @Option(parsing: .unconditional, help: "Side in tile units of the smallest polygon drawn as itself below the max zoom; smaller ones are added up into stand-in squares of this side (tippecanoe's --tiny-polygon-size).")
    var tinyPolygonSize = TileOptions.tileDefaults.tinyPolygonSize

    @Option(parsing: .unconditional, help: "Merge points closer than PX screen pixels into clusters with point_count (0 = off); replaces thinning.")
    var clusterDistance = TileOptions.tileDefaults.clusterDistance

    @Option(parsing: .unconditional, help: "Deepest zoom at which points are clustered (default: every zoom).")
    var clusterMaxzoom: Int?

    @Option(help: "NAME:sum|mean|min|max|count|concat|comma: how clusters combine attribute NAME (repeatable).")
    var accumulateAttribute: [AccumulatedAttribute] = []

    /// The chosen over-budget strategy (at most one flag).
    var strategy: TileBudget.Strategy {
        get throws {
            let chosen: [(Bool, TileBudget.Strategy)] = [
                (dropDensestAsNeeded, .dropDensest), (dropFractionAsNeeded, .dropFraction),
                (dropSmallestAsNeeded, .dropSmallest), (coalesceDensestAsNeeded, .coalesceDensest),
                (coalesceSmallestAsNeeded, .coalesceSmallest),
            ].filter(\.0)
            guard chosen.count <= 1 else { throw ValidationError("choose one of the --*-as-needed strategies") }
            return chosen.first?.1 ?? .dropDensest
        }
    }

    func validate() throws {
        // Ranges are the library's (`TileOptions.problems`, checked by `tile`'s validate); here
        // only what the command line can say twice.
        _ = try strategy
        if maxTileBytes != nil && noTileSizeLimit { throw ValidationError("--max-tile-bytes and --no-tile-size-limit contradict each other") }
        if maxTileFeatures != nil && noFeatureLimit { throw ValidationError("--max-tile-features and --no-feature-limit contradict each other") }
    }

    /// Sets the budget, thinning, tiny-shape and clustering settings of `tiler`.
    func apply(to tiler: inout Tiler) throws {
        var budget = TileBudget()
        budget.strategy = try strategy
        if let maxTileBytes { budget.maxBytes = maxTileBytes }
        if let maxTileFeatures { budget.maxFeatures = maxTileFeatures }
        if noTileSizeLimit { budget.maxBytes = nil }
        if noFeatureLimit { budget.maxFeatures = nil }
        tiler.options.budget = budget
        if let dropRate { tiler.options.pointDropRate = dropRate }
        switch baseZoom {
        case .zoom(let zoom)?: tiler.options.baseZoom = zoom
        case .guess?: tiler.options.guessesBaseZoom = true
        case nil: break
        }
        tiler.options.accumulatesTinyShapes = !noTinyPolygonReduction
        tiler.options.tinyPolygonSize = tinyPolygonSize
        tiler.options.clusterDistance = clusterDistance
        tiler.options.clusterMaxZoom = clusterMaxzoom
        for attribute in accumulateAttribute { tiler.options.clusterAttributes[attribute.name] = attribute.rule }
    }
}
