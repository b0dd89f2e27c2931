public import Foundation
public import VignetteCore

/// A Vignette generator manifest: content types it declares plus one external generator.
///
/// ```json
/// { "format": 1,
///   "types": [ { "identifier": "com.example.palette", "conformsTo": ["public.data"], "extensions": ["palette"] } ],
///   "generator": { "kind": "thumbnail", "exec": ["./render.py", "%i", "%o", "%s"], "timeoutSeconds": 10 } }
/// ```
/// `types`, `exportedTypes` and `importedTypes` use the custom type declaration format
/// (README, "Custom types"); the generator handles the declared types unless it lists its own.
/// Errors name the file and the key (`key generator.exec[2]: …`), or the line for bad JSON.
public struct GeneratorManifest: Sendable {
    /// The manifest file.
    public let path: String
    /// The type declarations it carries (its `types` count as exported).
    public let declarations: TypeDeclarationFile
    /// The generator, with MIME types not yet mapped (see `GeneratorManifest.Generator`).
    public let generator: Generator

    /// The `generator` object as written, checked but not yet tied to a catalog.
    public struct Generator: Sendable, Equatable {
        /// The identifier (the manifest's file name without `.json` when not given).
        public var identifier: String
        /// What the command produces.
        public var kind: ExternalGeneratorSpec.Kind
        /// Content type identifiers handled.
        public var types: [String]
        /// MIME types handled (mapped to content types by the catalog).
        public var mimeTypes: [String]
        /// The command line, `./` arguments resolved against the manifest's folder.
        public var exec: ExecTemplate
        /// A program that must exist for the generator to load.
        public var tryExec: String?
        /// Preference among generators for equally specific types.
        public var priority: GeneratorPriority
        /// Longest a run may take, in seconds.
        public var timeoutSeconds: Double
        /// Largest input file in bytes.
        public var maxFileBytes: Int?
        /// Most heap memory a run may use, in bytes.
        public var maxMemoryBytes: Int?
        /// Most CPU seconds a run may use.
        public var maxCPUSeconds: Int? = nil
        /// Largest file a run may write, in bytes.
        public var maxWriteBytes: Int? = nil
        /// Most processes a run may start (beyond those the user already has).
        public var maxProcesses: Int? = nil
        /// Names of environment variables passed through to the command (it gets a minimal environment otherwise).
        public var environment: [String] = []
        /// Whether the command runs in the bubblewrap sandbox when `bwrap` is installed (`"sandbox": false` opts out).
        public var sandbox = true
    }

    static let topKeys: Set<String> = ["format", "description", "types", "exportedTypes", "importedTypes", "generator"]
    static let generatorKeys: Set<String> = [
        "identifier", "description", "kind", "types", "mimeTypes", "exec", "tryExec", "priority", "timeoutSeconds", "maxFileBytes",
        "maxMemoryBytes", "maxCPUSeconds", "maxWriteBytes", "maxProcesses", "environment", "sandbox",
    ]

    /// Reads and checks a manifest file.
    ///
    /// - Throws: `VignetteError(.invalidDeclaration)` naming `path` and the key or line at fault.
    public static func load(contentsOf path: String) throws -> GeneratorManifest {
        let data: Data
        do {
            data = try FileSample.readContents(ofFile: path, limit: 1 << 20).withUnsafeBufferPointer { Data(buffer: $0) }
        } catch let error as VignetteError where error.code == .limitExceeded {
            throw VignetteError(.invalidDeclaration, path: path, "manifest is over 1 MiB")
        }
        return try parse(data, path: path)
    }

    /// Checks manifest JSON; `./` arguments of `exec` are resolved against `path`'s folder.
    public static func parse(_ data: Data, path: String) throws -> GeneratorManifest {
        if let manifest = ManifestReader.read(data, path: path) { return manifest }
        return try parseWithFoundation(data, path: path)
    }

