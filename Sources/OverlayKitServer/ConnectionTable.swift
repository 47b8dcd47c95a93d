import NIOConcurrencyHelpers
import NIOCore

/// The open connections, at most a cap of them: a new one beyond the cap closes the connection
/// idle longest (not in the middle of a request), or is closed itself when every one is busy.
/// So descriptors never run out (EMFILE), and a crowd of idle connections cannot keep an
/// ordinary request out.
final class ConnectionTable: Sendable {
    private struct Entry {
        var channel: any Channel
        /// When the connection last finished a request (or opened); nil while it serves one.
        var idleSince: NIODeadline?
    }

    /// The most connections open at once.
    let cap: Int
    private let entries = NIOLockedValueBox([ObjectIdentifier: Entry]())

    init(cap: Int) {
        self.cap = max(1, cap)
    }

    /// The connections open now.
    var count: Int { entries.withLockedValue { $0.count } }

    /// Takes `channel` in; false when it must be closed (the cap is reached and none is idle).
    /// The idle connection it replaces is closed here.
    func admit(_ channel: any Channel) -> Bool {
        let (admitted, evicted) = entries.withLockedValue { table -> (Bool, (any Channel)?) in
            var evicted: (any Channel)?
            if table.count >= cap {
                // The scan is linear in the cap and happens only at the cap.
                guard let oldest = table.filter({ $0.value.idleSince != nil }).min(by: { $0.value.idleSince! < $1.value.idleSince! }) else {
                    return (false, nil)
                }
                table[oldest.key] = nil
                evicted = oldest.value.channel
            }
            table[ObjectIdentifier(channel)] = Entry(channel: channel, idleSince: .now())
            return (true, evicted)
        }
        evicted?.close(promise: nil)
        return admitted
    }

    /// Marks `channel` busy (a request arrived) or idle again (its answer was sent).
    func mark(_ channel: any Channel, busy: Bool) {
        entries.withLockedValue { table in
            table[ObjectIdentifier(channel)]?.idleSince = busy ? nil : .now()
        }
    }

    /// Forgets a closed channel.
    func remove(_ channel: any Channel) {
        _ = entries.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// Every open channel (to close them when the server stops).
    var channels: [any Channel] { entries.withLockedValue { $0.values.map(\.channel) } }
}
