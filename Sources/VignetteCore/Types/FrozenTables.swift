import Foundation
import Synchronization

/// A catalog's look-up tables laid out in one byte buffer and read in place.
///
/// Building the tables from declarations costs every command several milliseconds (thousands
/// of strings hashed and allocated); the merged cache keeps them in this form instead
/// (`write(_:into:)`), so a command reads the file, finds keys by binary search over sorted
/// byte strings and decodes only the values it asks for (a type's declaration, one list of
/// name claims), each once; the file is mapped, so the pages nobody reads cost nothing. The
/// buffer is checked before it is used, every key and value offset within it and every
/// table's keys in strictly increasing order, or it is refused whole (`init?(store:at:)`);
/// a value is checked as it is decoded, and one that does not decode is answered as absent.
final class FrozenTables: Sendable {
    /// The keyed tables, in the order they are written.
    enum Table: Int, CaseIterable {
        case entries, ext, mime, interp, extClaims, exactExtClaims, nameClaims, chains, mimeLists, icons, roots, magicPriority
    }

    /// The lists read whole when first asked for, in the order they are written.
    enum Section: Int, CaseIterable {
        case signatures, magic, globs, order, sources
    }

    /// What has been decoded so far.
    struct Decoded {
        var entries: [String: TypeCatalog.Entry] = [:]
        var signatures: [TypeCatalog.IndexedSignature]?
        var magic: [TypeCatalog.IndexedMagic]?
        var globs: [TypeCatalog.GlobClaim]?
        var order: [String]?
        var sources: ([(TypeDeclaration, TypeCatalog.Origin)], [SystemTypeExtras])?
    }

    let store: CacheBytes
    /// Where each table's index starts (12 bytes a key: key offset, key length, value offset) and its key count.
    let tables: [(start: Int, count: Int)]
    /// Where each section's values start.
    let sections: [Int]
    /// Where the keys and values of the tables lie.
    let valuesStart: Int, valuesEnd: Int
    /// The longest multi-part extension, in parts.
    let parts: Int
    /// The furthest byte any signature or magic rule looks at.
    let signatureReach: Int
    let decoded = Mutex(Decoded())

    /// The tables stored in `store` from `start` to the end, or nil if they are not whole.
    ///
    /// Only the layout is checked here (each table's index and each section within the file,
    /// nothing after the last): the entries are checked as look-ups read them, so that a
    /// command touches only the pages it needs.
    init?(store: CacheBytes, at start: Int) {
        var r = CacheReader(store: store, index: start)
        guard let parts = try? r.int(), let reach = try? r.int(), let values = try? r.count() else { return nil }
        let valuesStart = r.index
        var at = valuesStart + values
        var tables: [(start: Int, count: Int)] = []
        for _ in Table.allCases {
            guard at + 4 <= store.count else { return nil }
            let count = Int(Self.u32(store.raw, at))
            at += 4
            guard count <= (store.count - at) / 12 else { return nil }
            tables.append((at, count))
            at += count * 12
        }
        r.index = at
        var sections: [Int] = []
        for _ in Section.allCases {
            guard let length = try? r.count() else { return nil }
            sections.append(r.index)
            r.index += length
        }
        guard r.atEnd else { return nil }
        self.store = store
        self.tables = tables
        self.sections = sections
        self.valuesStart = valuesStart
        self.valuesEnd = valuesStart + values
        self.parts = parts
        self.signatureReach = reach
    }

