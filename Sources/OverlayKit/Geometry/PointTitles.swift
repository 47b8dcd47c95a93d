import OverlayModel

extension Shape {
    /// The shape with every point annotation in it (also inside collections) titled with a
    /// feature's name and description, as MapKit shows them in callouts. Readers of every
    /// format title points this way.
    func titlingPoints(title: String?, subtitle: String?) -> Shape {
        switch self {
        case .annotation(var annotation):
            annotation.title = title
            annotation.subtitle = subtitle
            return .annotation(annotation)
        case .collection(var collection):
            collection.members = collection.members.map { $0.titlingPoints(title: title, subtitle: subtitle) }
            return .collection(collection)
        default:
            return self
        }
    }
}
