public import VignetteCore

/// Previews of programs and object files (ELF, Windows PE, Mach-O, COFF): what their headers say
/// (format, kind, architecture, interpreter, the libraries they link, subsystem, link date), so an
/// attached `.exe` or a stray binary shows what it is without being run or disassembled.
public struct ExecutableGenerator: BuiltInGenerator, PreviewGenerating {
    /// `executable`.
    public let identifier = "executable"
    /// ELF, PE, Mach-O and COFF.
    public let supportedTypes = [
        "public.elf-binary", "com.microsoft.msdos-executable", "com.apple.mach-o-binary", "com.microsoft.coff-object",
    ]
    /// None on size: only headers and the tables they name are read (`ExecutableFacts`).
    public let limits = GeneratorLimits.none

    /// Creates the generator.
    public init() {}

    /// The header facts.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        let facts = try ExecutableFacts(try input.randomAccess())
        let text = facts.rows.map { "\($0.0): \($0.1)" }.joined(separator: "\n") + "\n"
        let html =
            "<dl class=\"facts\">" + facts.rows.map { "<dt>\(HTML.escape($0.0))</dt><dd>\(HTML.escape($0.1))</dd>" }.joined() + "</dl>\n"
        return TextPreview(title: facts.title, text: text, html: html)
    }
}
