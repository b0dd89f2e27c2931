import Foundation
import VignetteFuzzing

/// `vignette-fuzz`: runs a harness under libFuzzer (a build by scripts/fuzz.sh) or replays files
/// through it (any other build).
@main
struct FuzzEntry {
    static func main() {
        #if VIGNETTE_LIBFUZZER
            fuzz()
        #else
            replay()
        #endif
    }

    /// The harness named by VIGNETTE_FUZZ_HARNESS, or exit 2 naming the choices.
    static func harnessFromEnvironment() -> FuzzHarness {
        let name = ProcessInfo.processInfo.environment["VIGNETTE_FUZZ_HARNESS"] ?? ""
        guard let chosen = FuzzHarness(rawValue: name) else {
            let known = FuzzHarness.allCases.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(Data("vignette-fuzz: set VIGNETTE_FUZZ_HARNESS to one of: \(known)\n".utf8))
            exit(2)
        }
        return chosen
    }

    /// `vignette-fuzz <harness> <file>…`: each file through the harness, "ok" per file.
    static func replay() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let name = arguments.first, let harness = FuzzHarness(rawValue: name), arguments.count > 1 else {
            let known = FuzzHarness.allCases.map(\.rawValue).joined(separator: "|")
            FileHandle.standardError.write(Data("usage: vignette-fuzz <\(known)> <file>…\n".utf8))
            exit(2)
        }
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("vignette-fuzz: \(path): cannot read the file\n".utf8))
                exit(1)
            }
            harness.run(Array(data))
            print("\(path): ok")
        }
    }
}

#if VIGNETTE_LIBFUZZER
    /// The harness of this libFuzzer process (set once, before the driver starts).
    nonisolated(unsafe) private var fuzzedHarness = FuzzHarness.types

    // SwiftPM names our @main the program's entry, so libFuzzer's own main is never linked in:
    // its driver is called instead, with the command line it would have had.
    @_silgen_name("LLVMFuzzerRunDriver")
    private func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32

    /// Runs the harness on one input (libFuzzer's runtime also refers to this symbol by name).
    @_cdecl("LLVMFuzzerTestOneInput")
    func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        fuzzedHarness.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
    }

    extension FuzzEntry {
        /// Hands the process to libFuzzer with the harness from VIGNETTE_FUZZ_HARNESS.
        static func fuzz() {
            fuzzedHarness = harnessFromEnvironment()
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzerTestOneInput))
        }
    }
#endif
