import OverlayModel

/// Nested coordinate arrays as read, before the geometry type decides what they mean (GeoJSON
/// allows `coordinates` before `type`). Each array of positions is kept as its own run, ready to
/// become a vertex buffer without another copy; each array level above the positions keeps its
/// children's counts in order, so any nesting is rebuilt without per-array objects.
struct CoordinateTree {
    /// Runs at least this long leave the reader as they were read (the run being read is handed
    /// over, not copied); shorter ones are copied to their exact size, so the buffer they were
    /// read into is reused and most runs cost one allocation and no growth.
    static let handOverMinimum = 1 << 16
    /// Every non-empty array of positions, in document order (a bare position, the coordinates
    /// of a Point, is one run of one). Empty arrays are only counted, in `childCounts`.
    var runs: [[Coordinate]] = []
    /// The positions of the array being read; moved to `runs` when it closes.
    private var openRun: [Coordinate] = []
    /// How deep the arrays that hold numbers nest: 1 when `coordinates` is itself a position,
    /// 2 for an array of positions, and so on; 0 when no position was seen (empty arrays).
    var leafDepth = 0
    /// For each array level above the positions (0 is `coordinates` itself), the child count of
    /// every array at that level, left to right.
    var childCounts: [[Int]] = []
    /// The (line, column) where each of those arrays starts, parallel to `childCounts`.
    var starts: [[(line: Int, column: Int)]] = []
    /// True when some position had more than three numbers (the extra ones are not kept).
    var droppedDimensions = false
    /// The first empty array seen at each level before the depth of positions was known: once it
    /// is, an empty array at the positions' level is an empty position, not an empty ring.
    var earlyEmptyArrays: [Int: (offset: Int, indices: [Int])] = [:]

    /// Every position, in document order.
    var positions: [Coordinate] { runs.count == 1 ? runs[0] : Array(runs.joined()) }

    mutating func removeAll() {
        runs.removeAll(keepingCapacity: true)
        openRun.removeAll(keepingCapacity: true)
        earlyEmptyArrays.removeAll()
        leafDepth = 0
        for index in childCounts.indices {
            childCounts[index].removeAll(keepingCapacity: true)
            starts[index].removeAll(keepingCapacity: true)
        }
        droppedDimensions = false
    }

    /// Drops this tree's references to its runs (they belong to the geometry made from them),
    /// keeping the buffers it reuses.
    mutating func releaseRuns() {
        runs = []
    }

    /// From this capacity on, a full run grows fourfold rather than twofold. Each growth copies
    /// the run into pages never touched before (page faults, most of `convert`'s kernel time on
    /// one 12 MB feature): fourfold copies a third of the final size instead of all of it, and
    /// capacity never written costs no memory.
    static let fourfoldGrowthMinimum = 1 << 16

    mutating func append(_ position: Coordinate) {
        if openRun.count == openRun.capacity { growOpenRun(by: 1) }
        openRun.append(position)
    }

    /// Appends positions read as one run (neighbours parsed ahead on the second core).
    mutating func append(contentsOf positions: UnsafeBufferPointer<Coordinate>) {
        if openRun.count + positions.count > openRun.capacity { growOpenRun(by: positions.count) }
        openRun.append(contentsOf: positions)
    }

    /// Makes room for `extra` more positions: fourfold once the run is long, else as `Array` would.
    private mutating func growOpenRun(by extra: Int) {
        let capacity = openRun.capacity
        guard capacity >= CoordinateTree.fourfoldGrowthMinimum else { return }
        openRun.reserveCapacity(Swift.max(openRun.count + extra, capacity * 4))
    }

    /// Ends the array of positions being read: its positions become the next run.
    mutating func closeRun() {
        guard !openRun.isEmpty else { return }
        if openRun.count >= CoordinateTree.handOverMinimum {
            var run: [Coordinate] = []
            swap(&run, &openRun)
            runs.append(run)
        } else {
            // A copy of its own exact size (`Array(openRun)` would share the buffer, capacity and all).
            runs.append(openRun.withUnsafeBufferPointer { Array($0) })
            openRun.removeAll(keepingCapacity: true)
        }
    }

    mutating func record(level: Int, childCount: Int, start: (line: Int, column: Int)) {
        while childCounts.count <= level {
            childCounts.append([])
            starts.append([])
        }
        childCounts[level].append(childCount)
        starts[level].append(start)
    }

    /// Rebuilds the arrays as a JSON value (for the rare `coordinates` member that turns out to
    /// be foreign, e.g. on a Feature).
    func jsonValue() -> JSONValue {
        let positions = self.positions
        var positionIndex = 0
        var cursors = [Int](repeating: 0, count: childCounts.count)
        func position() -> JSONValue {
            let coordinate = positions[positionIndex]
            positionIndex += 1
            var numbers: [JSONValue] = [.number(coordinate.longitude), .number(coordinate.latitude)]
            if let altitude = coordinate.altitude { numbers.append(.number(altitude)) }
            return .array(numbers)
        }
        func array(level: Int) -> JSONValue {
            if level == leafDepth - 1 { return position() }
            let count = childCounts[level][cursors[level]]
            cursors[level] += 1
            return .array((0..<count).map { _ in array(level: level + 1) })
        }
        if leafDepth == 1 { return position() }
        if childCounts.isEmpty || childCounts[0].isEmpty { return .array([]) }
        return array(level: 0)
    }
}

