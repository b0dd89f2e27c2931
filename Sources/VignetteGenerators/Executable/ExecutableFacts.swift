import VignetteCore

/// What an executable's headers say: format, kind, architecture, the libraries it links and how
/// it starts, for ELF, PE (Windows), Mach-O (single or universal) and COFF objects.
///
/// Only headers and tables they point to are read, each read bounded (`BinaryReader`), each
/// count capped; a header that does not parse is an error naming what is wrong.
struct ExecutableFacts {
    /// The rows shown, in order.
    private(set) var rows: [(String, String)] = []
    /// "ELF 64-bit executable, x86-64".
    private(set) var title = ""

    /// Most libraries (or imports) listed.
    static let maxLibraries = 64
    /// Most program headers, load commands, sections or dynamic entries read.
    static let maxEntries = 4096

    /// Reads the headers of `source`; throws `.corrupt` when no known format parses.
    init(_ source: FileSample) throws {
        let head = source.bytes(at: 0, count: 4).map(Array.init) ?? []
        if head == [0x7F, 0x45, 0x4C, 0x46] {
            try elf(BinaryReader(source: source, littleEndian: true))
        } else if head.starts(with: [0x4D, 0x5A]) {
            try pe(BinaryReader(source: source, littleEndian: true))
        } else if [[0xCE, 0xFA, 0xED, 0xFE], [0xCF, 0xFA, 0xED, 0xFE], [0xFE, 0xED, 0xFA, 0xCE], [0xFE, 0xED, 0xFA, 0xCF]].contains(head) {
            try machO(BinaryReader(source: source, littleEndian: head[0] != 0xFE), at: 0, universal: nil)
        } else if head == [0xCA, 0xFE, 0xBA, 0xBE] {
            try universal(BinaryReader(source: source, littleEndian: false))
        } else if let machine = BinaryReader(source: source, littleEndian: true).u16(0), Self.peMachines[machine] != nil {
            try coff(BinaryReader(source: source, littleEndian: true))
        } else {
            throw VignetteError(.corrupt, "not an executable Vignette can read (no ELF, PE, Mach-O or COFF header)")
        }
    }

    private static func fail(_ why: String) -> VignetteError { VignetteError(.corrupt, "damaged executable: \(why)") }

    // MARK: ELF

    static let elfMachines: [Int: String] = [
        2: "SPARC", 3: "x86 (i386)", 8: "MIPS", 20: "PowerPC", 21: "PowerPC 64-bit", 22: "IBM S/390", 40: "ARM", 43: "SPARC V9",
        50: "IA-64", 62: "x86-64", 183: "AArch64 (ARM 64-bit)", 243: "RISC-V", 247: "BPF", 258: "LoongArch",
    ]

    private mutating func elf(_ r0: BinaryReader) throws {
        var r = r0
        guard let cls = r.bytes(4, 1)?.first, cls == 1 || cls == 2, let data = r.bytes(5, 1)?.first, data == 1 || data == 2 else {
            throw Self.fail("the ELF identification bytes are invalid")
        }
        let wide = cls == 2
        r.littleEndian = data == 1
        guard let type = r.u16(16), let machine = r.u16(18) else { throw Self.fail("the ELF header is cut short") }
        let word = wide ? 8 : 4
        func addr(_ offset: Int) -> Int? { wide ? r.u64(offset) : r.u32(offset) }
        guard let entry = addr(24), let phoff = addr(24 + word), let phentsize = r.u16(wide ? 54 : 42), let phnum = r.u16(wide ? 56 : 44)
        else {
            throw Self.fail("the ELF header is cut short")
        }
        // Program headers: the interpreter, the loadable segments (to map addresses to file offsets), the dynamic table.
        var interpreter: String?
        var loads: [(vaddr: Int, offset: Int, size: Int)] = []
        var dynamic: (offset: Int, size: Int)?
        for i in 0..<min(phnum, Self.maxEntries) where phentsize >= (wide ? 56 : 32) {
            let p = phoff + i * phentsize
            guard let kind = r.u32(p) else { break }
            let offset = wide ? r.u64(p + 8) : r.u32(p + 4)
            let vaddr = wide ? r.u64(p + 16) : r.u32(p + 8)
            let filesz = wide ? r.u64(p + 32) : r.u32(p + 16)
            guard let offset, let vaddr, let filesz else { break }
            switch kind {
            case 1: loads.append((vaddr, offset, filesz))
            case 2: dynamic = (offset, filesz)
            case 3: interpreter = r.string(offset, max: min(filesz, 4096))
            default: break
            }
        }
        var needed: [Int] = []
        var strtab: Int?
        if let dynamic {
            let size = 2 * word
            for i in 0..<min(dynamic.size / size, Self.maxEntries) {
                guard let tag = addr(dynamic.offset + i * size), let value = addr(dynamic.offset + i * size + word), tag != 0 else { break }
                if tag == 1, needed.count < Self.maxLibraries { needed.append(value) }
                if tag == 5 { strtab = value }
            }
        }
        let strings = strtab.flatMap { address in
            loads.first { address >= $0.vaddr && address - $0.vaddr < $0.size }.map { address - $0.vaddr + $0.offset }
        }
        let libraries = strings.map { base in needed.compactMap { r.string(base + $0) } } ?? []
        let kinds = [1: "relocatable object", 2: "executable", 3: "shared object", 4: "core dump"]
        var kind = kinds[type] ?? "type \(type)"
        if type == 3, interpreter != nil { kind = "position-independent executable" }
        let arch = Self.elfMachines[machine] ?? "machine \(machine)"
        title = "ELF \(wide ? 64 : 32)-bit \(kind), \(arch)"
        rows.append(("Format", "ELF \(wide ? 64 : 32)-bit, \(data == 1 ? "little" : "big")-endian"))
        rows.append(("Kind", kind))
        rows.append(("Architecture", arch))
        if let interpreter, !interpreter.isEmpty { rows.append(("Interpreter", interpreter)) }
        if entry != 0 { rows.append(("Entry point", "0x" + String(entry, radix: 16))) }
        if !libraries.isEmpty { rows.append(("Libraries", libraries.joined(separator: ", "))) }
        if dynamic == nil, type == 2 { rows.append(("Linking", "static")) }
    }

