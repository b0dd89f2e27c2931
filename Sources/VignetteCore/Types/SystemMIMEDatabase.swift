import Foundation

/// The system's shared-mime-info database, read from the XML packages it is built from.
///
/// Packages live in `mime/packages/*.xml` under `$XDG_DATA_HOME` and each of
/// `$XDG_DATA_DIRS` (Debian's `freedesktop.org.xml`, and what applications install).
/// Definitions of the same MIME type in several packages merge; a more important directory
/// is read later, and its `glob-deleteall`/`magic-deleteall` drop what came before.
public struct SystemMIMEDatabase: Sendable {
    /// One MIME type with everything every package said about it.
    public struct MergedType: Sendable {
        /// The MIME type as first written.
        public var mime: String
        /// The package that first defined it, and the line.
        public var file: String
        /// The line of its first definition.
        public var line: Int
        /// The English comment (the last package's wins).
        public var comment: String?
        /// Alias MIME types.
        public var aliases: [String] = []
        /// Parent MIME types with where each was said.
        public var parents: [(mime: String, file: String, line: Int)] = []
        /// Globs with the package each came from.
        public var globs: [(glob: MIMEPackage.Glob, file: String)] = []
        /// Magic rules with the package each came from.
        public var magic: [(rule: MagicRule, file: String, line: Int)] = []
        /// Root elements of XML documents of this type.
        public var rootXML: [MIMEPackage.RootXML] = []
        /// The generic icon name.
        public var genericIcon: String?
    }

    /// The package files read, least important first.
    public let files: [String]
    /// Every type, in the order first defined.
    public let types: [MergedType]
    /// Problems found in the packages (each names `file:line`); the elements concerned were skipped.
    public let problems: [VignetteError]

    /// Package files in `mime/packages` under the XDG data directories, least important first;
    /// within a directory by name, with `Override.xml` last (as `update-mime-database` does).
    public static func packageFiles(_ xdg: XDGDirectories) -> [String] {
        var seen: Set<String> = []
        var files: [String] = []
        for dir in ([xdg.dataHome] + xdg.dataDirectories).reversed() {
            let packages = dir + "/mime/packages"
            let real = realpath(packages, nil).map { resolved in
                defer { free(resolved) }
                return String(cString: resolved)
            }
            // A folder that does not exist has no packages (and cannot be resolved).
            guard let real, seen.insert(real).inserted, let names = DirectoryListing.names(in: packages) else { continue }
            let xml = names.filter { $0.hasSuffix(".xml") && !$0.hasPrefix(".") }.sorted { a, b in
                if (a == "Override.xml") != (b == "Override.xml") { return b == "Override.xml" }
                return a < b
            }
            files += xml.map { packages + "/" + $0 }
        }
        return files
    }

    /// Reads and merges the packages at `paths` (least important first).
    public init(files paths: [String]) {
        self.init(packages: paths.map { MIMEPackageReader.read(path: $0) })
    }

    /// Merges packages already read (least important first).
    public init(packages: [MIMEPackage]) {
        var index: [String: Int] = [:]
        var merged: [MergedType] = []
        var problems: [VignetteError] = []
        for package in packages {
            problems += package.problems
            for d in package.types {
                let key = TypeCatalog.normalizeMIME(d.mime)
                let position: Int
                if let existing = index[key] {
                    position = existing
                } else {
                    position = merged.count
                    index[key] = position
                    merged.append(MergedType(mime: d.mime, file: package.path, line: d.line))
                }
                var t = merged[position]
                if let c = d.comment, !c.isEmpty { t.comment = c }
                for a in d.aliases where !t.aliases.contains(a) { t.aliases.append(a) }
                for p in d.parents where !t.parents.contains(where: { $0.mime == p.value }) {
                    t.parents.append((p.value, package.path, p.line))
                }
                if d.deletesGlobs { t.globs = [] }
                t.globs += d.globs.map { ($0, package.path) }
                if d.deletesMagic { t.magic = [] }
                t.magic += d.magic.map { ($0.value, package.path, $0.line) }
                for r in d.rootXML where !t.rootXML.contains(r) { t.rootXML.append(r) }
                if let icon = d.genericIcon { t.genericIcon = icon }
                merged[position] = t
            }
        }
        self.files = packages.map(\.path)
        self.types = merged
        self.problems = problems
    }

}
