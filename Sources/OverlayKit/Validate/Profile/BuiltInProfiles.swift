import OverlayModel

extension ValidationProfile {
    /// The built-in profiles, by the name `--profile` takes. Each limit is the published one,
    /// with its source; docs/validate.md lists them. Sizes published as "3MB", "500KB" are read
    /// as decimal units (3,000,000 bytes): the stricter reading, so a file that passes loads.
    public static let builtIn: [String: ValidationProfile] = Dictionary(
        uniqueKeysWithValues: [googleMaps, googleEarth, googleMyMaps, mapboxUpload, androidMapsUtils].map { ($0.name, $0) })

    /// The names of the built-in profiles, sorted.
    public static var builtInNames: [String] { builtIn.keys.sorted() }

    /// Google Maps' KML rendering (the Maps JavaScript API's `KmlLayer`).
    static let googleMaps = ValidationProfile(
        name: "google-maps", title: "Google Maps JavaScript API (KmlLayer)",
        source: "https://developers.google.com/kml/documentation/mapsSupport", formats: ["kml", "kmz"],
        limits: [
            ProfileLimit(id: "fetched-size", measure: .fileBytes, maximum: 3_000_000,
                         summary: "the fetched file (raw KML or compressed KMZ) is at most 3 MB"),
            ProfileLimit(id: "kml-size", measure: .kmlBytes, maximum: 10_000_000, summary: "the uncompressed KML is at most 10 MB"),
            ProfileLimit(id: "kmz-image-size", measure: .kmzImageBytes, maximum: 500_000,
                         summary: "each image in a KMZ is at most 500 KB uncompressed"),
            ProfileLimit(id: "network-links", measure: .networkLinks, maximum: 10, summary: "at most 10 network links"),
            ProfileLimit(id: "features", measure: .features, maximum: 1_000, summary: "at most 1,000 features in the whole document"),
        ])

    /// Google Earth's rules for KMZ archives (Google Earth itself publishes no size limits).
    static let googleEarth = ValidationProfile(
        name: "google-earth", title: "Google Earth (KML and KMZ files)",
        source: "https://developers.google.com/kml/documentation/kmzarchives", formats: ["kml", "kmz"],
        limits: [
            ProfileLimit(id: "kmz-kml-files", measure: .kmzKMLFiles, maximum: 1, severity: .warning,
                         summary: "a KMZ holds one .kml file: Google Earth opens the first it lists and ignores the others"),
            ProfileLimit(id: "kmz-in-kmz", measure: .kmzArchives, maximum: 0, severity: .warning,
                         summary: "no .kmz file inside a KMZ"),
            ProfileLimit(id: "kml-size", measure: .fileBytes, maximum: 10_000, formats: ["kml"], severity: .note,
                         summary: "a KML larger than 10 KB is better served as a KMZ (typically a tenth of the size)"),
        ])

    /// Google My Maps' import of a KML or KMZ file (one import fills one layer).
    static let googleMyMaps = ValidationProfile(
        name: "google-my-maps", title: "Google My Maps (import into a layer)",
        source: "https://support.google.com/mymaps/answer/3024836", formats: ["kml", "kmz"],
        limits: [
            ProfileLimit(id: "file-size", measure: .fileBytes, maximum: 5_000_000, summary: "an imported file is at most 5 MB"),
            ProfileLimit(id: "features", measure: .features, maximum: 2_000,
                         summary: "a layer holds at most 2,000 lines, shapes or places, and one import fills one layer"),
        ])

    /// Mapbox's Uploads API (what Mapbox Studio's upload uses), as its published limit table
    /// (`mapbox-upload-limits` 1.4.3) and validator (`mapbox-upload-validate`) say.
    static let mapboxUpload = ValidationProfile(
        name: "mapbox-upload", title: "Mapbox Uploads API",
        source: "https://github.com/mapbox/mapbox-upload-limits/blob/v1.4.3/limits.json", formats: ["geojson", "kml", "mbtiles"],
        limits: [
            ProfileLimit(id: "geojson-size", measure: .fileBytes, maximum: 1_073_741_824, formats: ["geojson"],
                         summary: "a GeoJSON file is at most 1 GiB"),
            ProfileLimit(id: "kml-size", measure: .fileBytes, maximum: 272_629_760, formats: ["kml"], summary: "a KML file is at most 260 MiB"),
            ProfileLimit(id: "kml-layers", measure: .layers, maximum: 15, minimum: 1, formats: ["kml"],
                         summary: "a KML has 1 to 15 layers (Documents or Folders holding placemarks)",
                         source: "https://github.com/mapbox/mapbox-upload-validate/blob/17bccfa37023c20507aac7b3024e618e3a9ffcc8/lib/validators/kml.js"),
            ProfileLimit(id: "kml-duplicate-layers", measure: .duplicateLayerNames, maximum: 0, formats: ["kml"],
                         summary: "no two KML layers share a name",
                         source: "https://github.com/mapbox/mapbox-upload-validate/blob/17bccfa37023c20507aac7b3024e618e3a9ffcc8/lib/validators/kml.js"),
            ProfileLimit(id: "mbtiles-size", measure: .fileBytes, maximum: 26_843_545_600, formats: ["mbtiles"],
                         summary: "an MBTiles file is at most 25 GiB"),
            ProfileLimit(id: "mbtiles-tile-size", measure: .tileBytes, maximum: 512_000, formats: ["mbtiles"],
                         summary: "each tile is at most 500 KB (512,000 bytes) as stored"),
            ProfileLimit(id: "mbtiles-tiles", measure: .tiles, maximum: 30_000_000, minimum: 1, formats: ["mbtiles"],
                         summary: "a tile set holds 1 to 30,000,000 tiles"),
        ])

    /// The Maps SDK for Android Utility Library's KML and GeoJSON layers (its parsers' limits).
    static let androidMapsUtils = ValidationProfile(
        name: "android-maps-utils", title: "Maps SDK for Android Utility Library (KmlLayer, GeoJsonLayer)",
        source: "https://github.com/googlemaps/android-maps-utils", formats: ["kml", "kmz", "geojson"],
        limits: [
            ProfileLimit(id: "kmz-entries", measure: .kmzEntries, maximum: 200, summary: "a KMZ has at most 200 entries",
                         source: androidSource("kml/KmzParser.kt")),
            ProfileLimit(id: "kmz-size", measure: .kmzBytes, maximum: 52_428_800,
                         summary: "a KMZ's files take at most 50 MiB uncompressed, all together", source: androidSource("kml/KmzParser.kt")),
            ProfileLimit(id: "kml-depth", measure: .elementDepth, maximum: 50, summary: "KML elements nest at most 50 levels deep",
                         source: androidSource("kml/KmlParser.kt")),
            ProfileLimit(id: "geojson-size", measure: .jsonCharacters, maximum: 10_485_760, formats: ["geojson"],
                         summary: "a GeoJSON text is at most 10 Mi characters", source: androidSource("geojson/GeoJsonParser.kt")),
            ProfileLimit(id: "geojson-depth", measure: .jsonDepth, maximum: 512, formats: ["geojson"],
                         summary: "GeoJSON arrays and objects nest at most 512 levels deep", source: androidSource("geojson/GeoJsonParser.kt")),
        ])

    /// A file of the library's parsers at the commit the limits were read from.
    private static func androidSource(_ file: String) -> String {
        "https://github.com/googlemaps/android-maps-utils/blob/4f9d139aa2f4e08692b7fa3a4350782b6b8bacd2/data/src/main/java/com/google/maps/android/data/parser/"
            + file
    }
}
