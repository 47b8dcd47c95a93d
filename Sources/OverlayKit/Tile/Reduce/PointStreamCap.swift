/// Holds the points a tile draws to a bounded number while they stream in, so no tile is held
/// whole however dense the input (tippecanoe retries such a tile with a growing drop rate).
///
/// The points drawn are numbered in the order they arrive (the run's order, the same in memory
/// and on disk). Every point is kept while the tile holds at most ``cap`` of them; past that,
/// only the points whose number is a multiple of a stride are, the stride doubling (and the
/// points already held thinned to it) each time the tile holds more than ``cap`` again. The
/// points kept are therefore an even share of the input order, decided by the points alone:
/// the same tile in memory and on disk, on any number of threads.
///
/// It is only used where the tile would be reduced anyway: with a feature limit, and a dropping
/// strategy (a coalescing one needs every point), and not where points are clustered (clusters
/// count them all). The cap is twice the limit, so a tile the limit would not reduce is never
/// capped, and one it reduces keeps more points than the limit for the budget (`TileBudget.fit`)
/// to choose among: the tile is written with as many as the limit allows, not between half of it
/// and it. (The limit itself as the cap: 20M clustered points z0–10 peaked at 0.94 GB instead of
/// 1.13, and a 26-point tile with a limit of 10 was written with 7.) The points dropped here count
/// as dropped for the budget.
struct PointStreamCap {
    /// The most points held at once.
    let cap: Int
    /// Points whose number is a multiple of it are kept.
    private(set) var stride = 1
    /// Points drawn so far (held or not).
    private var drawn = 0
    /// Points held.
    private var held = 0
    /// For each feature of the tile so far, its point number, or -1 for any other feature.
    private var numbers = [Int]()

    /// Holds at most `cap` points at once.
    init(cap: Int) { self.cap = max(1, cap) }

    /// The cap for a tile at `zoom` built with `options`, or nil when points are not capped there.
    static func forTile(zoom: Int, options: TileOptions) -> PointStreamCap? {
        guard let maxFeatures = options.budget.maxFeatures else { return nil }
        switch options.budget.strategy {
        case .dropDensest, .dropFraction, .dropSmallest: break
        case .coalesceDensest, .coalesceSmallest: return nil
        }
        if options.clusterDistance > 0 && zoom <= options.clusterMaxZoom ?? options.maxZoom { return nil }
        // Shared borders hold polygons back in places among the features: nothing may move them.
        guard !options.sharedBorders else { return nil }
        return PointStreamCap(cap: maxFeatures.multipliedSaturating(by: 2))
    }

    /// Numbers the next point drawn: its number when it is to be built, nil when its turn is skipped.
    mutating func admit() -> Int? {
        let number = drawn
        drawn += 1
        return number % stride == 0 ? number : nil
    }

    /// Records a feature added to the tile: a point admitted as `point`, or any other feature (nil).
    mutating func added(point: Int?) {
        numbers.append(point ?? -1)
        if point != nil { held += 1 }
    }

    /// When the tile holds more than ``cap`` points: doubles the stride (until it holds at most
    /// the cap) and returns the positions of the features that stay; nil when it is within it.
    mutating func thinIfOver() -> [Int]? {
        guard held > cap else { return nil }
        while held > cap {
            stride = stride.multipliedSaturating(by: 2)
            held = numbers.reduce(0) { $0 + ($1 >= 0 && $1 % stride == 0 ? 1 : 0) }
        }
        let kept = numbers.indices.filter { numbers[$0] < 0 || numbers[$0] % stride == 0 }
        numbers = kept.map { numbers[$0] }
        return kept
    }
}
