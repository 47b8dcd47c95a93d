import OverlayModel

/// Everything one validation run found, as `overlaykit validate` reports it: a result per
/// input, a report per check (each profile…), and the problems of what the run was given
/// beside its inputs (an XML Schema that cannot be read, reported against the schema file).
public struct ValidationRun: Sendable {
    /// One result per input, in the order given.
    public var results: [ValidationResult]
    /// One report per check (`ValidationCheck`), in the order the checks were given.
    public var checks: [CheckReport]
    /// Findings about the run's own inputs beside the files (the `--schema` file): located at
    /// that file, and never counted against a document.
    public var problems: [Diagnostic]

    /// A run's results, check reports and problems.
    public init(results: [ValidationResult], checks: [CheckReport] = [], problems: [Diagnostic] = []) {
        self.results = results
        self.checks = checks
        self.problems = problems
    }

    /// The totals.
    public var summary: ValidationReport.Summary { ValidationReport.Summary(self) }

    /// The exit status `overlaykit validate` gives: 74 when an input (or the schema) cannot be
    /// opened, 65 when one cannot be read as GeoJSON, KML or a tile set (or the schema is not
    /// one), 1 when any input has errors or a check fails (warnings too with `strict`), else 0.
    public func exitStatus(strict: Bool) -> Int32 {
        let unreadable = results.filter(\.isUnreadable).flatMap(\.findings) + problems
        if unreadable.contains(where: \.isIOError) { return 74 }
        if !unreadable.isEmpty { return 65 }
        let summary = self.summary
        if summary.errors > 0 || (strict && summary.warnings > 0) { return 1 }
        return checks.allSatisfy { $0.passed(strict: strict) } ? 0 : 1
    }
}

extension Validator {
    /// Validates every input (`-` for standard input) and runs `checks` over them: one call
    /// for what `overlaykit validate` does. The XML Schema of `options.schemaPath` is compiled
    /// once; when it cannot be read that is one problem of the run (at the schema file, with
    /// libxml2's line and column for a parse error), and the inputs are checked without it.
    /// Standard input is read into memory when a check needs its bytes again.
    public static func run(paths: [String], format: FileFormat? = nil, options: ValidationOptions = ValidationOptions(),
                           checks: [any ValidationCheck] = []) -> ValidationRun {
        let schema = SchemaLoad(options)
        var inputs: [ValidationInput] = []
        for path in paths {
            if path != "-", let archive = TileSetInput.format(of: path) {
                inputs.append(ValidationInput(name: path, result: TileSetInput.open(path, format: archive)))
                continue
            }
            if path == "-" && !checks.isEmpty {
                do {
                    let bytes = try ByteInput(path: "-").readAll()
                    let result = validate(ByteInput(bytes: bytes), format: format, options: options, filePath: nil, schema: schema.schema)
                    inputs.append(ValidationInput(name: nil, result: result, bytes: bytes))
                } catch let diagnostic as Diagnostic {
                    inputs.append(ValidationInput(name: nil, result: ValidationResult(file: nil, format: nil, findings: [diagnostic], isUnreadable: true)))
                } catch {
                    let failure = Diagnostic(.error, code: .ioReadFailed, message: "cannot read standard input: \(error)")
                    inputs.append(ValidationInput(name: nil, result: ValidationResult(file: nil, format: nil, findings: [failure], isUnreadable: true)))
                }
                continue
            }
            inputs.append(ValidationInput(name: path == "-" ? nil : path,
                                          result: validate(path: path, format: format, options: options, schema: schema.schema)))
        }
        let reports = checks.flatMap { $0.run(on: inputs) }
        return ValidationRun(results: inputs.map(\.result), checks: reports, problems: schema.problem.map { [$0] } ?? [])
    }
}