    @inline(__always)
    static func u32(_ raw: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
        UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self))
    }

    /// Byte order of two keys: negative, zero or positive, as `memcmp` then length.
    static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let n = min(a.count, b.count)
        if n > 0, let pa = a.baseAddress, let pb = b.baseAddress {
            let c = memcmp(pa, pb, n)
            if c != 0 { return Int(c) }
        }
        return a.count - b.count
    }

    /// How many keys `table` has.
    func count(_ table: Table) -> Int { tables[table.rawValue].count }

    /// A reader at the value of `key` in `table`, if the key is there.
    func value(_ table: Table, _ key: String) -> CacheReader? {
        var key = key
        let (start, count) = tables[table.rawValue]
        let (valuesStart, valuesEnd) = (self.valuesStart, self.valuesEnd)
        let found = key.withUTF8 { k in
            { (raw: UnsafeRawBufferPointer) -> Int? in
                let wanted = UnsafeRawBufferPointer(k)
                var low = 0
                var high = count
                while low < high {
                    let mid = (low + high) / 2
                    let e = start + mid * 12
                    let keyAt = Int(Self.u32(raw, e))
                    let keyLength = Int(Self.u32(raw, e + 4))
                    let valueAt = Int(Self.u32(raw, e + 8))
                    // Damage is answered as absence, never read outside the tables.
                    guard keyAt >= valuesStart, keyLength <= valuesEnd - keyAt, valueAt >= valuesStart, valueAt < valuesEnd else {
                        return nil
                    }
                    let c = Self.compare(UnsafeRawBufferPointer(rebasing: raw[keyAt..<(keyAt + keyLength)]), wanted)
                    if c == 0 { return valueAt }
                    if c < 0 { low = mid + 1 } else { high = mid }
                }
                return nil
            }(store.raw)
        }
        return found.map { CacheReader(store: store, index: $0) }
    }

    /// A reader at the start of `section`.
    func reader(_ section: Section) -> CacheReader { CacheReader(store: store, index: sections[section.rawValue]) }

    // MARK: Typed look-ups

    func entry(_ id: String) -> TypeCatalog.Entry? {
        if let known = decoded.withLock({ $0.entries[id] }) { return known }
        guard var r = value(.entries, id), let (declaration, origin) = try? r.declaration(), declaration.identifier == id else {
            return nil
        }
        let entry = TypeCatalog.Entry(type: UniformType(declaration), origin: origin)
        decoded.withLock { $0.entries[id] = entry }
        return entry
    }

    func winner(_ table: Table, _ key: String) -> (String, Int)? {
        guard var r = value(table, key), let id = try? r.string(), let rank = try? r.int() else { return nil }
        return (id, rank)
    }

    func claims(_ table: Table, _ key: String) -> [TypeCatalog.NameClaim]? {
        guard var r = value(table, key) else { return nil }
        return try? r.nameClaims()
    }

    func strings(_ table: Table, _ key: String) -> [String]? {
        guard var r = value(table, key) else { return nil }
        return try? r.strings()
    }

    func string(_ table: Table, _ key: String) -> String? {
        guard var r = value(table, key) else { return nil }
        return try? r.string()
    }

    func int(_ table: Table, _ key: String) -> Int? {
        guard var r = value(table, key) else { return nil }
        return try? r.int()
    }

    // MARK: Sections

    /// `section` decoded by `read` the first time it is asked for (empty if it does not decode).
    func list<T: Sendable>(
        _ section: Section, _ stored: WritableKeyPath<Decoded, [T]?>, _ read: (inout CacheReader) throws -> T
    ) -> [T] {
        if let known = decoded.withLock({ $0[keyPath: stored] }) { return known }
        var r = reader(section)
        var list: [T] = []
        do {
            for _ in 0..<(try r.count()) { list.append(try read(&r)) }
        } catch {
            list = []
        }
        decoded.withLock { $0[keyPath: stored] = list }
        return list
    }

    var signatures: [TypeCatalog.IndexedSignature] {
        list(.signatures, \.signatures) { r in
            let id = try r.string()
            let order = try r.int()
            let priority = try r.int()
            var patterns: [BytePattern] = []
            for _ in 0..<(try r.count()) { patterns.append(try r.pattern()) }
            return TypeCatalog.IndexedSignature(
                identifier: id, signature: ByteSignature(priority: priority, patterns: patterns), order: order)
        }
    }

    var magic: [TypeCatalog.IndexedMagic] {
        list(.magic, \.magic) { r in
            let id = try r.string()
            let priority = try r.int()
            let file = try r.string()
            let isText = try r.flag()
            return TypeCatalog.IndexedMagic(
                identifier: id, rule: MagicRule(priority: priority, matches: try r.matches(depth: 0)), file: file, isText: isText)
        }
    }

    var globs: [TypeCatalog.GlobClaim] {
        list(.globs, \.globs) { r in
            TypeCatalog.GlobClaim(pattern: try r.string(), caseSensitive: try r.flag(), claim: try r.nameClaim())
        }
    }

    var order: [String] { list(.order, \.order) { try $0.string() } }

    /// The declarations and system extras the tables were built from (for a catalog built on
    /// this one); nil if they do not decode.
    var sources: ([(TypeDeclaration, TypeCatalog.Origin)], [SystemTypeExtras])? {
        if let known = decoded.withLock({ $0.sources }) { return known }
        var r = reader(.sources)
        guard let sources = try? r.sources() else { return nil }
        decoded.withLock { $0.sources = sources }
        return sources
    }
}
