import OverlayModel

/// One change between two versions of map data: a feature added, removed, modified or moved
/// between KML folders, with where it starts and what changed.
public struct FeatureChange: Hashable, Sendable {
    /// The class of a change.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// In the new version only.
        case added
        /// In the old version only.
        case removed
        /// In both, with another geometry, properties or style.
        case modified
        /// In both and the same, in other KML folders.
        case moved

        /// The diagnostic code (and SARIF rule) of this class.
        public var code: Diagnostic.Code {
            switch self {
            case .added: .diffAdded
            case .removed: .diffRemoved
            case .modified: .diffModified
            case .moved: .diffMoved
            }
        }
    }

    /// The class.
    public var kind: Kind
    /// The feature's `--key` value or id as text; nil for a feature matched by content.
    public var label: String?
    /// The feature in the old version (nil when added).
    public var old: Feature?
    /// The feature in the new version (nil when removed).
    public var new: Feature?
    /// How the geometry changed, for a modified feature whose geometry did.
    public var geometry: GeometryChange?
    /// Properties added, removed or changed (simplestyle members are under `style`).
    public var properties: [ValueChange] = []
    /// Style fields changed, named as simplestyle names them (`fill`, `stroke-width`).
    public var style: [ValueChange] = []
    /// The folder paths, old and new, when they differ.
    public var folders: FolderChange?

    /// A change of `kind` between `old` and `new`.
    public init(kind: Kind, label: String?, old: Feature?, new: Feature?) {
        self.kind = kind
        self.label = label
        self.old = old
        self.new = new
    }

    /// Where the change is shown: the feature's start in the new version, in the old one for
    /// a removed feature.
    public var location: SourceLocation? { kind == .removed ? old?.location : new?.location ?? old?.location }
}

/// How a geometry changed: how far it moved and how its size changed.
public struct GeometryChange: Hashable, Sendable {
    /// The Hausdorff distance between old and new, metres.
    public var hausdorffMetres: Double
    /// New area minus old area, m² (polygons and circles).
    public var areaChange: Double
    /// New length minus old length, m (lines).
    public var lengthChange: Double
    /// The old shape's kind (nil: no geometry).
    public var oldKind: ShapeKind?
    /// The new shape's kind (nil: no geometry).
    public var newKind: ShapeKind?
    /// Vertices before.
    public var oldVertices: Int
    /// Vertices after.
    public var newVertices: Int

    /// A geometry change with its measures.
    public init(hausdorffMetres: Double, areaChange: Double, lengthChange: Double, oldKind: ShapeKind?, newKind: ShapeKind?,
                oldVertices: Int, newVertices: Int) {
        self.hausdorffMetres = hausdorffMetres
        self.areaChange = areaChange
        self.lengthChange = lengthChange
        self.oldKind = oldKind
        self.newKind = newKind
        self.oldVertices = oldVertices
        self.newVertices = newVertices
    }
}

/// One property or style field that differs: added (no old value), removed (no new value) or
/// changed.
public struct ValueChange: Hashable, Sendable {
    /// The property or simplestyle name.
    public var key: String
    /// The value before; nil when the key was added.
    public var old: JSONValue?
    /// The value after; nil when the key was removed.
    public var new: JSONValue?

    /// A change of `key` from `old` to `new`.
    public init(key: String, old: JSONValue?, new: JSONValue?) {
        self.key = key
        self.old = old
        self.new = new
    }

    /// The members of `old` and `new` (both sorted by key) that differ, in key order.
    static func changes(from old: JSONObject, to new: JSONObject) -> [ValueChange] {
        var changes: [ValueChange] = []
        var oldIndex = old.members.startIndex, newIndex = new.members.startIndex
        while oldIndex < old.members.endIndex || newIndex < new.members.endIndex {
            let oldMember = oldIndex < old.members.endIndex ? old.members[oldIndex] : nil
            let newMember = newIndex < new.members.endIndex ? new.members[newIndex] : nil
            if let oldMember, let newMember, oldMember.key == newMember.key {
                if oldMember.value != newMember.value { changes.append(ValueChange(key: oldMember.key, old: oldMember.value, new: newMember.value)) }
                oldIndex += 1
                newIndex += 1
            } else if let oldMember, newMember.map({ oldMember.key < $0.key }) ?? true {
                changes.append(ValueChange(key: oldMember.key, old: oldMember.value, new: nil))
                oldIndex += 1
            } else if let newMember {
                changes.append(ValueChange(key: newMember.key, old: nil, new: newMember.value))
                newIndex += 1
            }
        }
        return changes
    }
}

/// The KML folders that held a feature before and after.
public struct FolderChange: Hashable, Sendable {
    /// The old folder path, outermost first.
    public var old: [String]
    /// The new folder path.
    public var new: [String]

    /// A move from `old` to `new`.
    public init(old: [String], new: [String]) {
        self.old = old
        self.new = new
    }
}