    // MARK: PE and COFF

    static let peMachines: [Int: String] = [
        0x14C: "x86 (i386)", 0x8664: "x86-64", 0xAA64: "ARM64", 0x1C0: "ARM", 0x1C4: "ARM Thumb-2", 0x200: "IA-64", 0x5064: "RISC-V 64-bit",
    ]
    static let subsystems = [
        1: "native", 2: "Windows GUI", 3: "Windows console", 7: "POSIX console", 9: "Windows CE", 10: "EFI application",
        11: "EFI boot service driver", 12: "EFI runtime driver", 14: "Xbox", 16: "Windows boot application",
    ]

    private mutating func pe(_ r: BinaryReader) throws {
        guard let lfanew = r.u32(0x3C), lfanew >= 0x40, r.bytes(lfanew, 4) == [0x50, 0x45, 0, 0] else {
            title = "MS-DOS executable"
            rows.append(("Format", "MS-DOS executable (MZ), no Windows (PE) header"))
            return
        }
        let coff = lfanew + 4
        guard let machine = r.u16(coff), let sectionCount = r.u16(coff + 2), let stamp = r.u32(coff + 4),
            let optionalSize = r.u16(coff + 16),
            let characteristics = r.u16(coff + 18), let magic = r.u16(coff + 20)
        else { throw Self.fail("the PE header is cut short") }
        let wide = magic == 0x20B
        guard magic == 0x10B || wide else { throw Self.fail("the PE optional header has an unknown magic number") }
        let optional = coff + 20
        let subsystem = r.u16(optional + 68)
        let directories = optional + (wide ? 112 : 96)
        let directoryCount = min(r.u32(optional + (wide ? 108 : 92)) ?? 0, 16)
        let sections = optional + optionalSize
        func fileOffset(_ rva: Int) -> Int? {
            for i in 0..<min(sectionCount, 96) {
                let s = sections + i * 40
                guard let size = r.u32(s + 8), let address = r.u32(s + 12), let raw = r.u32(s + 20) else { return nil }
                if rva >= address, rva - address < max(size, r.u32(s + 16) ?? 0) { return rva - address + raw }
            }
            return nil
        }
        var imports: [String] = []
        if directoryCount > 1, let rva = r.u32(directories + 8), rva != 0, var at = fileOffset(rva) {
            for _ in 0..<Self.maxLibraries {
                guard let nameRVA = r.u32(at + 12), nameRVA != 0, let name = fileOffset(nameRVA).flatMap({ r.string($0) }) else { break }
                imports.append(name)
                at += 20
            }
        }
        let isDotNet = directoryCount > 14 && (r.u32(directories + 14 * 8) ?? 0) != 0
        let kind = characteristics & 0x2000 != 0 ? "DLL" : "executable"
        let arch = Self.peMachines[machine] ?? String(format: "machine 0x%04X", machine)
        title = "Windows \(kind), \(arch)"
        rows.append(("Format", wide ? "PE32+ (64-bit)" : "PE32"))
        rows.append(("Kind", kind))
        rows.append(("Architecture", arch))
        if let subsystem, let name = Self.subsystems[subsystem] { rows.append(("Subsystem", name)) }
        if isDotNet { rows.append(("Runtime", ".NET (CLI)")) }
        // Reproducible builds put a hash here; only plausible dates (1990–2100) are shown as dates.
        if stamp > 631_152_000, stamp < 4_102_444_800 { rows.append(("Linked", UTCDate.time(Int64(stamp)) + " UTC")) }
        rows.append(("Sections", "\(sectionCount)"))
        if !imports.isEmpty { rows.append(("Imports", imports.joined(separator: ", "))) }
    }

