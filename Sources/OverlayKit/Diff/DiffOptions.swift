import OverlayModel

/// What `overlaykit diff` takes for the same and what it reports, declared once and checked
/// before any input is read.
public struct DiffOptions: Sendable {
    /// A property that identifies features (`--key PROP`): a feature holding it is matched by its
    /// value before its id; nil matches by id, then by content.
    public var key: String?
    /// Decimals of degrees coordinates are compared at (`--precision`, default 7, as `convert`
    /// writes): positions equal after rounding to this many decimals are the same.
    public var precision: Int
    /// Metres a geometry may move (Hausdorff distance) without being a change (`--tolerance`).
    /// 0 (the default) reports any change of the rounded coordinates.
    public var tolerance: Double
    /// The format of the old input when its name and bytes do not tell.
    public var oldFormat: FileFormat?
    /// The format of the new input when its name and bytes do not tell.
    public var newFormat: FileFormat?
    /// What a KMZ input may inflate to.
    public var kmzLimits: KMZ.Limits

    /// Options with the defaults `overlaykit diff` uses.
    public init(key: String? = nil, precision: Int = 7, tolerance: Double = 0,
                oldFormat: FileFormat? = nil, newFormat: FileFormat? = nil, kmzLimits: KMZ.Limits = KMZ.Limits()) {
        self.key = key
        self.precision = precision
        self.tolerance = tolerance
        self.oldFormat = oldFormat
        self.newFormat = newFormat
        self.kmzLimits = kmzLimits
    }

    /// Checks the ranges: precision 0…15 decimals, a finite tolerance ≥ 0, a non-empty key.
    /// - Throws: `Diagnostic` `diff.bad-option` naming the option.
    public func validated() throws -> DiffOptions {
        guard (0...15).contains(precision) else {
            throw Diagnostic(.error, code: .diffBadOption, message: "--precision must be 0…15 decimals, not \(precision)")
        }
        guard tolerance.isFinite, tolerance >= 0 else {
            throw Diagnostic(.error, code: .diffBadOption, message: "--tolerance must be a number of metres ≥ 0")
        }
        if let key, key.isEmpty {
            throw Diagnostic(.error, code: .diffBadOption, message: "--key needs a property name")
        }
        return self
    }
}
