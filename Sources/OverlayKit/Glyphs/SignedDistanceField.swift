/// A signed distance field from an anti-aliased coverage mask, encoded as MapLibre's glyph
/// shader reads it (TinySDF's and fontnik's encoding): each byte is
/// `255 − 255 · (d / radius + cutoff)`, rounded and held to 0…255, where d is the distance in
/// pixels from the pixel's center to the shape's edge, negative inside. The edge is the byte
/// 191 (MapLibre draws text where the field is above 0.75 of 255); `radius` pixels outside it
/// the field reaches 0, `cutoff · radius` pixels inside it 255.
///
/// Partly covered pixels (coverage a strictly between 0 and 1) are taken to have the edge at
/// 0.5 − a pixels from their center (outside when a < 0.5), as TinySDF does; fully covered and
/// empty pixels get their distance from ``EuclideanDistanceTransform`` over the whole mask.
package enum SignedDistanceField {
    /// The field of a `width` × `height` coverage mask (row-major, 0 empty … 255 covered).
    package static func encode(coverage: [UInt8], width: Int, height: Int, radius: Double, cutoff: Double) -> [UInt8] {
        precondition(coverage.count == width * height && radius > 0, "mask size and radius")
        let count = coverage.count
        // Squared distances to the nearest covered place (outside) and to the nearest empty one (inside).
        var outside = [Double](repeating: 0, count: count)
        var inside = [Double](repeating: 0, count: count)
        for index in 0..<count {
            let alpha = Double(coverage[index]) / 255
            switch coverage[index] {
            case 255:
                outside[index] = 0
                inside[index] = EuclideanDistanceTransform.far
            case 0:
                outside[index] = EuclideanDistanceTransform.far
                inside[index] = 0
            default:
                let toEdge = 0.5 - alpha
                outside[index] = toEdge > 0 ? toEdge * toEdge : 0
                inside[index] = toEdge < 0 ? toEdge * toEdge : 0
            }
        }
        EuclideanDistanceTransform.transform(&outside, width: width, height: height)
        EuclideanDistanceTransform.transform(&inside, width: width, height: height)
        var field = [UInt8](repeating: 0, count: count)
        for index in 0..<count {
            let distance = outside[index].squareRoot() - inside[index].squareRoot()
            let value = (255 - 255 * (distance / radius + cutoff)).rounded()
            // Held to a byte before converting: far from any edge the value is huge.
            field[index] = UInt8(min(255, max(0, value)))
        }
        return field
    }
}
