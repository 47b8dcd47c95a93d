#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// The SimpleFields of the Schema a `SchemaData` names, in the order its `SimpleData` name
/// them, so a value's field is found by comparing the `name` attribute's bytes with the one
/// expected next: no String is made for the name and no dictionary is hashed, which is what
/// each of a placemark's dozens of values cost before (issue 50).
///
/// Placemarks of one file list their values in one order (the writer's schema order), so after
/// the first placemark the expected entry is almost always the one named. A name that is not
/// the expected one is looked up as before (its String made, the Schema's dictionary hashed)
/// and the order resumes after it. The entries belong to one Schema at one `version` of the
/// reader's Schema tables; `begin` starts over when either changed.
struct KMLSchemaFieldCache {
    /// How a field's values are typed (`KMLParserCore.typedValue`), decided once per field.
    enum ValueKind {
        /// No SimpleField of this name: the text as it is.
        case text
        /// `int`, `uint`, `short`, `ushort`.
        case integer
        /// `float`, `double`.
        case number
        /// `string` holding JSON (`KMLConventions.jsonFieldDisplayName`), `bool`: only through
        /// the String path.
        case special
        /// `string` and every other type: the text as it is.
        case string
    }

    /// One name and what the Schema says about it (a class: handing it out is one retain,
    /// not one per member).
    final class Entry {
        /// The `name` attribute's bytes (never holding `&`, so they are also its value).
        let name: [UInt8]
        /// The property name (the attribute's value).
        let key: String
        /// The SimpleField of that name, nil when the Schema has none.
        let field: (type: String, displayName: String?)?
        let kind: ValueKind
        /// The entry's index in its `Names` (nil when the table was full): a property builder
        /// tells its names apart by this id, without hashing the name.
        let id: Int?

        init(name: [UInt8], key: String, field: (type: String, displayName: String?)?, kind: ValueKind, id: Int?) {
            self.name = name
            self.key = key
            self.field = field
            self.kind = kind
            self.id = id
        }
    }

    /// The names of one Schema's entries by id, and the ids by name. Entries are only added,
    /// so an id stays valid while the table lives; a new table starts when `begin` starts over
    /// (a class: a property builder holds the table its ids belong to).
    final class Names {
        /// The names, by id.
        private(set) var keys: [String] = []
        /// The id of each name.
        private(set) var index: [String: Int] = [:]

        fileprivate func add(_ key: String) -> Int {
            index[key] = keys.count
            keys.append(key)
            return keys.count - 1
        }
    }

    /// The most entries kept: a Schema with more fields still reads, through the dictionary.
    static let maximumEntries = 4_096

    private var schemaID = ""
    private var version = -1
    private var entries: [Entry] = []
    /// Entry index by key (to resume the order after a name read out of it) and the names of
    /// the entries by index.
    private(set) var names = Names()
    private var cursor = 0

    /// Starts a `SchemaData` of `schemaID`; `version` counts the changes to the reader's
    /// Schema tables (a Schema defined or made text-only), so entries read under other tables
    /// are dropped.
    mutating func begin(schemaID: String, version: Int) {
        if schemaID != self.schemaID || version != self.version {
            self.schemaID = schemaID
            self.version = version
            entries.removeAll()
            names = Names()
        }
        cursor = 0
    }

    /// The entry for the `name` attribute's `bytes` among `fields` (the Schema's fields),
    /// or nil when the bytes hold `&` (an escaped character: the caller reads the value).
    mutating func entry(named bytes: UnsafeBufferPointer<UInt8>,
                        fields: [String: (type: String, displayName: String?)]) -> Entry? {
        if cursor < entries.count && Self.equal(entries[cursor].name, bytes) {
            cursor += 1
            return entries[cursor - 1]
        }
        guard !bytes.contains(UInt8(ascii: "&")) else { return nil }
        let key = String(decoding: bytes, as: UTF8.self)
        if let index = names.index[key] {
            cursor = index + 1
            return entries[index]
        }
        let field = fields[key]
        guard cursor == entries.count && entries.count < Self.maximumEntries else {
            return Entry(name: Array(bytes), key: key, field: field, kind: Self.kind(of: field), id: nil)
        }
        let entry = Entry(name: Array(bytes), key: key, field: field, kind: Self.kind(of: field), id: names.add(key))
        entries.append(entry)
        cursor += 1
        return entry
    }

    private static func equal(_ name: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard name.count == bytes.count else { return false }
        guard let base = bytes.baseAddress else { return true }
        return name.withUnsafeBufferPointer { memcmp($0.baseAddress!, base, bytes.count) == 0 }
    }

    static func kind(of field: (type: String, displayName: String?)?) -> ValueKind {
        guard let field else { return .text }
        switch field.type {
        case "int", "uint", "short", "ushort": return .integer
        case "float", "double": return .number
        case "bool": return .special
        case "string": return field.displayName == KMLConventions.jsonFieldDisplayName ? .special : .string
        default: return .string
        }
    }
}
