/// How urgent a request to the thumbnailer service is (the thumbnail management D-Bus spec's schedulers).
public enum ThumbnailScheduler: String, Sendable, CaseIterable {
    /// What a client gets when it names no scheduler: after foreground requests, first come first served.
    case `default`
    /// Files on screen now: ahead of everything else, the newest request first (a scrolled view
    /// asks again for what it shows now; what it showed before matters less).
    case foreground
    /// Bulk work: only when nothing else waits, first come first served.
    case background

    /// The order requests are served in: lower first.
    var rank: Int {
        switch self {
        case .foreground: 0
        case .default: 1
        case .background: 2
        }
    }
}