extension JSONScanner {
    /// Reads a `coordinates` value into `tree` (cleared first). Checks while reading what does
    /// not depend on the type: every position has at least two numbers, and numbers and arrays
    /// do not mix at one level.
    func readCoordinates(into tree: inout CoordinateTree) throws {
        tree.removeAll()
        var indices: [Int] = []
        guard let first = try peekSignificant() else {
            throw error(.jsonUnexpectedEnd, "input ended where coordinates were expected")
        }
        guard first == UInt8(ascii: "[") else {
            throw error(GeoJSONDiagnosticCode.coordinatesNotArray.code, "\"coordinates\" must be an array")
        }
        coordinatesBegin(at: absolutePosition)
        defer { coordinatesBegin(at: nil) }
        try readCoordinateArray(level: 0, tree: &tree, indices: &indices)
        if tree.leafDepth == 1 { tree.closeRun() }
        // `[[[], [1, 2], …]]`: the `[]` came before any position told the depth (a fuzzer found
        // that it desynchronised the shape builder and crashed the reader).
        if tree.leafDepth > 0, let empty = tree.earlyEmptyArrays[tree.leafDepth - 1] {
            throw error(GeoJSONDiagnosticCode.positionTooShort.code, "position needs at least 2 numbers, found 0",
                        at: empty.offset, extraPath: coordinatePath(empty.indices))
        }
    }

    private func readCoordinateArray(level: Int, tree: inout CoordinateTree, indices: inout [Int]) throws {
        let startOffset = absolutePosition
        position += 1  // '['
        guard level < 64 else { throw error(GeoJSONDiagnosticCode.coordinatesTooDeep.code, "coordinates nest too deeply") }
        guard let next = try peekSignificant() else {
            throw error(.jsonUnexpectedEnd, "input ended inside coordinates")
        }
        if next == UInt8(ascii: "[") {
            if tree.leafDepth != 0 && level >= tree.leafDepth - 1 {
                throw error(GeoJSONDiagnosticCode.positionNotNumber.code, "a position must hold numbers, not arrays",
                            at: startOffset, extraPath: coordinatePath(indices))
            }
            var count = 0
            let start = lineColumn(at: startOffset)
            repeat {
                guard try peekSignificant() == UInt8(ascii: "[") else {
                    throw error(GeoJSONDiagnosticCode.mixedNesting.code, "coordinate arrays and numbers are mixed at one level",
                                extraPath: coordinatePath(indices + [count]))
                }
                indices.append(count)
                try readCoordinateArray(level: level + 1, tree: &tree, indices: &indices)
                indices.removeLast()
                count += 1
                // The neighbours of a position parsed on the second core, taken as one run.
                if tree.leafDepth == level + 2 {
                    count += takeChainedLookaheadPositions { tree.append(contentsOf: $0) }
                }
            } while try commaOrClose(UInt8(ascii: "]"))
            if level == tree.leafDepth - 2 { tree.closeRun() }
            tree.record(level: level, childCount: count, start: start)
        } else if next == UInt8(ascii: "]") {
            position += 1
            if tree.leafDepth != 0 && level == tree.leafDepth - 1 {
                throw error(GeoJSONDiagnosticCode.positionTooShort.code, "position needs at least 2 numbers, found 0",
                            at: startOffset, extraPath: coordinatePath(indices))
            }
            if tree.leafDepth == 0 && tree.earlyEmptyArrays[level] == nil {
                tree.earlyEmptyArrays[level] = (startOffset, indices)
            }
            tree.record(level: level, childCount: 0, start: lineColumn(at: startOffset))
        } else {
            if tree.leafDepth == 0 {
                tree.leafDepth = level + 1
            } else if tree.leafDepth != level + 1 {
                throw error(GeoJSONDiagnosticCode.mixedNesting.code,
                            "positions nest \(level + 1) levels deep here but \(tree.leafDepth) levels elsewhere",
                            at: startOffset, extraPath: coordinatePath(indices))
            }
            try readPosition(startOffset: startOffset, tree: &tree, indices: indices)
        }
    }

    /// Reads the numbers of one position (the '[' is consumed): longitude, latitude, altitude.
    @inline(__always)
    private func readPosition(startOffset: Int, tree: inout CoordinateTree, indices: [Int]) throws {
        // A long array's later positions may have been parsed on the second core already.
        considerLookahead()
        if let coordinate = takeLookaheadPosition() {
            tree.append(coordinate)
            return
        }
        var longitude = 0.0, latitude = 0.0, altitude: Double?
        var count = 0
        repeat {
            guard let byte = try peekSignificant() else {
                throw error(.jsonUnexpectedEnd, "input ended inside a position")
            }
            guard byte == UInt8(ascii: "-") || (byte >= 0x30 && byte <= 0x39) else {
                throw error(byte == UInt8(ascii: "[") ? GeoJSONDiagnosticCode.mixedNesting.code : GeoJSONDiagnosticCode.positionNotNumber.code,
                            "a position must hold only numbers", extraPath: coordinatePath(indices + [count]))
            }
            let value = try readDouble()
            switch count {
            case 0: longitude = value
            case 1: latitude = value
            case 2: altitude = value
            default: tree.droppedDimensions = true
            }
            count += 1
        } while try commaOrClose(UInt8(ascii: "]"))
        guard count >= 2 else {
            throw error(GeoJSONDiagnosticCode.positionTooShort.code, "position needs at least 2 numbers, found \(count)",
                        at: startOffset, extraPath: coordinatePath(indices))
        }
        tree.append(Coordinate(latitude: latitude, longitude: longitude, altitude: altitude))
    }

    /// The pointer components below `coordinates` (which is already on `path`).
    func coordinatePath(_ indices: [Int]) -> [PathComponent] {
        indices.map { .index($0) }
    }
}
