import Foundation

/// Decides a file's content type from its name and its first bytes.
///
/// The policy (DESIGN.md, "Content types"):
/// 1. An empty file has its own type, whatever its name.
/// 2. Binary signatures beat the name; a generic container (gzip, zip…) is refined by the
///    name when the named type is a kind of it, and zips by their entries (ODF, OOXML, EPUB, JAR, APK).
/// 3. Without a signature: a `#!` line, a zip found by its end record, a tar header checksum.
/// 4. Text: its content (markup root, JSON, mail headers, code) decides; a generic text is
///    refined by the name. Markup names need markup inside.
/// 5. Other binary data trusts the name only when the named type has no signature that
///    could have confirmed it; otherwise it is `public.data`.
///
/// A name never gives text content a type that is not text, nor binary content a text type:
/// of the types a name may stand for (`.ts` is TypeScript or an MPEG transport stream), the
/// first of the right kind is taken. System magic rules (shared-mime-info) rank with our
/// signatures by priority; at equal priority ours win.
///
/// Reads at most `headSize` bytes from the start, plus the few bytes a far signature needs
/// and, for zip archives only, the end record and central directory.
public struct TypeResolver: Sendable {
    /// How many leading bytes are sampled.
    public static let headSize = 8192
    /// The catalog types come from.
    public let catalog: TypeCatalog

    /// Creates a resolver over a catalog.
    public init(catalog: TypeCatalog = .builtIn) {
        self.catalog = catalog
    }

    /// Resolves the file at `path`.
    ///
    /// - Throws: `VignetteError` naming `path` when it is missing, not a regular file or unreadable.
    public func resolve(path: String) throws -> TypeResolution {
        resolve(try FileSample(path: path))
    }

    /// Resolves bytes held in memory (an upload), with the name the sender gave, if any.
    public func resolve(bytes: [UInt8], filename: String?) -> TypeResolution {
        resolve(FileSample(bytes: bytes, filename: filename))
    }

    /// Resolves a sample.
    public func resolve(_ sample: FileSample) -> TypeResolution {
        if sample.size == 0 {
            return TypeResolution(type: named(UniformType.ID.empty), evidence: .emptyFile, text: nil)
        }
        let names = sample.filename.map { catalog.nameMatches(forFilename: $0) } ?? []

        if let (type, priority, source) = bestSignature(sample) {
            return refine(signature: type, priority: priority, source: source, names: names, sample: sample)
        }
        if let script = interpreterType(sample) {
            return TypeResolution(type: script.type, evidence: .interpreter(script.name), text: textResult(sample))
        }
        let text = textResult(sample)
        if text == nil || sample.head.count < sample.size {
            if let zip = ZipDirectory(sample) {
                let zipType = named(UniformType.ID.zip)
                if let (refined, why) = refineZip(zip, sample: sample) {
                    return TypeResolution(type: refined, evidence: .containerEntries(why), text: nil)
                }
                return TypeResolution(type: zipType, evidence: .containerEntries("end of central directory found"), text: nil)
            }
        }
        if TarHeader.isValid(sample) {
            let tar = named(UniformType.ID.tar)
            if let name = names.first(where: { catalog.conforms($0.type, to: tar.identifier) }) {
                return TypeResolution(type: name.type, evidence: .tarHeader, text: nil, source: systemFile(name.origin))
            }
            return TypeResolution(type: tar, evidence: .tarHeader, text: nil)
        }
        if let text {
            return resolveText(sample, encoding: text, names: names)
        }
        if let name = names.first(where: { !catalog.conforms($0.type, to: UniformType.ID.text) }), isUnverifiableName(name.type) {
            return TypeResolution(type: name.type, evidence: .unverifiableName, text: nil, source: systemFile(name.origin))
        }
        return TypeResolution(type: named(UniformType.ID.data), evidence: .unknownBinary, text: nil)
    }

    /// The package file, when a system MIME database rule decided.
    func systemFile(_ origin: TypeCatalog.Origin?) -> String? {
        if case .system(let file)? = origin { return file }
        return nil
    }

    // MARK: Signatures

