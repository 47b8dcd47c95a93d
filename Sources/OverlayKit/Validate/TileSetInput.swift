import OverlayModel

/// A tile set given to `validate` (`.mbtiles`, `.pmtiles`): there are no format rules for it,
/// so it is only opened (a damaged archive is an unreadable input) and left to the profiles
/// that measure tiles (`mapbox-upload`).
enum TileSetInput {
    /// The archive format of a path that names a tile set file, else nil.
    static func format(of path: String) -> TileArchiveFormat? {
        let format = TileArchiveFormat(path: path)
        return format == .directory ? nil : format
    }

    /// Opens the tile set: a result with no findings, or the reason it cannot be read.
    static func open(_ path: String, format: TileArchiveFormat) -> ValidationResult {
        do {
            _ = try TileArchive.open(path)
            return ValidationResult(file: path, format: nil, findings: [], tileSet: format)
        } catch let diagnostic as Diagnostic {
            var diagnostic = diagnostic
            diagnostic.location = diagnostic.location ?? SourceLocation(file: path, line: 0, column: 0)
            return ValidationResult(file: path, format: nil, findings: [diagnostic], isUnreadable: true, tileSet: format)
        } catch {
            return ValidationResult(file: path, format: nil,
                                    findings: [Diagnostic(.error, code: .ioReadFailed, message: "cannot read \(path): \(error)",
                                                          location: SourceLocation(file: path, line: 0, column: 0))],
                                    isUnreadable: true, tileSet: format)
        }
    }
}
