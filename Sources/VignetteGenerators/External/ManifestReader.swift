import Foundation
import VignetteCore

/// A fast reader for plainly valid generator manifests; anything else is left to `JSONSerialization`.
///
/// Every command reads the shipped manifests (`Generators/svg.json`), and Foundation's JSON
/// parsing with its bridged casts (`as? NSNumber`, `as? Bool`: each a scan of the runtime's
/// conformance records) took about 5% of a short `vignette type`. This reader parses the JSON
/// directly (through `PlainJSON`) and answers nil for anything it does not plainly understand (an
/// exponent, a duplicate key, a null, a wrong kind of value, a value out of range); the caller then
/// checks the manifest the slow way, which names the problem. So the error messages stay in one
/// place, and for valid manifests both give the same result (a test holds them to it).
struct ManifestReader {
    typealias Value = PlainJSON.Value
    typealias Members = PlainJSON.Members

    /// The manifest in `bytes`, or nil when the slow path should decide.
    static func read(_ data: Data, path: String) -> GeneratorManifest? {
        let parsed = data.withUnsafeBytes { PlainJSON.parse($0) }
        guard case .object(let top)? = parsed,
            top.keys.allSatisfy({ GeneratorManifest.topKeys.contains($0) }),
            case .object(let g)? = top["generator"],
            g.keys.allSatisfy({ GeneratorManifest.generatorKeys.contains($0) }),
            let declarations = declarations(top, data: data, path: path)
        else { return nil }
        return generator(g, declarations: declarations, path: path).map {
            GeneratorManifest(path: path, declarations: declarations, generator: $0)
        }
    }

    /// The manifest's type declarations; nil when they are not plainly valid.
    private static func declarations(_ top: Members, data: Data, path: String) -> TypeDeclarationFile? {
        // Most manifests declare no type: then there is nothing to read twice.
        if top["types"] == nil, top["exportedTypes"] == nil, top["importedTypes"] == nil, let none = noDeclarations {
            switch top["format"] {
            case nil, .number(1, whole: true)?: return none
            default: break
            }
        }
        return try? TypeDeclarationFile.decode(data, path: path)
    }

    /// What a manifest without `types`, `exportedTypes` and `importedTypes` declares: nothing.
    private static let noDeclarations: TypeDeclarationFile? = {
        // Data(buffer:), which loading a manifest uses already: Data("{}".utf8) costs a conformance scan.
        let braces: [UInt8] = [UInt8(ascii: "{"), UInt8(ascii: "}")]
        return try? TypeDeclarationFile.decode(braces.withUnsafeBufferPointer { Data(buffer: $0) }, path: "")
    }()

    private static func generator(
        _ g: Members, declarations: TypeDeclarationFile, path: String
    ) -> GeneratorManifest.Generator? {
        guard let identifier = string(g, "identifier", default: GeneratorManifest.defaultIdentifier(path)),
            GeneratorManifest.isValidIdentifier(identifier),
            case .string(let kindText)? = member(g, "kind"), let kind = ExternalGeneratorSpec.Kind(rawValue: kindText),
            let execList = strings(g, "exec"), let exec = try? GeneratorManifest.execTemplate(execList, path: path)
        else { return nil }
        let declared = (declarations.types + declarations.exportedTypes).map(\.identifier)
        guard let types = strings(g, "types") ?? (member(g, "types") == nil ? declared : nil),
            let mimeTypes = strings(g, "mimeTypes") ?? (member(g, "mimeTypes") == nil ? [] : nil),
            !(types.isEmpty && mimeTypes.isEmpty),
            let timeout = number(g, "timeoutSeconds", default: ExternalGeneratorSpec.defaultTimeout),
            timeout > 0, timeout <= ExternalGeneratorSpec.maxTimeout,
            let maxBytes = number(g, "maxFileBytes", default: 1), GeneratorManifest.isByteCount(maxBytes, atLeast: 1),
            let maxMemory = number(g, "maxMemoryBytes", default: Double(ExternalGeneratorSpec.minMaxMemoryBytes)),
            GeneratorManifest.isByteCount(maxMemory, atLeast: Double(ExternalGeneratorSpec.minMaxMemoryBytes)),
            let maxCPUSeconds = count(g, "maxCPUSeconds"), let maxWriteBytes = count(g, "maxWriteBytes"),
            let maxProcesses = count(g, "maxProcesses"),
            let environment = strings(g, "environment") ?? (member(g, "environment") == nil ? [] : nil),
            !environment.contains(where: { $0.isEmpty || $0.contains("=" as Character) }),
            let priority = priority(g)
        else { return nil }
        var tryExec: String? = nil
        switch member(g, "tryExec") {
        case nil: break
        case .string(let program)?: tryExec = GeneratorManifest.resolve(program, against: path)
        default: return nil
        }
        var sandbox = true
        switch member(g, "sandbox") {
        case nil: break
        case .bool(let flag)?: sandbox = flag
        default: return nil
        }
        return GeneratorManifest.Generator(
            identifier: identifier, kind: kind, types: types, mimeTypes: mimeTypes, exec: exec,
            tryExec: tryExec, priority: priority,
            timeoutSeconds: timeout, maxFileBytes: member(g, "maxFileBytes") == nil ? nil : Int(maxBytes),
            maxMemoryBytes: member(g, "maxMemoryBytes") == nil ? nil : Int(maxMemory), maxCPUSeconds: maxCPUSeconds,
            maxWriteBytes: maxWriteBytes, maxProcesses: maxProcesses, environment: environment, sandbox: sandbox)
    }

    // MARK: Members

    private static func member(_ o: Members, _ key: String) -> Value? { o[key] }

    /// The string at `key`, `fallback` when absent, nil for any other value.
    private static func string(_ o: Members, _ key: String, default fallback: String) -> String? {
        switch member(o, key) {
        case nil: fallback
        case .string(let text)?: text
        default: nil
        }
    }

    /// The list of strings at `key`; nil when absent or anything else.
    private static func strings(_ o: Members, _ key: String) -> [String]? {
        guard case .array(let items)? = member(o, key) else { return nil }
        var result: [String] = []
        for item in items {
            guard case .string(let text) = item else { return nil }
            result.append(text)
        }
        return result
    }

    /// The number at `key`, `fallback` when absent, nil for any other value.
    private static func number(_ o: Members, _ key: String, default fallback: Double) -> Double? {
        switch member(o, key) {
        case nil: fallback
        case .number(let n, _)?: n
        default: nil
        }
    }

    /// A positive whole number at `key` (`.some(nil)` when absent); nil for anything else.
    private static func count(_ o: Members, _ key: String) -> Int?? {
        switch member(o, key) {
        case nil: .some(nil)
        case .number(let n, _)? where GeneratorManifest.isByteCount(n, atLeast: 1): .some(Int(n))
        default: nil
        }
    }

    private static func priority(_ o: Members) -> GeneratorPriority? {
        switch member(o, "priority") {
        case nil: .standard
        case .string(let name)?: GeneratorManifest.namedPriority(name)
        case .number(let n, _)? where n.rounded() == n && abs(n) <= 999: GeneratorPriority(rawValue: Int(n))
        default: nil
        }
    }
}
