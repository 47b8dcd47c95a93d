import OverlayModel

/// The one order of every coordinate the command line takes, and what to say when a value is
/// valid only the other way round.
///
/// A point is `latitude,longitude`, as MapKit's `CLLocationCoordinate2D` and the Google Maps
/// SDK write it (`render --center`, `filter --near`); a box is `west,south,east,north`,
/// longitude first, as GeoJSON's `bbox` and `ogr2ogr -spat` write it (`--bbox`, `--within`,
/// `--clip`). A swapped value that is still valid cannot be told apart and is taken as given;
/// one that is valid only swapped gets a hint naming the order and the swapped value.
public enum CoordinateOrder {
    /// The hint for a point given as `latitude,longitude` that is valid only swapped, or nil.
    public static func pointHint(latitude: Double, longitude: Double) -> String? {
        guard !(abs(latitude) <= 90), abs(longitude) <= 90, abs(latitude) <= 180 else { return nil }
        return "a point is latitude,longitude (latitude first); did you mean \(text(longitude)),\(text(latitude))?"
    }

    /// The hint for a box given as `west,south,east,north` that is valid only with each pair
    /// swapped (`south,west,north,east`), or nil.
    public static func boxHint(west: Double, south: Double, east: Double, north: Double) -> String? {
        func isBox(_ w: Double, _ s: Double, _ e: Double, _ n: Double) -> Bool {
            abs(w) <= 180 && abs(e) <= 180 && abs(s) <= 90 && abs(n) <= 90 && s <= n
        }
        guard !isBox(west, south, east, north), isBox(south, west, north, east) else { return nil }
        return "a box is west,south,east,north (longitude first); did you mean "
            + "\(text(south)),\(text(west)),\(text(north)),\(text(east))?"
    }

    /// `LAT,LON` in degrees (spaces allowed), latitude −90…90 and longitude −180…180, or nil.
    public static func point(parsing text: String) -> Coordinate? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let latitude = Double(parts[0].filter { $0 != " " }),
              let longitude = Double(parts[1].filter { $0 != " " }),
              (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// The hint for `text` when it is a `LAT,LON` that is valid only swapped, or nil.
    public static func pointHint(parsing text: String) -> String? {
        let numbers = text.split(separator: ",").compactMap { Double($0.filter { $0 != " " }) }
        return numbers.count == 2 ? pointHint(latitude: numbers[0], longitude: numbers[1]) : nil
    }

    /// A number as the user would type it back (`30`, not `30.0`).
    private static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
