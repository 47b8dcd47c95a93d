/// The exact squared Euclidean distance transform of a sampled function on a grid, by
/// Felzenszwalb and Huttenlocher ("Distance Transforms of Sampled Functions", 2012): for every
/// cell q, min over cells p of |q − p|² + f(p). With f = 0 on the shape and ``far`` elsewhere this
/// is the squared distance to the nearest shape cell; a fractional f seeds an edge cell with its
/// distance to an edge that runs through it (as TinySDF does for anti-aliased pixels).
///
/// Two passes of the one-dimensional transform (columns, then rows) give the exact 2-D result,
/// because squared Euclidean distance separates by axis. O(width × height) time, O(max(width,
/// height)) scratch.
package enum EuclideanDistanceTransform {
    /// "No shape within reach": large enough to lose to any real distance in the grid, small
    /// enough that sums and squares stay finite.
    package static let far = 1e20

    /// Replaces `grid` (row-major, `width` × `height`) by its squared distance transform.
    package static func transform(_ grid: inout [Double], width: Int, height: Int) {
        precondition(width >= 0 && height >= 0 && grid.count == width * height, "grid size")
        let longest = max(width, height)
        guard longest > 0 else { return }
        var scratch = Scratch(capacity: longest)
        grid.withUnsafeMutableBufferPointer { cells in
            for column in 0..<width {
                scratch.transformLine(cells, start: column, step: width, count: height)
            }
            for row in 0..<height {
                scratch.transformLine(cells, start: row * width, step: 1, count: width)
            }
        }
    }

    /// The one-dimensional transform's working arrays, reused for every line.
    private struct Scratch {
        /// The line's values, copied out.
        var values: [Double]
        /// Cells whose parabolas form the lower envelope, left to right.
        var vertices: [Int]
        /// Where each envelope parabola starts to be the lowest (one more entry than vertices).
        var boundaries: [Double]

        init(capacity: Int) {
            values = [Double](repeating: 0, count: capacity)
            vertices = [Int](repeating: 0, count: capacity)
            boundaries = [Double](repeating: 0, count: capacity + 1)
        }

        /// d(q) = min over p of (q − p)² + f(p) along one line of `cells`.
        mutating func transformLine(_ cells: UnsafeMutableBufferPointer<Double>, start: Int, step: Int, count: Int) {
            guard count > 1 else { return }
            for index in 0..<count { values[index] = cells[start + index * step] }
            // The lower envelope of the parabolas rooted at (p, f(p)).
            var top = 0
            vertices[0] = 0
            boundaries[0] = -Double.infinity
            boundaries[1] = Double.infinity
            for q in 1..<count {
                var crossing = intersection(q, vertices[top])
                // Each pass removes one parabola, so this runs at most `top` times.
                while crossing <= boundaries[top] {
                    top -= 1
                    crossing = intersection(q, vertices[top])
                }
                top += 1
                vertices[top] = q
                boundaries[top] = crossing
                boundaries[top + 1] = Double.infinity
            }
            // Read the envelope from left to right.
            var segment = 0
            for q in 0..<count {
                while boundaries[segment + 1] < Double(q) { segment += 1 }
                let p = vertices[segment]
                let offset = Double(q - p)
                cells[start + q * step] = offset * offset + values[p]
            }
        }

        /// Where the parabolas rooted at cells q and p (p < q) cross.
        private func intersection(_ q: Int, _ p: Int) -> Double {
            let dq = Double(q), dp = Double(p)
            return ((values[q] + dq * dq) - (values[p] + dp * dp)) / (2 * (dq - dp))
        }
    }
}