    /// The best matching signature or system magic rule: highest priority, then ours before
    /// the system's, then most bytes, then declared later. The source is the system package
    /// of a magic rule.
    func bestSignature(_ sample: FileSample) -> (UniformType, Int, String?)? {
        var best: TypeCatalog.IndexedSignature? = nil
        for candidate in catalog.signatures {
            if let b = best {
                let better =
                    (candidate.signature.priority, candidate.signature.weight, candidate.order)
                    > (b.signature.priority, b.signature.weight, b.order)
                if !better { continue }
            }
            if candidate.signature.patterns.allSatisfy({ $0.matches(sample) }) { best = candidate }
        }
        var bestMagic: TypeCatalog.IndexedMagic? = nil
        let floor = max(best?.signature.priority ?? -1, TypeResolver.systemMagicFloor - 1)
        for candidate in catalog.magic where !candidate.isText && candidate.rule.priority > max(floor, bestMagic?.rule.priority ?? -1) {
            if candidate.rule.matches(sample) { bestMagic = candidate }
        }
        if let bestMagic, let type = catalog.type(withIdentifier: bestMagic.identifier) {
            return (type, bestMagic.rule.priority, bestMagic.file)
        }
        guard let best, let type = catalog.type(withIdentifier: best.identifier) else { return nil }
        return (type, best.signature.priority, nil)
    }

    func refine(signature type: UniformType, priority: Int, source: String?, names: [TypeCatalog.NameMatch], sample: FileSample)
        -> TypeResolution
    {
        if catalog.conforms(type, to: UniformType.ID.zip) {
            if let zip = ZipDirectory(sample) {
                if type.identifier == UniformType.ID.zip, let (refined, why) = refineZip(zip, sample: sample) {
                    return TypeResolution(type: refined, evidence: .containerEntries(why), text: nil)
                }
                return TypeResolution(type: type, evidence: .signature(priority: priority), text: nil, source: source)
            }
        }
        if let refined = refineStructure(type, sample: sample) {
            // A name may still say more within what the bytes proved (a Word template is a Word document).
            if let name = names.first(where: { $0.type != refined.0 && catalog.conforms($0.type, to: refined.0.identifier) }) {
                return TypeResolution(
                    type: name.type, evidence: .signatureRefinedByName(container: refined.0.identifier), text: nil,
                    source: systemFile(name.origin) ?? source)
            }
            return TypeResolution(type: refined.0, evidence: .structure(refined.1), text: nil)
        }
        if let name = names.first(where: { $0.type != type && catalog.conforms($0.type, to: type.identifier) }) {
            return TypeResolution(
                type: name.type, evidence: .signatureRefinedByName(container: type.identifier), text: nil,
                source: systemFile(name.origin) ?? source)
        }
        return TypeResolution(type: type, evidence: .signature(priority: priority), text: nil, source: source)
    }

    /// troff documents, whose names (`.1`…`.8`) need a troff request inside.
    static let troffIdentifier = "org.troff.troff"

    /// System magic below this priority is not used: shared-mime-info's rules at 10–30 are
    /// plausibility checks of two bytes or a word ("MM" for 3D Studio, "//" for Modelica) that
    /// would give random data and ordinary text a type.
    public static let systemMagicFloor = 40

    /// A text type's system magic pins down at least this many bytes to outrank a name
    /// (`[D-BUS Service]` does; Modelica's `class` or `function` at offset 0 does not).
    public static let textMagicOverName = 10

    /// The best system magic rule of a text type that matches, with how many bytes it pinned:
    /// tried on text only after our own text rules.
    func bestTextMagic(_ sample: FileSample) -> (type: UniformType, priority: Int, bytes: Int, file: String)? {
        var best: (TypeCatalog.IndexedMagic, Int)? = nil
        for candidate in catalog.magic where candidate.isText && candidate.rule.priority >= TypeResolver.systemMagicFloor {
            if let b = best, candidate.rule.priority <= b.0.rule.priority { continue }
            if let bytes = candidate.rule.matchedBytes(sample) { best = (candidate, bytes) }
        }
        guard let best, let type = catalog.type(withIdentifier: best.0.identifier) else { return nil }
        return (type, best.0.rule.priority, best.1, best.0.file)
    }

    /// The main stream of each OLE2 document kind, in the order tried, with its type.
    static let compoundFileStreams = [
        ("WordDocument", "com.microsoft.word.doc"), ("Workbook", "com.microsoft.excel.xls"), ("Book", "com.microsoft.excel.xls"),
        ("PowerPoint Document", "com.microsoft.powerpoint.ppt"),
    ]

