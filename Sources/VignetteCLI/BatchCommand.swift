import ArgumentParser
import Foundation
import VignetteBatch
import VignetteCache
import VignetteCore
import VignetteGenerators
import VignetteImaging

/// `vignette batch PATH...`: thumbnails for whole trees, into the freedesktop cache or a folder.
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Make thumbnails of every file in directories: into the freedesktop cache, or a folder.",
        discussion: """
            Walks the files and directories given (recursively unless --no-recursive; hidden \
            entries only with --hidden; symbolic links only with --follow-symlinks, each directory \
            walked once) and thumbnails every file with the best generator for its type.

            By default thumbnails go to the freedesktop cache ($XDG_CACHE_HOME/thumbnails, else \
            ~/.cache/thumbnails) in the --flavor's folder, named by the MD5 of the file's URI, with \
            the keys GNOME Files, Xfce and GLib check: a thumbnail whose Thumb::MTime or Thumb::Size \
            no longer match the file is remade. A file whose content cannot be thumbnailed (damaged, \
            over a limit) gets a fail entry in fail/vignette-VERSION/ and is not retried until it \
            changes (or --retry-failed); one that cannot be read, or whose thumbnail cannot be \
            written (a full disk), is tried again by the next run. A file \
            of a type nothing pictures gets no thumbnail there (the desktop draws its own icon) but a \
            fail entry marked as such, so the next run skips it too. The cache itself is never walked. \
            Several flavors (--flavor normal,large,x-large) are made from one decode of each file: \
            rendered once at the largest and resampled down.

            With --out DIR the tree is mirrored instead: PATH/a/b.jpg becomes DIR/a/b.jpg.png (or .jpg, \
            .webp, .avif with --format), at --size pixels, fitted or cropped by --crop; a file with no \
            generator gets the generic icon of its family. A PNG there is up to date when its keys \
            match the file, --size and --crop; another format when it has the file's modification \
            time (use --force after changing --size or --crop).

            Every file is written under a temporary name and renamed: killed at any moment, a run \
            leaves no partial thumbnail, and the next run does only what is left. Ctrl-C stops \
            after the files in progress and prints the summary so far (exit status 130); a second \
            Ctrl-C stops at once. One bad \
            file never stops the run: it is reported on stderr and the exit status is 1.

            --shard I/N (0 <= I < N) keeps only the files whose path hash (FNV-1a of the absolute \
            path) is I modulo N, so N machines that see the tree at the same path split it with no \
            coordinator (in a Kubernetes Indexed Job: --shard $JOB_COMPLETION_INDEX/N).

            --watch keeps running after the pass: files written into (or moved into) the directories \
            are thumbnailed once they have been quiet for 0.2 s, one line "generated: PATH" each (or \
            JSON lines), and new folders are watched too. Ctrl-C or SIGTERM stops it after the files \
            in progress, with the summary and exit status 0 (1 if a file failed).

            Examples:
              vignette batch ~/Pictures
              vignette batch --watch ~/Pictures
              vignette batch --flavor x-large --include '*.jpg' --include '*.png' \\
                ~/Pictures
              vignette batch --flavor normal,large,x-large ~/Pictures
              vignette batch --out thumbs --size 200 --contact-sheet thumbs/index.html \\
                photos/
              vignette batch --out squares --size 200 --crop smart --format webp photos/
              vignette batch --dry-run --json-lines ~/Pictures |
                jq -r 'select(.result=="would-generate").path'
              vignette batch --shard 3/8 --report shard-3.json /data/photos
            """
    )

    @Argument(help: ArgumentHelp("Files and directories.", valueName: "PATH"))
    var paths: [String]

    @Flag(inversion: .prefixedNo, help: "Walk directories recursively.")
    var recursive = true

    @Option(
        name: .long, parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "Only files whose name matches GLOB (a GLOB with / matches the path below PATH); may be repeated.", valueName: "GLOB"))
    var include: [String] = []

    @Option(
        name: .long, parsing: .unconditionalSingleValue,
        help: ArgumentHelp("Skip files and directories matching GLOB; may be repeated.", valueName: "GLOB"))
    var exclude: [String] = []

    @Flag(name: .long, help: "Include hidden files and directories (names starting with a dot).")
    var hidden = false

    @Flag(name: .long, help: "Follow symbolic links (each directory is walked once, so loops end).")
    var followSymlinks = false

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "Cache size class: normal (128), large (256), x-large (512), xx-large (1024); several, comma-separated, come from one decode. Default: large.",
            valueName: "FLAVOR[,FLAVOR…]"),
        transform: Flavor.list)
    var flavor: [ThumbnailFlavor]?

    /// `--flavor` values (the cache's folder names).
    enum Flavor: String, ExpressibleByArgument, CaseIterable {
        case normal, large
        case xLarge = "x-large"
        case xxLarge = "xx-large"

        var cacheFlavor: ThumbnailFlavor { ThumbnailFlavor(rawValue: rawValue) ?? .large }

        /// `normal,large` as flavors, in the order given, each once.
        static func list(_ text: String) throws -> [ThumbnailFlavor] {
            var flavors: [ThumbnailFlavor] = []
            for name in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let flavor = Flavor(rawValue: String(name)) else {
                    throw ValidationError(
                        "\(name.isEmpty ? "an empty name" : "'\(name)'") is not a flavor: use normal, large, x-large or xx-large, comma-separated"
                    )
                }
                if !flavors.contains(flavor.cacheFlavor) { flavors.append(flavor.cacheFlavor) }
            }
            return flavors
        }
    }

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Write thumbnails to DIR, mirroring the input tree, instead of the cache.", valueName: "DIR"))
    var out: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Longest side with --out (default 256).", valueName: "PX"))
    var size: Int?

    @Option(
        name: .long, parsing: .unconditional,
        help: "Output format with --out: png, jpeg, webp or avif (default png; the cache itself is always PNG).",
        transform: ImageFormat.argument(for: "--format"))
    var format: ImageFormat?

    @Option(name: .long, parsing: .unconditional, help: "Quality with --format jpeg, webp or avif, 1–100.")
    var quality = ThumbnailOutput.defaultQuality

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "With --out: fit the whole picture in the --size box, or fill the box (centred) or smart-crop it (the cache is always fit).",
            valueName: "fit|fill|smart"))
    var crop: ThumbnailCrop?

    @Flag(name: .long, help: "Remake every thumbnail, valid or not.")
    var force = false

    @Flag(name: .long, help: "Try again files with a recorded failure.")
    var retryFailed = false

    @Flag(name: .long, help: "Say what would be done; write nothing.")
    var dryRun = false

    @Option(name: [.short, .customLong("jobs")], parsing: .unconditional, help: "Files processed at once (default: all cores).")
    var jobs: Int?

    @Flag(name: .long, help: "Print one JSON object per file, then a summary object, on stdout (no progress bar).")
    var jsonLines = false

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Write every file's result and the summary to FILE as JSON.", valueName: "FILE"))
    var report: String?

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Write an HTML page of all thumbnails with their names to FILE.", valueName: "FILE"))
    var contactSheet: String?

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Process only shard I of N (0 <= I < N), by a stable hash of each path.", valueName: "I/N"),
        transform: ShardSpec.argument)
    var shard: ShardSpec?

    @Flag(name: .long, help: "After the pass, keep thumbnailing files as they appear or change (the PATHs must be directories).")
    var watch = false

    @OptionGroup var registryOptions: RegistryOptions

    func validate() throws {
        try OptionBounds.nonEmpty(out, "--out", give: "a directory")
        try OptionBounds.nonEmpty(report, "--report", give: "a file")
        try OptionBounds.nonEmpty(contactSheet, "--contact-sheet", give: "a file")
        if let jobs { try OptionBounds.within(jobs, 1...256, "--jobs") }
        if let size { try OptionBounds.within(size, 1...4096, "--size") }
        try OptionBounds.within(quality, 1...100, "--quality")
        if watch && dryRun { throw ValidationError("--watch and --dry-run cannot be used together") }
        if out == nil {
            if size != nil { throw ValidationError("--size needs --out (the cache's sizes come from --flavor)") }
            if format != nil { throw ValidationError("--format needs --out (the cache holds PNGs)") }
            if crop != nil { throw ValidationError("--crop needs --out (the cache's thumbnails show the whole picture)") }
        } else if flavor != nil {
            throw ValidationError("--flavor is for the cache; with --out use --size")
        }
    }

    func run() throws {
        let pipeline = ThumbnailPipeline(registry: try registryOptions.makeRegistry(writingTypeCache: !dryRun))
        // Our own cache folder (the compiled MIME database) is never a source of thumbnails.
        let ownCache = SystemMIMEDatabase.cacheDirectory(XDGDirectories())
        var walker = BatchWalker(
            recursive: recursive, hidden: hidden, followSymlinks: followSymlinks, includes: include, excludes: exclude, shard: shard)
        let destination: BatchDestination
        if let out {
            if !dryRun { try DirectoryMaker.create(out, purpose: "cannot create the output directory") }
            destination = .folder(
                SourceFile.absolute(out), size: size ?? 256, output: ThumbnailOutput(format: format ?? .png, quality: quality),
                crop: crop ?? .fit)
            walker.skippedDirectories = [out, ownCache]
        } else {
            let cache = ThumbnailCache(root: ThumbnailCache.defaultRoot(), version: VignetteVersion.string)
            let chosen = flavor ?? [.large]
            if !dryRun { for flavor in chosen { cache.removeStaleTemporaries(flavor: flavor) } }
            destination = .cache(cache, chosen)
            walker.skippedDirectories = [cache.root, ownCache]
        }
        let worker = BatchWorker(pipeline: pipeline, destination: destination, force: force, retryFailed: retryFailed, dryRun: dryRun)
        let tally = BatchTally()
        let progress = BatchProgress(tally: tally, enabled: isatty(STDERR_FILENO) == 1 && !jsonLines)
        let recorder = try BatchRecorder(
            console: progress, jsonLines: jsonLines, listsDryRun: dryRun && !jsonLines, reportPath: report, sheetPath: contactSheet)
        let jobCount = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let batch = BatchRun(walker: walker, worker: worker, jobs: jobCount)
        let watcher = watch ? try BatchWatch(walker: walker, worker: worker, jobs: jobCount) : nil
        // Watches are in place before the pass, so what is written during it is not missed.
        try watcher?.watch(paths, console: progress)
        let interrupt = InterruptFlag()
        interrupt.install(signals: watch ? [SIGINT, SIGTERM] : [SIGINT]) {
            batch.cancel()
            watcher?.stop()
        }

        progress.start()
        batch.run(paths, tally: tally, recorder: recorder)
        let passCutShort = batch.isCancelled
        if let watcher, !watcher.isStopped {
            recorder.listGenerated()
            let shown = paths.map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
            progress.printError(
                "watching \(shown.joined(separator: ", ")) (\(watcher.folderCount) folder\(watcher.folderCount == 1 ? "" : "s")); Ctrl-C to stop"
            )
            watcher.run(tally: tally, recorder: recorder)
        }
        progress.stop()

        let snapshot = tally.snapshot()
        // Stopping is how a watch ends: an interruption only if it came before the first pass was done.
        let interrupted = watch ? passCutShort : interrupt.isSet
        let summary = snapshot.jsonObject(interrupted: interrupted)
        do {
            try recorder.finish(summary: summary)
        } catch {
            Diagnostics.report(error)
            throw ExitCode(1)
        }
        if jsonLines {
            print(BatchRecorder.line(summary))
        } else {
            print(snapshot.summary(dryRun: dryRun, interrupted: interrupted))
        }
        if let contactSheet, !dryRun { print("contact sheet: \(contactSheet)") }
        if interrupted && !watch { throw ExitCode(130) }
        if snapshot.count(.failed) > 0 { throw ExitCode(1) }
    }
}
