// The library API in one small program: each function below is a snippet of README.md or of
// the DocC articles, word for word (DocCommandTests checks that and runs this program), called
// in the order a real use takes: read, look, clip and simplify, filter, validate, tile, write.
// Run from the package root: swift run overlaykit-example [Examples/parks.geojson]
// It writes europe.geojson, countries.pmtiles, joined.mbtiles, places.png and parks.png into the current folder.
import Foundation
import OverlayKit

let streamed = CommandLine.arguments.dropFirst().first ?? "Examples/parks.geojson"
do {
    try streamFeatures(path: streamed)          // Examples/LibraryAPI/Streaming.swift
    modelBasics()                               // OverlayModel's catalog
    try readAFile()                             // GettingStarted: "Read a file"
    try clipSimplifyAndWrite()                  // README: "Using the library"
    try clipAndSimplifyOneShape()               // ClippingAndSimplifying
    try filterFeatures()                        // Filtering
    validateAFile()                             // Validating
    try validateAgainstProfiles()               // Validating: profiles
    try writePMTiles()                          // Tiling
    try joinTileSets()                          // Tiling: tile-join
    try renderPitched()                         // Rendering
    try drawAFile()                             // Rendering: "Draw a file", "Draw features in memory"
    try writeKML()                              // GettingStarted and Writing: "Write features"
} catch {
    // A Diagnostic prints as file:line:column: severity: code: message.
    print("error: \(error)")
    exit(1)
}
