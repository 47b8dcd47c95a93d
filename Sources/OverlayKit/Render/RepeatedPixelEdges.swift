/// Leaves out the segments of a long stroked line that join two device pixels the line has
/// already joined, so the canvas gets at most a dozen segments per pixel of the picture
/// however often the line passes there: a GPS track of 2 million 10 m steps, fitted into
/// 1024×768 pixels, crosses each pixel it covers dozens of times, and cairo's stroke costs in
/// proportion to the segments it is given (issue 51 item 7).
///
/// Every vertex moves to the center of its device pixel, so a segment between two pixels is the
/// same segment each time the line joins them, and drawing it again adds nothing to a round-capped,
/// round-joined stroke painted once (`CairoCanvas` strokes a long line as one opaque group): the
/// union of the capsules is what shows. The vertices move by at most half a pixel on each axis
/// (the pixel decimation before this already drops vertices within one pixel). The line is
/// split where a segment is left out, and each piece keeps round caps, so the union is the same.
///
/// Segments spanning at most `reach` pixels on each axis between two pixels of the picture
/// (with a `margin` around it) are remembered in one bit each, 2 bytes a pixel; longer ones and
/// ones off the picture are always kept. Memory O(pixels), time O(vertices).
struct RepeatedPixelEdges {
    /// The picture's width in device pixels.
    let pixelWidth: Int
    /// The picture's height in device pixels.
    let pixelHeight: Int

    /// Pixels around the picture whose segments are remembered too (a stroke's edge shows).
    static let margin = 4
    /// The longest segment remembered, in pixels on each axis.
    static let reach = 2
    /// Lines with fewer segments than this are drawn as they are (the examples' lines stay
    /// byte for byte what they were).
    static let minimumSegments = 16_384

    /// Whether a line path stroked this way is filtered: long, undashed, round caps and joins.
    static func applies(to path: DevicePath, _ stroke: StrokePaint) -> Bool {
        !path.closed && stroke.cap == .round && stroke.join == .round && !stroke.dash.contains(where: { $0 > 0 })
            && path.pointCount - path.starts.count >= minimumSegments
    }

    /// The path with its vertices at their pixels' centers and every segment that joins two
    /// pixels already joined left out (the line split there). O(points).
    func filtered(_ path: DevicePath) -> DevicePath {
        let margin = RepeatedPixelEdges.margin
        let width = max(0, pixelWidth) + 2 * margin, height = max(0, pixelHeight) + 2 * margin
        // One bit per direction of the half plane (dx > 0, or dx == 0 and dy > 0) per pixel.
        var seen = [UInt16](repeating: 0, count: width * height)
        var result = DevicePath(closed: false)
        result.xy.reserveCapacity(min(path.xy.count, 2 * 12 * width * height))
        // Pixel coordinates, clamped so that hostile positions stay Ints (they are kept, never remembered).
        func cell(_ value: Double) -> Int { Int(max(-1e9, min(1e9, value)).rounded(.down)) }
        for index in 0..<path.starts.count {
            let range = path.subpath(index)
            var previous = (x: cell(path.xy[2 * range.lowerBound]), y: cell(path.xy[2 * range.lowerBound + 1]))
            var open = false
            if range.count == 1 {
                result.append(subpath: [Double(previous.x) + 0.5, Double(previous.y) + 0.5])
                continue
            }
            for point in range.dropFirst() {
                let current = (x: cell(path.xy[2 * point]), y: cell(path.xy[2 * point + 1]))
                var dx = current.x - previous.x, dy = current.y - previous.y
                var anchor = previous
                if dx < 0 || (dx == 0 && dy < 0) {
                    anchor = current
                    dx = -dx
                    dy = -dy
                }
                let column = anchor.x + margin, row = anchor.y + margin
                var isRepeat = false
                if (dx != 0 || dy != 0), dx <= RepeatedPixelEdges.reach, abs(dy) <= RepeatedPixelEdges.reach,
                   column >= 0, column < width, row >= 0, row < height {
                    // dx 0: dy 1…2 → bits 0…1; dx 1…2: dy −2…2 → bits 2…11.
                    let bit = dx == 0 ? dy - 1 : 2 + (dx - 1) * 5 + (dy + 2)
                    let slot = row * width + column
                    isRepeat = seen[slot] & (1 << bit) != 0
                    seen[slot] |= 1 << bit
                }
                if isRepeat {
                    // Left out: the piece drawn so far ends here.
                    open = false
                    previous = current
                    continue
                }
                if dx == 0 && dy == 0 {
                    // No move: only a piece not yet started shows it, as a dot.
                    if !open {
                        result.append(subpath: [Double(current.x) + 0.5, Double(current.y) + 0.5, Double(current.x) + 0.5, Double(current.y) + 0.5])
                        open = true
                    }
                    continue
                }
                if !open {
                    result.append(subpath: [Double(previous.x) + 0.5, Double(previous.y) + 0.5])
                    open = true
                }
                result.xy.append(Double(current.x) + 0.5)
                result.xy.append(Double(current.y) + 0.5)
                previous = current
            }
        }
        return result
    }
}
