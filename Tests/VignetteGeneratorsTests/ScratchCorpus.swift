import Foundation
import Testing
import VignetteCore
import VignetteGenerators

@Suite struct ScratchCorpus {
    @Test func corpus() throws {
        let registry = BuiltInGenerators.makeRegistry()
        let resolver = TypeResolver(catalog: registry.catalog)
        let root = "/work/shared/corpora/mixed"
        var files = FileManager.default.subpaths(atPath: root)!.filter { !$0.hasSuffix("MANIFEST.tsv") && !$0.hasSuffix(".md") }.sorted()
        files += ["/work/main/Samples/bundle.tar.gz", "/work/main/Samples/archive.zip", "/tmp/wt-gen-archive-big.tar.gz", "/tmp/wt-gen-archive-big.tar.xz"].map { "ABS" + $0 }
        var counts: [String: Int] = [:]
        for f in files {
            let path = f.hasPrefix("ABS") ? String(f.dropFirst(3)) : root + "/" + f
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue else { continue }
            guard let input = try? GeneratorInput(path: path, resolver: resolver) else { continue }
            let t = input.type
            let relevant = ["public.archive", "public.composite-content", "com.pkware.zip-archive"].contains { registry.catalog.conforms(t, to: $0) }
            guard relevant else { continue }
            let start = ContinuousClock.now
            var line = "\(f) [\(t.identifier)]"
            do {
                let (p, g, a) = try registry.preview(for: input, request: PreviewRequest())
                counts["preview \(g)", default: 0] += 1
                line += "\n  preview: \(g) | \(p.title) | \(a.filter { $0.outcome != .succeeded }.map(\.description))"
            } catch { counts["preview error", default: 0] += 1; line += "\n  preview ERROR \(error)" }
            do {
                let (th, g, a) = try registry.thumbnail(for: input, request: ThumbnailRequest(maxPixelSize: 128))
                counts["thumbnail \(g)", default: 0] += 1
                line += "\n  thumb: \(g) \(th.bitmap.width)x\(th.bitmap.height) | \(a.filter { $0.outcome != .succeeded }.map(\.description))"
            } catch { counts["thumbnail error", default: 0] += 1; line += "\n  thumb ERROR \(error)" }
            line += "\n  \(ContinuousClock.now - start)"
            print(line)
        }
        print("COUNTS", counts.sorted { $0.key < $1.key })
    }
}
