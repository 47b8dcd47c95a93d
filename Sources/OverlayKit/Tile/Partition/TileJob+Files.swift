import Foundation
import OverlayModel

// The work files of a split run: how a step saves what the next one loads, each checked as it is read back.
extension TileJob {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }()

    func save(_ value: some Encodable, to file: File) throws {
        try save(bytes: Array(try Self.encoder.encode(value)), to: file)
    }

    func save(bytes: [UInt8], to file: File) throws {
        let output = try AtomicOutput(path: file.path(in: work), kind: .stream, replaceExisting: true)
        let descriptor = try output.openStream()
        do {
            try POSIX.writeAll(descriptor, bytes, at: 0, what: output.path)
            try output.commit(descriptor: descriptor)
        } catch {
            output.abort()
            throw error
        }
    }

    /// `plan.json`, checked as `job.json` is: its settled options in range (the settings the
    /// command line would accept), the job's partition zoom, partitions inside its grid.
    /// - Throws: `tile.bad-work-file` naming the file.
    func loadPlan() throws -> Plan {
        let path = File.plan.path(in: work)
        let plan = try Self.load(Plan.self, from: path)
        if let first = plan.facts.options.problems.first {
            throw Diagnostic(.error, code: .tileBadWorkFile, message: "\(path) holds a setting out of range: \(first); run the plan again")
        }
        if let problem = plan.readBackProblem {
            throw Diagnostic(.error, code: .tileBadWorkFile, message: "\(path) is damaged: \(problem); run the plan again")
        }
        let partitions = 1 << (2 * partitionZoom)
        guard plan.partitionZoom == partitionZoom, plan.partitions.allSatisfy({ (0..<partitions).contains($0.index) }) else {
            throw Diagnostic(.error, code: .tileBadWorkFile, message: "\(path) is not the plan of this job (partition zoom \(partitionZoom)); run the plan again")
        }
        return plan
    }

    static func loadBytes(from path: String) throws -> [UInt8] {
        guard POSIX.regularFileSize(path) != nil else {
            throw Diagnostic(.error, code: .tileBadWorkFile, message: "\(path) is missing: run the step that writes it first")
        }
        // Read through the POSIX layer: Foundation's `FileManager.contents(atPath:)` leaked its
        // 4 KiB read buffer on a work file the tile-job fuzz target made.
        return try ArchiveFiles.readFile(path, limit: .max)
    }

    static func load<Value: Decodable>(_ type: Value.Type, from path: String) throws -> Value {
        let bytes = try loadBytes(from: path)
        do {
            return try decoder.decode(type, from: Data(bytes))
        } catch {
            throw Diagnostic(.error, code: .tileBadWorkFile, message: "\(path) cannot be read: \(error)")
        }
    }
}
