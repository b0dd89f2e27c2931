import ArgumentParser
import Foundation
import VignetteCache
import VignetteCore
import VignetteGenerators

/// `vignette cache`: upkeep of the freedesktop thumbnail cache.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Look after the freedesktop thumbnail cache.",
        discussion: """
            Examples:
              vignette cache prune
              vignette cache prune --max-size 500M --dry-run --verbose
            """,
        subcommands: [Prune.self]
    )
}

extension CacheCommand {
    /// `vignette cache prune`: removes entries whose file is gone or changed, then trims to `--max-size`.
    struct Prune: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prune",
            abstract: "Remove thumbnails whose file is gone or changed; trim the cache to a size.",
            discussion: """
                Looks at every entry of the thumbnail cache ($XDG_CACHE_HOME/thumbnails, else \
                ~/.cache/thumbnails, or --cache-dir): the normal, large, x-large and xx-large \
                folders and every fail/*/ folder, whichever program wrote them. An entry whose \
                Thumb::URI is a file:// URI is removed when that file no longer exists (a file on a \
                disk that is not mounted counts as gone), or when its modification time differs from \
                Thumb::MTime or its size from Thumb::Size — the test the desktop applies. Entries of \
                other URIs (trash:, remote hosts) are kept; entries that cannot be read (not a PNG, no \
                Thumb::URI) are left alone and counted.

                With --max-size SIZE the least recently used entries are then removed until the \
                entry files total at most SIZE. Last use is the later of an entry file's access time \
                and its modification time, so on a noatime mount it is the time the entry was written. \
                SIZE is bytes, or a number with K, M, G or T (powers of 1024; KB, MB, GB, TB are powers \
                of 1000): 1048576, 500M, 2G.

                Only regular *.png files directly inside those folders are ever removed; symbolic \
                links, hidden temporaries and anything else are not touched, and no link below the \
                cache root is followed. A folder or entry that cannot be read or removed is reported \
                on stderr and the rest goes on; the exit status is then 1.

                Examples:
                  vignette cache prune
                  vignette cache prune --max-size 500M
                  vignette cache prune --dry-run --verbose
                  vignette cache prune --cache-dir /srv/home/ann/.cache/thumbnails --max-size 2G
                """
        )

        @Option(
            name: .long, parsing: .unconditional,
            help: ArgumentHelp("The cache root (default: $XDG_CACHE_HOME/thumbnails).", valueName: "DIR"))
        var cacheDir: String?

        @Option(
            name: .long, parsing: .unconditional,
            help: ArgumentHelp("Then remove the least recently used entries until they total at most SIZE (500M, 2G).", valueName: "SIZE"))
        var maxSize: String?

        @Flag(name: .long, help: "Say what would be removed; remove nothing.")
        var dryRun = false

        @Flag(name: .long, help: "List each removed entry with its reason, and each unreadable one.")
        var verbose = false

        func validate() throws {
            try OptionBounds.nonEmpty(cacheDir, "--cache-dir", give: "a directory")
            if let maxSize, ByteCount.parse(maxSize) == nil {
                throw ValidationError(
                    "--max-size must be a number of bytes, or one with K, M, G or T (like 500M, 2G or 1048576), not '\(maxSize)'")
            }
        }

        func run() throws {
            // A --cache-dir mistyped would otherwise read as an empty cache; the default root may
            // not exist yet, which is no mistake.
            if let cacheDir {
                var st = stat()
                guard stat(cacheDir, &st) == 0 else { throw VignetteError.fromErrno(errno, path: cacheDir) }
                guard st.st_mode & S_IFMT == S_IFDIR else { throw VignetteError(.invalidRequest, path: cacheDir, "is not a directory") }
            }
            let pruner = CachePruner(
                root: cacheDir ?? ThumbnailCache.defaultRoot(), maxSize: maxSize.flatMap(ByteCount.parse), dryRun: dryRun)
            let report = pruner.run()
            for error in report.errors { Diagnostics.report(error) }
            if verbose {
                let output = OutputBuffer()
                for removal in report.removals {
                    let verb = dryRun ? "would remove" : "removed"
                    output.write("\(verb) (\(Self.phrase(removal.reason))): \(removal.path) (\(removal.uri))\n")
                }
                for entry in report.unreadable { output.write("left alone (\(entry.reason)): \(entry.path)\n") }
                output.flush()
            }
            print(Self.summary(report))
            if !report.errors.isEmpty { throw ExitCode(1) }
        }

        /// The reason as the summary and `--verbose` say it.
        static func phrase(_ reason: CachePruneReport.Reason) -> String {
            switch reason {
            case .fileGone: "file gone"
            case .fileChanged: "file changed"
            case .overMaxSize: "over --max-size"
            }
        }

        /// `cache prune: 11 entries checked: 4 removed (file gone), 3 removed (file changed), 0 removed
        /// (over --max-size), 1 unreadable left alone; 48.2 KB freed (cache now 20.1 KB)`, or in a dry
        /// run `cache prune (dry run): … 4 to remove (file gone), … ; 48.2 KB to free (cache would be 20.1 KB)`.
        static func summary(_ report: CachePruneReport) -> String {
            let verb = report.dryRun ? "to remove" : "removed"
            let parts = CachePruneReport.Reason.allCases.map { "\(report.count($0)) \(verb) (\(phrase($0)))" }
            let freed = ByteCount.text(report.freedBytes)
            let remaining = ByteCount.text(report.remainingBytes)
            let bytes = report.dryRun ? "\(freed) to free (cache would be \(remaining))" : "\(freed) freed (cache now \(remaining))"
            return
                "cache prune\(report.dryRun ? " (dry run)" : ""): \(CountText.counted(report.checked, "entry", plural: "entries")) checked: "
                + parts.joined(separator: ", ") + ", \(report.unreadable.count) unreadable left alone; \(bytes)"
        }
    }
}
