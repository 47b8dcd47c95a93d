// SwiftUI has its own `Shape` and `Circle`; these names let a file that imports both write the
// overlay types without module qualification. docs/design.md has the rename plan.

/// The overlay shape enum (`Shape`), under a name that does not clash with SwiftUI's `Shape`.
public typealias OverlayShape = Shape

/// A circle overlay in meters (`Circle`), under a name that does not clash with SwiftUI's `Circle`.
public typealias OverlayCircle = Circle
