public import VignetteCore

/// The language name syntax highlighters know a source type by (`python`, `cpp`, `bash`).
public enum SourceLanguage {
    /// Names that do not follow from the type's description.
    static let names: [String: String] = [
        "public.c-plus-plus-source": "cpp", "public.c-plus-plus-header": "cpp", "public.c-header": "c",
        "public.objective-c-source": "objectivec", "public.objective-c-plus-plus-source": "objectivec",
        "com.microsoft.c-sharp-source": "csharp", "com.microsoft.f-sharp-source": "fsharp",
        "com.microsoft.visual-basic-source": "vbnet", "public.shell-script": "bash", "public.bash-script": "bash",
        "public.ksh-script": "bash", "public.zsh-script": "bash", "public.csh-script": "bash", "public.tcsh-script": "bash",
        "public.make-source": "makefile", "com.docker.dockerfile": "dockerfile", "org.iso.sql": "sql",
        "com.netscape.javascript-source": "javascript", "com.facebook.jsx": "javascript",
        "com.microsoft.typescript": "typescript", "org.gnu.emacs-lisp-source": "lisp",
        "org.lisp.common-lisp-source": "lisp", "public.assembly-source": "x86asm",
        "com.microsoft.powershell-script": "powershell", "com.microsoft.batch-file": "dos",
        "org.vim.vim-script": "vim", "com.google.protobuf-source": "protobuf",
        "org.khronos.glsl-source": "glsl", "com.sass-lang.scss": "scss", "org.lesscss.less": "less",
    ]

    /// The highlighter name for `type`: from the table, else the description's first word in
    /// lower case, letters and digits only ("Python script" → `python`).
    public static func name(for type: UniformType) -> String {
        if let known = names[type.identifier] { return known }
        let word = type.localizedDescription.split(separator: " ").first.map(String.init) ?? ""
        let cleaned = String(word.lowercased().unicodeScalars.filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) })
        return cleaned.isEmpty ? "plaintext" : cleaned
    }
}