    private mutating func coff(_ r: BinaryReader) throws {
        guard let machine = r.u16(0), let sectionCount = r.u16(2), let stamp = r.u32(4), let symbols = r.u32(12),
            let optionalSize = r.u16(16),
            sectionCount > 0, sectionCount < 0xFFFF, optionalSize == 0
        else { throw Self.fail("the COFF header is invalid") }
        let arch = Self.peMachines[machine] ?? "machine \(machine)"
        title = "COFF object file, \(arch)"
        rows.append(("Format", "COFF object file (Windows toolchains)"))
        rows.append(("Architecture", arch))
        rows.append(("Sections", "\(sectionCount)"))
        rows.append(("Symbols", "\(symbols)"))
        if stamp > 631_152_000, stamp < 4_102_444_800 { rows.append(("Compiled", UTCDate.time(Int64(stamp)) + " UTC")) }
    }

    // MARK: Mach-O

    static func machCPU(_ type: Int) -> String {
        [
            7: "x86 (i386)", 0x0100_0007: "x86-64", 12: "ARM", 0x0100_000C: "ARM64", 0x0200_000C: "ARM64_32", 18: "PowerPC",
            0x0100_0012: "PowerPC 64-bit",
        ][type]
            ?? "CPU type \(type)"
    }

    private mutating func universal(_ r: BinaryReader) throws {
        // 0xCAFEBABE is also a Java class file; a universal binary has a handful of architectures.
        guard let count = r.u32(4), (1...16).contains(count) else { throw Self.fail("not a universal binary (a Java class file?)") }
        var archs: [String] = []
        var first: Int?
        for i in 0..<count {
            guard let cpu = r.u32(8 + i * 20), let offset = r.u32(8 + i * 20 + 8) else {
                throw Self.fail("the universal header is cut short")
            }
            archs.append(Self.machCPU(cpu))
            if first == nil { first = offset }
        }
        guard let first, let magic = r.bytes(first, 4) else { throw Self.fail("the first architecture lies outside the file") }
        try machO(BinaryReader(source: r.source, littleEndian: magic[0] != 0xFE), at: first, universal: archs)
    }

    private mutating func machO(_ r: BinaryReader, at base: Int, universal: [String]?) throws {
        guard let magic = r.uint(base, 4), let cpu = r.u32(base + 4), let fileType = r.u32(base + 12), let count = r.u32(base + 16) else {
            throw Self.fail("the Mach-O header is cut short")
        }
        let wide = magic == 0xFEED_FACF
        var at = base + (wide ? 32 : 28)
        var libraries: [String] = []
        for _ in 0..<min(count, Self.maxEntries) {
            guard let cmd = r.u32(at), let size = r.u32(at + 4), size >= 8 else { break }
            if [0xC, 0x8000_0018, 0x8000_001F].contains(cmd), libraries.count < Self.maxLibraries, let nameOffset = r.u32(at + 8),
                nameOffset < size, let name = r.string(at + nameOffset, max: size - nameOffset)
            {
                libraries.append(name)
            }
            at += size
        }
        let kinds = [
            1: "object file", 2: "executable", 3: "fixed VM library", 4: "core dump", 6: "dynamic library", 7: "dynamic linker",
            8: "bundle",
        ]
        let kind = kinds[fileType] ?? "file type \(fileType)"
        let arch = Self.machCPU(cpu)
        if let universal {
            title = "Mach-O universal \(kind), \(universal.joined(separator: " + "))"
            rows.append(("Format", "Mach-O universal binary"))
            rows.append(("Architectures", universal.joined(separator: ", ")))
        } else {
            title = "Mach-O \(wide ? 64 : 32)-bit \(kind), \(arch)"
            rows.append(("Format", "Mach-O \(wide ? 64 : 32)-bit"))
            rows.append(("Architecture", arch))
        }
        rows.append(("Kind", kind))
        if !libraries.isEmpty {
            rows.append(("Libraries" + (universal == nil ? "" : " (\(arch) part)"), libraries.joined(separator: ", ")))
        }
    }
}
