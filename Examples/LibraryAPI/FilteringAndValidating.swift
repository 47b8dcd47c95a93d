import OverlayKit

/// Filtering: predicates over features already read.
func filterFeatures() throws {
    let document = try FeatureIO.readAll(path: "Examples/countries.geojson")
    var filter = FeatureFilter()
    filter.intersecting = try GeographicBox(parsing: "-10,35,30,60")
    filter.expression = try WhereExpression(parsing: "POP_EST > 1e7")
    let kept = try document.features.filter(filter.matches)
    print("\(kept.count) of \(document.features.count) countries meet the box and have more than 10 million people")
}

/// Validating: the findings of one file as text.
func validateAFile() {
    let result = Validator.validate(path: "Examples/countries.geojson")
    print(ValidationReport.render([result], as: .text))
}

/// Validating a run against profiles: will these files load in Google Maps and on Android?
func validateAgainstProfiles() throws {
    let profiles = try ["google-maps", "android-maps-utils"].map(ValidationProfile.named)
    let run = Validator.run(paths: ["Examples/places.kml", "Examples/trip.kmz"], checks: [ProfileCheck(profiles: profiles)])
    print(ValidationReport.render(run, as: .text), terminator: "")
    print("exit status \(run.exitStatus(strict: false))")
}
