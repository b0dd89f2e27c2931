/// A content type: an identifier with its declaration, as a `TypeCatalog` knows it.
///
/// Equality and hashing are by identifier. Conformance questions go to the catalog
/// (`catalog.conforms(type, to: .data)`), which knows the whole graph.
public struct UniformType: Sendable, Hashable, CustomStringConvertible {
    /// The declaration behind the type.
    public let declaration: TypeDeclaration
    /// Whether the type was made up for an unknown tag (`dyn.…`).
    public let isDynamic: Bool

    /// Creates a type from its declaration.
    public init(_ declaration: TypeDeclaration, isDynamic: Bool = false) {
        self.declaration = declaration
        self.isDynamic = isDynamic
    }

    /// Reverse-DNS identifier.
    public var identifier: String { declaration.identifier }
    /// The declared preferred MIME type, if the type itself has one (see `TypeCatalog.preferredMIMEType(of:)`).
    public var preferredMIMEType: String? { declaration.mimeTypes.first }
    /// The preferred filename extension, if any.
    public var preferredFilenameExtension: String? { declaration.extensions.first }
    /// The human-readable name, falling back to the identifier.
    public var localizedDescription: String {
        declaration.description.isEmpty ? identifier : declaration.description
    }
    /// The identifier.
    public var description: String { identifier }

    /// Types are equal when their identifiers are.
    public static func == (lhs: UniformType, rhs: UniformType) -> Bool { lhs.identifier == rhs.identifier }
    /// Hashes the identifier.
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
}

extension UniformType {
    /// Well-known identifiers the code refers to by name.
    public enum ID {
        /// The root of everything.
        public static let item = "public.item"
        /// Any byte stream.
        public static let data = "public.data"
        /// Anything with user-visible content.
        public static let content = "public.content"
        /// Any text.
        public static let text = "public.text"
        /// Text without markup.
        public static let plainText = "public.plain-text"
        /// UTF-8 text.
        public static let utf8PlainText = "public.utf8-plain-text"
        /// UTF-16 text.
        public static let utf16PlainText = "public.utf16-plain-text"
        /// Source code of any language.
        public static let sourceCode = "public.source-code"
        /// Any script run by an interpreter.
        public static let script = "public.script"
        /// Any XML document.
        public static let xml = "public.xml"
        /// HTML.
        public static let html = "public.html"
        /// XHTML.
        public static let xhtml = "public.xhtml"
        /// SVG.
        public static let svg = "public.svg-image"
        /// XML property list.
        public static let xmlPropertyList = "com.apple.xml-property-list"
        /// JSON.
        public static let json = "public.json"
        /// Any image.
        public static let image = "public.image"
        /// A zip archive.
        public static let zip = "public.zip-archive"
        /// A tar archive.
        public static let tar = "public.tar-archive"
        /// A gzip stream.
        public static let gzip = "org.gnu.gnu-zip-archive"
        /// Python source.
        public static let python = "public.python-script"
        /// An Internet mail message.
        public static let emailMessage = "com.apple.mail.email"
        /// X bitmap.
        public static let xbitmap = "public.xbitmap-image"
        /// A zero-length file.
        public static let empty = "org.freedesktop.zerosize"
        /// Java archive.
        public static let javaArchive = "com.sun.java-archive"
        /// Android package.
        public static let androidPackage = "com.android.package-archive"
        /// Office Open XML documents.
        public static let docx = "org.openxmlformats.wordprocessingml.document"
        /// Office Open XML spreadsheets.
        public static let xlsx = "org.openxmlformats.spreadsheetml.sheet"
        /// Office Open XML presentations.
        public static let pptx = "org.openxmlformats.presentationml.presentation"
        /// OpenOffice extension.
        public static let openOfficeExtension = "org.openoffice.extension"
        /// Python wheel.
        public static let wheel = "org.python.wheel"
    }
}