    /// `parse` through `JSONSerialization`: slower, but it names what is wrong.
    static func parseWithFoundation(_ data: Data, path: String) throws -> GeneratorManifest {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw VignetteError(.invalidDeclaration, path: path, "not valid JSON: \(syntaxMessage(error, data: data))")
        }
        guard let object = root as? [String: Any] else {
            throw VignetteError(.invalidDeclaration, path: path, "the manifest must be a JSON object")
        }
        if let unknown = object.keys.sorted().first(where: { !topKeys.contains($0) }) {
            throw problem(path, unknown, "unknown key (known: \(topKeys.sorted().joined(separator: ", ")))")
        }
        let declarations = try TypeDeclarationFile.decode(data, path: path)
        guard let rawGenerator = object["generator"] else {
            throw problem(path, "generator", "missing (an object with at least \"kind\" and \"exec\")")
        }
        guard let g = rawGenerator as? [String: Any] else { throw problem(path, "generator", "must be an object") }
        if let unknown = g.keys.sorted().first(where: { !generatorKeys.contains($0) }) {
            throw problem(path, "generator.\(unknown)", "unknown key (known: \(generatorKeys.sorted().joined(separator: ", ")))")
        }
        let identifier = try string(g, "identifier", path) ?? defaultIdentifier(path)
        guard isValidIdentifier(identifier) else {
            throw problem(path, "generator.identifier", "must be letters, digits, '-', '_' and '.', not \"\(identifier)\"")
        }
        guard let kindText = try string(g, "kind", path) else {
            throw problem(path, "generator.kind", "missing (thumbnail, text or html)")
        }
        guard let kind = ExternalGeneratorSpec.Kind(rawValue: kindText) else {
            throw problem(path, "generator.kind", "must be thumbnail, text or html, not \"\(kindText)\"")
        }
        let exec = try execTemplate(g, kind: kind, path: path)
        let declared = (declarations.types + declarations.exportedTypes).map(\.identifier)
        let types = try strings(g, "types", path) ?? declared
        let mimeTypes = try strings(g, "mimeTypes", path) ?? []
        if types.isEmpty && mimeTypes.isEmpty {
            throw problem(path, "generator.types", "names no content type, and the manifest declares none")
        }
        let tryExec = try string(g, "tryExec", path).map { resolve($0, against: path) }
        let timeout = try number(g, "timeoutSeconds", path) ?? ExternalGeneratorSpec.defaultTimeout
        guard timeout > 0, timeout <= ExternalGeneratorSpec.maxTimeout else {
            throw problem(
                path, "generator.timeoutSeconds", "must be more than 0 and at most \(Int(ExternalGeneratorSpec.maxTimeout)) seconds")
        }
        let maxBytes = try number(g, "maxFileBytes", path)
        if let maxBytes, !isByteCount(maxBytes, atLeast: 1) {
            throw problem(path, "generator.maxFileBytes", "must be a positive whole number of bytes")
        }
        let maxMemory = try number(g, "maxMemoryBytes", path)
        if let maxMemory, !isByteCount(maxMemory, atLeast: Double(ExternalGeneratorSpec.minMaxMemoryBytes)) {
            throw problem(
                path, "generator.maxMemoryBytes",
                "must be a whole number of bytes, at least \(ExternalGeneratorSpec.minMaxMemoryBytes) (16 MiB)")
        }
        let environment = try strings(g, "environment", path) ?? []
        if let bad = environment.first(where: { $0.isEmpty || $0.contains("=") }) {
            throw problem(path, "generator.environment", "must list variable names, not \"\(bad)\"")
        }
        var sandbox = true
        if let value = g["sandbox"] {
            guard !(value is String), let flag = value as? Bool else {
                throw problem(path, "generator.sandbox", "must be true or false, not \(describe(value))")
            }
            sandbox = flag
        }
        return GeneratorManifest(
            path: path, declarations: declarations,
            generator: Generator(
                identifier: identifier, kind: kind, types: types, mimeTypes: mimeTypes, exec: exec, tryExec: tryExec,
                priority: try priority(g, path), timeoutSeconds: timeout, maxFileBytes: maxBytes.map { Int($0) },
                maxMemoryBytes: maxMemory.map { Int($0) }, maxCPUSeconds: try count(g, "maxCPUSeconds", path),
                maxWriteBytes: try count(g, "maxWriteBytes", path), maxProcesses: try count(g, "maxProcesses", path),
                environment: environment, sandbox: sandbox))
    }

    /// A positive whole number, or nil when the key is absent.
    static func count(_ g: [String: Any], _ key: String, _ path: String) throws -> Int? {
        guard let value = try number(g, key, path) else { return nil }
        guard isByteCount(value, atLeast: 1) else {
            throw problem(path, "generator.\(key)", "must be a positive whole number")
        }
        return Int(value)
    }

    static func execTemplate(_ g: [String: Any], kind: ExternalGeneratorSpec.Kind, path: String) throws -> ExecTemplate {
        guard g["exec"] != nil else {
            throw problem(path, "generator.exec", "missing (an argv list such as [\"tool\", \"%i\", \"%o\"])")
        }
        guard let list = try strings(g, "exec", path) else { throw problem(path, "generator.exec", "must be a list of strings") }
        return try execTemplate(list, path: path)
    }

    /// The checked template of an `exec` list: `./` arguments resolved, the input named.
    static func execTemplate(_ list: [String], path: String) throws -> ExecTemplate {
        let template: ExecTemplate
        do {
            template = try ExecTemplate(
                list.enumerated().map { $0.offset == 0 || $0.element.hasPrefix(".") ? resolve($0.element, against: path) : $0.element })
        } catch let p as ExecTemplate.TemplateProblem {
            throw problem(path, "generator.exec" + (p.index.map { "[\($0)]" } ?? ""), p.reason)
        }
        if !template.takesInput {
            throw problem(path, "generator.exec", "never names the input file; use %i (path) or %u (URI)")
        }
        return template
    }

    static func priority(_ g: [String: Any], _ path: String) throws -> GeneratorPriority {
        guard let value = g["priority"] else { return .standard }
        if let text = value as? String, let p = namedPriority(text) { return p }
        if !(value is String), let n = value as? NSNumber, n.doubleValue.rounded() == n.doubleValue, abs(n.doubleValue) <= 999 {
            return GeneratorPriority(rawValue: n.intValue)
        }
        throw problem(
            path, "generator.priority", "must be generic, standard, preferred or a whole number from -999 to 999, not \(describe(value))")
    }

    /// The priority a manifest names: generic, standard or preferred.
    static func namedPriority(_ name: String) -> GeneratorPriority? {
        switch name {
        case "generic": .generic
        case "standard": .standard
        case "preferred": .preferred
        default: nil
        }
    }

    /// The identifier of a manifest that gives none: its file name without `.json`.
    static func defaultIdentifier(_ path: String) -> String {
        ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    /// Whether `identifier` is letters, digits, `-`, `_` and `.`, and not empty.
    static func isValidIdentifier(_ identifier: String) -> Bool {
        !identifier.isEmpty && identifier.allSatisfy({ $0.isLetter || $0.isNumber || "-._".contains($0) })
    }

    /// Whether `value` is a whole number from `minimum` to half of `Int64.max`.
    static func isByteCount(_ value: Double, atLeast minimum: Double) -> Bool {
        value >= minimum && value <= Double(Int64.max / 2) && value.rounded() == value
    }

    /// `./x` and `../x` (and a program path with a `/`) are relative to the manifest's folder.
    static func resolve(_ argument: String, against manifest: String) -> String {
        // A Character, not Foundation's contains(some StringProtocol): that one goes through
        // NSString and CoreFoundation, and every command resolves the shipped manifests' programs.
        guard !argument.hasPrefix("/"), argument.contains("/" as Character) else { return argument }
        let dir = (manifest as NSString).deletingLastPathComponent
        let base = dir.isEmpty ? FileManager.default.currentDirectoryPath : dir
        return URL(fileURLWithPath: base).appendingPathComponent(argument).standardizedFileURL.path
    }

    static func string(_ g: [String: Any], _ key: String, _ path: String) throws -> String? {
        guard let value = g[key] else { return nil }
        guard let text = value as? String else { throw problem(path, "generator.\(key)", "must be a string, not \(describe(value))") }
        return text
    }

    static func strings(_ g: [String: Any], _ key: String, _ path: String) throws -> [String]? {
        guard let value = g[key] else { return nil }
        guard let list = value as? [Any] else {
            throw problem(path, "generator.\(key)", "must be a list of strings, not \(describe(value))")
        }
        return try list.enumerated().map { index, item in
            guard let text = item as? String else {
                throw problem(path, "generator.\(key)[\(index)]", "must be a string, not \(describe(item))")
            }
            return text
        }
    }

    static func number(_ g: [String: Any], _ key: String, _ path: String) throws -> Double? {
        guard let value = g[key] else { return nil }
        guard !(value is String), let n = value as? NSNumber else {
            throw problem(path, "generator.\(key)", "must be a number, not \(describe(value))")
        }
        return n.doubleValue
    }

    /// Foundation's reason for bad JSON, led by the line and column when it gives only an offset.
    static func syntaxMessage(_ error: any Error, data: Data) -> String {
        var text = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
        if text.hasSuffix(".") { text.removeLast() }
        if let first = text.first { text = first.lowercased() + text.dropFirst() }
        if text.range(of: "line", options: .caseInsensitive) != nil { return text }
        guard let range = text.range(of: #"character [0-9]+"#, options: .regularExpression),
            let offset = Int(text[range].dropFirst("character ".count))
        else { return text }
        var line = 1
        var column = 1
        for byte in data.prefix(offset) {
            if byte == 0x0A { line += 1; column = 1 } else { column += 1 }
        }
        return "line \(line), column \(column): \(text)"
    }

    static func describe(_ value: Any) -> String {
        switch value {
        case let s as String: "\"\(s)\""
        case is [Any]: "a list"
        case is [String: Any]: "an object"
        case is NSNull: "null"
        case let n as NSNumber: "\(n)"
        default: "\(value)"
        }
    }

    static func problem(_ path: String, _ key: String, _ reason: String) -> VignetteError {
        VignetteError(.invalidDeclaration, path: path, "key \(key): \(reason)")
    }
}
