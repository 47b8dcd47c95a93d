/// A request's `Accept-Encoding` (RFC 9110, section 12.5.3): which content codings the client
/// takes. A coding is acceptable when it is listed with a weight above 0 (`gzip`, `gzip;q=0.5`),
/// or is not listed and `*` is, with a weight above 0; `q=0` refuses it. `x-gzip` is `gzip`.
struct AcceptEncoding {
    /// Each listed coding (lowercased) with its weight.
    private var weights: [String: Double] = [:]

    /// The codings of every `Accept-Encoding` field `values` holds (several fields are one list).
    init(_ values: [String]) {
        for value in values {
            for member in value.split(separator: ",") {
                let parameters = member.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                guard let name = parameters.first, !name.isEmpty else { continue }
                var weight = 1.0
                for parameter in parameters.dropFirst() where parameter.hasPrefix("q=") {
                    // A malformed weight refuses the coding rather than guessing.
                    weight = Double(parameter.dropFirst(2)).map { min(1, max(0, $0)) } ?? 0
                }
                let coding = name == "x-gzip" ? "gzip" : name
                // When a coding is listed twice, the higher weight stands.
                weights[coding] = max(weights[coding] ?? 0, weight)
            }
        }
    }

    /// Whether the client takes `coding` (lowercase).
    func accepts(_ coding: String) -> Bool {
        if let weight = weights[coding] { return weight > 0 }
        if let any = weights["*"] { return any > 0 }
        return false
    }
}