    /// What a header beyond the signature says: an ELF `ET_DYN` flagged `DF_1_PIE` is a
    /// position-independent executable, a TZif file with leap-second records is `tzif-leap`,
    /// an OLE2 compound file with a `WordDocument` stream is a Word document (`Workbook`: Excel,
    /// `PowerPoint Document`: PowerPoint), one with Outlook's property storages a message.
    func refineStructure(_ type: UniformType, sample: FileSample) -> (UniformType, String)? {
        switch type.identifier {
        case "org.freedesktop.elf-shared-library":
            guard ELFHeader.isPositionIndependentExecutable(sample),
                let pie = catalog.type(withIdentifier: "org.freedesktop.elf-pie-executable")
            else { return nil }
            return (pie, "ELF dynamic section flags DF_1_PIE")
        case "org.iana.tzif":
            guard TZifHeader.hasLeapSeconds(sample), let leap = catalog.type(withIdentifier: "org.iana.tzif-leap") else { return nil }
            return (leap, "TZif header counts leap-second records")
        case "com.microsoft.ico", "com.microsoft.cur":
            guard JBIGHeader.isJBIGNotIcon(sample), let jbig = catalog.type(withIdentifier: "org.jbig.jbig") else { return nil }
            return (jbig, "an icon directory of no entries that is a JBIG header")
        case "com.microsoft.ole2":
            guard let file = try? CompoundFile(sample) else { return nil }
            for (stream, identifier) in Self.compoundFileStreams {
                if file.entries.contains(where: { $0.type == 2 && $0.name == stream }), let type = catalog.type(withIdentifier: identifier)
                {
                    return (type, "compound file stream \(stream)")
                }
            }
            if file.entries.contains(where: { $0.type == 1 && $0.name == "__nameid_version1.0" }),
                file.entries.contains(where: { $0.type == 2 && $0.name == "__properties_version1.0" }),
                let message = catalog.type(withIdentifier: "com.microsoft.outlook.message")
            {
                return (message, "compound file with __nameid_version1.0 and __properties_version1.0")
            }
            return nil
        default:
            return nil
        }
    }

    /// Signatures below this priority are plausibility checks (TGA has no magic number): they
    /// may confirm a name, but their failing to match does not refute it.
    public static let weakSignaturePriority = 30

    /// Whether the name must be believed: a non-text type with no strong signature or system
    /// magic rule that could have refuted it.
    func isUnverifiableName(_ type: UniformType) -> Bool {
        type.declaration.signatures.allSatisfy { $0.priority < TypeResolver.weakSignaturePriority }
            && (catalog.magicPriority(of: type) ?? 0) < TypeResolver.weakSignaturePriority
            && !catalog.conforms(type, to: UniformType.ID.text)
    }

    // MARK: Zip containers

