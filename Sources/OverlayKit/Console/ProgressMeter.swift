#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// A progress line on standard error: bytes read, features seen and matched, rate. Shown when
/// asked for, or when standard error is a terminal and the run has taken over two seconds.
struct ProgressMeter {
    let input: ByteInput
    let enabled: Bool
    private let forced: Bool
    private let status: (String) -> Void
    private let start = ProgressMeter.now()
    private var lastDraw = 0.0
    private var features = 0
    private var drawn = false

    /// - Parameter status: writes text to standard error (or wherever the caller's status goes).
    init(input: ByteInput, forced: Bool, status: @escaping (String) -> Void) {
        self.input = input
        enabled = forced || isatty(STDERR_FILENO) == 1
        self.forced = forced
        self.status = status
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    mutating func tick(matched: Int) {
        features += 1
        guard enabled, features & 255 == 0 else { return }
        let now = ProgressMeter.now()
        guard now - lastDraw >= 0.5, forced || now - start >= 2 else { return }
        lastDraw = now
        draw(matched: matched, now: now, final: false)
    }

    private mutating func draw(matched: Int, now: Double, final: Bool) {
        let megabytes = Double(input.bytesRead) / 1_000_000
        let rate = megabytes / max(now - start, 1e-6)
        var text = "\r\(format(megabytes)) MB"
        if let size = input.expectedSize, size > 0 { text += " (\(Int(Double(input.bytesRead) * 100 / Double(size)))%)" }
        text += ", \(features) features, \(matched) matched, \(format(rate)) MB/s"
        status(text + (final ? "\n" : "\u{1B}[K"))
        drawn = !final
    }

    private func format(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// Ends the line before other text goes to standard error.
    mutating func clearLine() {
        guard drawn else { return }
        status("\n")
        drawn = false
    }

    mutating func finish(matched: Int) {
        guard enabled, forced || drawn else { return }
        draw(matched: matched, now: ProgressMeter.now(), final: true)
    }
}
