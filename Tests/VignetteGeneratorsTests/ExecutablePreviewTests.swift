import Foundation
import Testing
import VignetteCore

@testable import VignetteGenerators

@Suite("Executables: ELF, PE, Mach-O and COFF headers")
struct ExecutablePreviewTests {
    private func preview(_ name: String) throws -> (TextPreview, String) {
        let (preview, generator, _) = try GeneratorFixtures.registry.preview(
            for: try GeneratorFixtures.input("executables/" + name), request: PreviewRequest())
        return (preview, generator)
    }

    // Each expectation agrees with readelf -hld, objdump -p or otool -L on the same file.
    @Test(arguments: [
        (
            "gcc-amd64-linux-exec", "ELF 64-bit executable, x86-64",
            "Format: ELF 64-bit, little-endian\nKind: executable\nArchitecture: x86-64\nInterpreter: /lib64/ld-linux-x86-64.so.2\n"
                + "Entry point: 0x4003e0\nLibraries: libc.so.6\n"
        ),
        (
            "gcc-amd64-mingw-exec", "Windows executable, x86-64",
            "Format: PE32+ (64-bit)\nKind: executable\nArchitecture: x86-64\nSubsystem: Windows console\n"
                + "Linked: 2014-08-08 02:30:39 UTC\nSections: 17\nImports: KERNEL32.dll, msvcrt.dll\n"
        ),
        (
            "gcc-386-mingw-obj", "COFF object file, x86 (i386)",
            "Format: COFF object file (Windows toolchains)\nArchitecture: x86 (i386)\nSections: 12\nSymbols: 30\n"
        ),
        (
            "gcc-amd64-darwin-exec", "Mach-O 64-bit executable, x86-64",
            "Format: Mach-O 64-bit\nArchitecture: x86-64\nKind: executable\nLibraries: /usr/lib/libgcc_s.1.dylib, /usr/lib/libSystem.B.dylib\n"
        ),
        (
            "fat-gcc-386-amd64-darwin-exec", "Mach-O universal executable, x86 (i386) + x86-64",
            "Format: Mach-O universal binary\nArchitectures: x86 (i386), x86-64\nKind: executable\n"
                + "Libraries (x86 (i386) part): /usr/lib/libgcc_s.1.dylib, /usr/lib/libSystem.B.dylib\n"
        ),
    ])
    func theHeadersSayWhatTheProgramIs(name: String, title: String, text: String) throws {
        let (p, generator) = try preview(name)
        #expect(generator == "executable")
        #expect(p.title == title)
        #expect(p.text == text)
    }

    @Test func damagedHeadersAreClearErrorsAndTheFallbackAnswers() throws {
        let elf = Array(try Data(contentsOf: URL(fileURLWithPath: GeneratorFixtures.path("executables/gcc-amd64-linux-exec"))))
        var bad = elf
        bad[4] = 9  // EI_CLASS
        let input = GeneratorInput(bytes: bad, filename: "a.out", resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
        #expect(throws: VignetteError(.corrupt, "damaged executable: the ELF identification bytes are invalid")) {
            try ExecutableGenerator().makePreview(for: input, request: PreviewRequest())
        }
        // Every cut of every fixture answers or fails cleanly.
        for name in ["gcc-amd64-linux-exec", "gcc-386-mingw-obj", "gcc-amd64-darwin-exec", "fat-gcc-386-amd64-darwin-exec"] {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: GeneratorFixtures.path("executables/" + name))))
            for cut in stride(from: 0, to: min(bytes.count, 4096), by: 13) {
                let input = GeneratorInput(
                    bytes: Array(bytes.prefix(cut)), filename: name, resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
                _ = try? ExecutableGenerator().makePreview(for: input, request: PreviewRequest())
            }
        }
    }
}
