/// How a cluster combines one attribute of its members (tippecanoe's `--accumulate-attribute`).
public enum ClusterAttributeRule: String, Hashable, Sendable, CaseIterable, Codable {
    /// The sum of the members' numbers.
    case sum
    /// Their mean.
    case mean
    /// The smallest.
    case min
    /// The largest.
    case max
    /// How many members the cluster has.
    case count
    /// The members' values as text, joined with nothing.
    case concat
    /// The members' values as text, joined with commas.
    case comma
}
