import ArgumentParser
import Foundation
import VignetteCore
import VignetteGenerators
import VignetteImaging

/// `vignette thumbnail FILE...`: thumbnails of any file, from the best generator for its type.
struct ThumbnailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Make thumbnails of files: pictures of their content, or an icon.",
        discussion: """
            The generator for the file's content type draws it (`vignette which FILE` shows \
            which and why). The longest side becomes SIZE × SCALE pixels, the aspect ratio is \
            kept, and images are never enlarged unless --upscale is given. JPEGs are shrunk \
            while decoding and turned upright by their EXIF orientation. A file no generator \
            can draw gets the generic document icon of its family with its extension as a \
            badge; when a generator failed first (a damaged image, a limit) that is said on \
            stderr as a warning, and --no-fallback makes it an error instead. Files are written \
            to a temporary name and renamed, so a thumbnail is never half-written. With several \
            inputs, failures are reported one line each on stderr, the others are still done, \
            and the exit status is 1.

            Output names: one input and -o FILE writes FILE (-o - writes to stdout); otherwise \
            each input NAME becomes DIR/NAME.png (or .jpg), DIR being -o or the current directory. \
            A FILE of - is standard input, typed by its content (and by --stdin-name's extension); \
            its thumbnail is stdin.png unless -o says otherwise.

            Examples:
              vignette thumbnail photo.jpg -o thumb.png
              vignette thumbnail -s 128 --scale 2 -f jpeg -q 80 -o thumbs/ ~/Pictures/*.jpg
              vignette thumbnail logo.png -o - | display -
              vignette thumbnail --icon -s 64 report.pdf notes.txt -o icons/
              vignette thumbnail --crop smart -s 200 -f webp photo.jpg -o square.webp
              vignette thumbnail -s 64,256,1024 -f avif *.jpg -o sizes/
              curl -s https://example.org/report.pdf | vignette thumbnail - -o report.png
            """
    )

    @Option(
        name: [.short, .customLong("size")], parsing: .unconditional,
        help: ArgumentHelp(
            "Longest side in points; several sizes (64,256,1024) come from one decode and are written as NAME.SIZE.EXT.",
            valueName: "size[,size…]"),
        transform: ThumbnailCommand.sizes)
    var sizes: [Int] = [256]

    /// Longest side a thumbnail may have, in pixels (and so in points at scale 1): 16384² is already a gigapixel of RGBA.
    static let maxPixels = 16384

    /// `64,256,1024` as sizes; each must be 1…maxPixels.
    static func sizes(_ text: String) throws -> [Int] {
        var result: [Int] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let size = Int(part.trimmingWhitespaces()), (1...maxPixels).contains(size) else {
                throw ValidationError("--size must be between 1 and \(maxPixels), not \(part)")
            }
            if !result.contains(size) { result.append(size) }
        }
        return result
    }

    @Option(name: .long, parsing: .unconditional, help: "Pixels per point (2 for @2x).")
    var scale = 1

    @Option(
        name: [.short, .customLong("format")], parsing: .unconditional,
        help: "Output format: png, jpeg, webp or avif (default: from -o's extension, else png).",
        transform: ImageFormat.argument(for: "--format"))
    var format: ImageFormat?

    @Option(name: [.short, .customLong("quality")], parsing: .unconditional, help: "Quality of JPEG, WebP and AVIF, 1–100.")
    var quality = ThumbnailOutput.defaultQuality

    @Option(name: [.short, .customLong("jobs")], parsing: .unconditional, help: "Files processed at once (default: all cores).")
    var jobs: Int?

    @Option(name: [.short, .customLong("output")], parsing: .unconditional, help: "Output file, directory, or - for stdout.")
    var output: String?

    @Flag(name: .long, help: "Enlarge images smaller than the requested size.")
    var upscale = false

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "fit: the whole picture inside the SIZE box; fill: the box covered, centred and cut; smart: covered and cut where the picture is most interesting (edges, saturated colour, skin).",
            valueName: "fit|fill|smart"))
    var crop: ThumbnailCrop = .fit

    @Flag(name: .long, help: "Decorate the thumbnail as an icon: a page frame and the extension as a badge.")
    var icon = false

    @Flag(name: .long, help: "Fail instead of drawing the generic icon when no generator can picture the file.")
    var noFallback = false

    @Option(name: .long, parsing: .unconditional, help: StandardInput.nameHelp)
    var stdinName: String?

    @OptionGroup var registryOptions: RegistryOptions

    @Argument(help: ArgumentHelp("Files of any kind (- for standard input).", valueName: "FILE"))
    var files: [String]

    func validate() throws {
        if sizes.count > 1, let output, output == "-" || (!output.hasSuffix("/") && !isDirectory(output)) {
            throw ValidationError("several sizes need -o DIR (an existing directory, or a path ending in /), not \(output)")
        }
        try OptionBounds.within(scale, 1...8, "--scale")
        // A bigger box could never be drawn: say so rather than hit the memory budget and draw the icon.
        if let largest = sizes.max(), largest * scale > Self.maxPixels {
            throw ValidationError(
                "--size × --scale must be at most \(Self.maxPixels) pixels, not \(largest) × \(scale) = \(largest * scale)")
        }
        try OptionBounds.within(quality, 1...100, "--quality")
        if let jobs { try OptionBounds.within(jobs, 1...256, "--jobs") }
        try StandardInput.validate(files, name: stdinName)
        try OptionBounds.nonEmpty(output, "-o", give: "a file, a directory, or - for standard output")
        if files.count > 1, let output, output == "-" || (!output.hasSuffix("/") && !isDirectory(output)) {
            throw ValidationError("several inputs need -o DIR (an existing directory, or a path ending in /), not \(output)")
        }
    }

    func isDirectory(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
    }

    /// The output format: --format, else -o's extension, else PNG.
    var outputFormat: ImageFormat {
        if let format { return format }
        if files.count == 1, let output, !isDirectory(output), !output.hasSuffix("/") {
            return ImageFormat(pathExtensionOf: output) ?? .png
        }
        return .png
    }

    func run() throws {
        let pipeline = ThumbnailPipeline(registry: try registryOptions.makeRegistry())
        // Kept to the end of the process: freeing the registry and its catalog when run() returns costs about a millisecond, for nothing.
        _ = Unmanaged.passRetained(pipeline.registry)
        let request = ThumbnailRequest(maxPixelSize: sizes[0], scale: scale, allowUpscale: upscale, iconMode: icon, crop: crop)
        let output = ThumbnailOutput(format: outputFormat, quality: quality)
        let destinations = try plan(format: output.format)
        let failures = Counter()
        for destination in destinations where destination == nil { failures.increment() }
        let workers = min(jobs ?? ProcessInfo.processInfo.activeProcessorCount, max(1, files.count))
        WorkPool.forEach(count: files.count, workers: workers) { index in
            let input = files[index]
            do {
                guard let destination = destinations[index] else { return }
                let source = try StandardInput.input(
                    input, name: stdinName, limit: registryOptions.imageLimits.maxFileBytes, resolver: pipeline.resolver)
                let all = try pipeline.render(source, request: request, sizes: sizes, allowFallback: !noFallback)
                let rendered = all[0]
                for warning in rendered.thumbnail.warnings { Diagnostics.warn(path: input, warning) }
                if let problem = rendered.problem {
                    Diagnostics.warn(path: input, "\(problem); drew the generic icon instead")
                }
                for (size, made) in zip(sizes, all) {
                    let bytes = try output.encode(made.thumbnail.bitmap)
                    if destination == "-" {
                        FileHandle.standardOutput.write(Data(bytes))
                    } else {
                        try OutputFile.write(bytes, to: sizes.count > 1 ? Self.sized(destination, size) : destination)
                    }
                }
            } catch {
                failures.increment()
                Diagnostics.report(error)
            }
        }
        if failures.value > 0 { throw ExitCode(1) }
    }

    /// `dir/photo.jpg.png` as `dir/photo.jpg.256.png`: where one of several sizes goes.
    static func sized(_ destination: String, _ size: Int) -> String {
        let ext = (destination as NSString).pathExtension
        return (destination as NSString).deletingPathExtension + ".\(size)." + ext
    }

    /// Where each input's thumbnail goes; nil for an input refused up front (reported here).
    func plan(format: ImageFormat) throws -> [String?] {
        let inputs = ProtectedFiles(files)
        if files.count == 1, sizes.count == 1, let output, output == "-" || (!isDirectory(output) && !output.hasSuffix("/")) {
            if output != "-", inputs.contains(output) {
                throw VignetteError(.invalidRequest, path: files[0], "its thumbnail \(output) would overwrite the file itself")
            }
            return [output]
        }
        let dir = output ?? "."
        if !isDirectory(dir) { try DirectoryMaker.create(dir, purpose: "cannot create the output directory") }
        var taken: [String: String] = [:]
        return files.map { input in
            let name = StandardInput.outputName(of: input, name: stdinName) + "." + format.fileExtension
            let destination = (dir as NSString).appendingPathComponent(name)
            let canonical = URL(fileURLWithPath: destination).standardizedFileURL.path
            if let first = taken[canonical] {
                Diagnostics.report(
                    VignetteError(
                        .invalidRequest, path: input,
                        "its thumbnail \(destination) would overwrite the one of \(first); thumbnail them separately"))
                return nil
            }
            if inputs.contains(destination) {
                Diagnostics.report(
                    VignetteError(.invalidRequest, path: input, "its thumbnail \(destination) would overwrite an input file"))
                return nil
            }
            taken[canonical] = input
            return destination
        }
    }
}
