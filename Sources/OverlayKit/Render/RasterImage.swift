import OverlayModel

/// Pixels of a rendered or decoded image: sRGB with straight (not premultiplied) alpha,
/// 4 bytes per pixel, rows top to bottom.
public struct RasterImage: Hashable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// r, g, b, a for each pixel, row-major.
    public let rgba: [UInt8]

    /// An image of `width` × `height` pixels from straight-alpha RGBA bytes, row by row.
    public init(width: Int, height: Int, rgba: [UInt8]) {
        precondition(rgba.count == width * height * 4, "rgba must hold width × height pixels")
        self.width = width
        self.height = height
        self.rgba = rgba
    }

    /// Decodes a PNG (through cairo).
    /// - Throws: `Diagnostic` `render.png-decode-failed`.
    public init(png: [UInt8]) throws {
        self = try CairoCanvas.decodePNG(png)
    }

    /// The pixel at column x, row y.
    public func pixel(x: Int, y: Int) -> RGBAColor {
        let offset = (y * width + x) * 4
        return RGBAColor(red: rgba[offset], green: rgba[offset + 1], blue: rgba[offset + 2], alpha: rgba[offset + 3])
    }

    /// How far two images of the same size are apart, each pixel composited over white first
    /// (so a transparent and a white background compare equal).
    public struct Difference: Hashable, Sendable {
        /// Mean absolute difference per channel, 0…255.
        public var meanAbsolute: Double
        /// The share of pixels where some channel differs by more than the threshold.
        public var fractionDiffering: Double
        /// The largest channel difference.
        public var maximum: Int
    }

    /// Compares with an image of the same size; nil when sizes differ. O(pixels).
    public func difference(from other: RasterImage, threshold: Int = 32) -> Difference? {
        guard width == other.width, height == other.height else { return nil }
        var total = 0, differing = 0, maximum = 0
        for pixel in 0..<(width * height) {
            let offset = pixel * 4
            var pixelMaximum = 0
            for channel in 0..<3 {
                let a = RasterImage.overWhite(rgba[offset + channel], alpha: rgba[offset + 3])
                let b = RasterImage.overWhite(other.rgba[offset + channel], alpha: other.rgba[offset + 3])
                let delta = abs(a - b)
                total += delta
                pixelMaximum = max(pixelMaximum, delta)
            }
            if pixelMaximum > threshold { differing += 1 }
            maximum = max(maximum, pixelMaximum)
        }
        let pixels = Double(max(1, width * height))
        return Difference(meanAbsolute: Double(total) / (pixels * 3), fractionDiffering: Double(differing) / pixels,
                          maximum: maximum)
    }

    @inline(__always)
    private static func overWhite(_ value: UInt8, alpha: UInt8) -> Int {
        (Int(value) * Int(alpha) + 255 * (255 - Int(alpha)) + 127) / 255
    }
}
