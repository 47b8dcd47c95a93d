/// Twice the signed area of a ring (the shoelace formula, Σ xⱼ·yᵢ − xᵢ·yⱼ over each edge from
/// vertex j to vertex i, the last vertex closing onto the first): positive when the ring turns
/// counterclockwise with y pointing up (longitude/latitude), which is clockwise with y pointing
/// down (map points, screen, tiles). A ring that repeats its first vertex gives the same sum.
/// The one area formula of the package: winding, ring validity, tiles and rendering use it.
///
/// - Parameters:
///   - count: the number of vertices; fewer than 3 give 0.
///   - vertex: the x, y of vertex `index`.
@inlinable
package func ringTwiceSignedArea(count: Int, _ vertex: (Int) -> (x: Double, y: Double)) -> Double {
    guard count > 2 else { return 0 }
    var sum = 0.0
    var previous = vertex(count - 1)
    for index in 0..<count {
        let current = vertex(index)
        sum += previous.x * current.y - current.x * previous.y
        previous = current
    }
    return sum
}