    /// What a zip's entries say it is, if they say anything.
    func refineZip(_ zip: ZipDirectory, sample: FileSample) -> (UniformType, String)? {
        let names = Set(zip.entries.map(\.name))
        if let raw = zip.storedContents(of: "mimetype", in: sample) {
            let mime = String(decoding: raw, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if let t = catalog.declaredType(forMIMEType: mime), catalog.conforms(t, to: UniformType.ID.zip) {
                return (t, "mimetype entry says \(mime)")
            }
        }
        func byMIME(_ mime: String, _ why: String) -> (UniformType, String)? {
            catalog.declaredType(forMIMEType: mime).map { ($0, why) }
        }
        if names.contains("AndroidManifest.xml"), names.contains("classes.dex") {
            return byMIME("application/vnd.android.package-archive", "AndroidManifest.xml and classes.dex")
        }
        if names.contains("META-INF/manifest.xml"), names.contains("description.xml") {
            return byMIME("application/vnd.openofficeorg.extension", "META-INF/manifest.xml and description.xml")
        }
        if names.contains("[Content_Types].xml") {
            let parts: [(String, String)] = [
                ("word/", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
                ("xl/", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
                ("ppt/", "application/vnd.openxmlformats-officedocument.presentationml.presentation"),
            ]
            for (prefix, mime) in parts where names.contains(where: { $0.hasPrefix(prefix) }) {
                return byMIME(mime, "[Content_Types].xml with \(prefix) parts")
            }
        }
        if names.contains("META-INF/MANIFEST.MF") {
            return byMIME("application/java-archive", "META-INF/MANIFEST.MF")
        }
        if names.contains(where: { $0.hasSuffix(".dist-info/WHEEL") && $0.split(separator: "/").count == 2 }) {
            return byMIME("application/x-wheel+zip", "*.dist-info/WHEEL")
        }
        return nil
    }

    // MARK: Scripts and text

    /// The type a `#!` line names, with the interpreter's name.
    func interpreterType(_ sample: FileSample) -> (type: UniformType, name: String)? {
        let head = sample.head
        guard head.count > 2, head[0] == UInt8(ascii: "#"), head[1] == UInt8(ascii: "!") else { return nil }
        let line = head.prefix(256).prefix { $0 != 0x0A && $0 != 0x0D }
        let words = String(decoding: line.dropFirst(2), as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let program = words.first else { return nil }
        var name = String(program.split(separator: "/").last ?? program)
        if name == "env" {
            // `#!/usr/bin/env -S python3 -u` or `env VAR=1 node`: the first word that is neither an option nor an assignment.
            guard let next = words.dropFirst().first(where: { !$0.hasPrefix("-") && !$0.contains("=") }) else { return nil }
            name = String(next.split(separator: "/").last ?? next)
        }
        let type = catalog.declaredType(forInterpreter: name) ?? named(UniformType.ID.script)
        return (type, name)
    }

    func textResult(_ sample: FileSample) -> TextSniffer.Result? {
        TextSniffer.classify(sample.head[...], complete: sample.head.count == sample.size)
    }

    func resolveText(_ sample: FileSample, encoding: TextSniffer.Result, names: [TypeCatalog.NameMatch]) -> TypeResolution {
        let text = TextSniffer.decode(sample.head[...], as: encoding)
        let plain = named(UniformType.ID.plainText)
        // Text takes from its name only a text type.
        let name = names.first { catalog.conforms($0.type, to: UniformType.ID.text) }
        let nameType = name?.type
        let source = systemFile(name?.origin)
        let nameIsSpecificText =
            nameType.map {
                catalog.conforms($0, to: UniformType.ID.text) && !isGenericText($0)
            } ?? false

        if let (contentType, why) = TextContentRules(catalog: catalog).classify(text, nameIsSpecific: nameIsSpecificText) {
            if let nameType, nameType != contentType, catalog.conforms(nameType, to: contentType.identifier) {
                return TypeResolution(type: nameType, evidence: .textName, text: encoding, source: source)
            }
            // An unknown root element without a declaration is only weakly XML: an HTML name wins.
            if why.hasPrefix(TextContentRules.bareRootEvidence), let nameType, catalog.conforms(nameType, to: UniformType.ID.html) {
                return TypeResolution(type: nameType, evidence: .textName, text: encoding, source: source)
            }
            return TypeResolution(
                type: contentType, evidence: .textContent(why), text: encoding,
                source: systemFile(catalog.origin(of: contentType)))
        }
        let magic = catalog.magic.isEmpty ? nil : bestTextMagic(sample)
        if let magic, magic.bytes >= TypeResolver.textMagicOverName || !nameIsSpecificText {
            return TypeResolution(type: magic.type, evidence: .signature(priority: magic.priority), text: encoding, source: magic.file)
        }
        if let nameType, nameIsSpecificText {
            let isMarkup = catalog.conforms(nameType, to: UniformType.ID.xml) || catalog.conforms(nameType, to: UniformType.ID.html)
            // A manual-section name (`.1`) on text without a single troff request is not a manual page.
            let isTroff = catalog.conforms(nameType, to: TypeResolver.troffIdentifier)
            if (!isMarkup || TextContentRules.hasMarkup(text)) && (!isTroff || TextContentRules.troffRequests(in: text).count > 0) {
                return TypeResolution(type: nameType, evidence: .textName, text: encoding, source: source)
            }
        }
        if let magic {
            return TypeResolution(type: magic.type, evidence: .signature(priority: magic.priority), text: encoding, source: magic.file)
        }
        return TypeResolution(type: plain, evidence: .plainText, text: encoding)
    }

    /// Plain text and its encoding variants say nothing about structure.
    func isGenericText(_ type: UniformType) -> Bool {
        [UniformType.ID.text, UniformType.ID.plainText, UniformType.ID.utf8PlainText, UniformType.ID.utf16PlainText]
            .contains(type.identifier)
    }

    /// A built-in type the resolver relies on; a missing one falls back to `public.data`.
    func named(_ identifier: String) -> UniformType {
        catalog.type(withIdentifier: identifier)
            ?? UniformType(TypeDeclaration(identifier: identifier, conformsTo: [UniformType.ID.data]))
    }
}
