/// One shared-mime-info package file (`mime/packages/*.xml`), as read: the types it defines
/// and the problems found in it.
///
/// Each problem names the file and line and skips only the element it is about; the rest of
/// the file is still used. A file that is not well-formed XML, or is too large, gives no
/// types and one problem.
public struct MIMEPackage: Sendable, Equatable {
    /// Where the package was read from.
    public var path: String
    /// The `mime-type` elements, in file order.
    public var types: [Definition]
    /// Problems found, each naming `path:line`; the elements concerned were skipped.
    public var problems: [VignetteError]

    /// One `mime-type` element.
    public struct Definition: Sendable, Equatable {
        /// The MIME type, as written (`application/x-foo`).
        public var mime: String
        /// The line of the `mime-type` element.
        public var line: Int
        /// The `comment` without `xml:lang` (the English description), if any.
        public var comment: String?
        /// `alias` types.
        public var aliases: [String] = []
        /// `sub-class-of` types, each with its line.
        public var parents: [Located<String>] = []
        /// `glob` patterns.
        public var globs: [Glob] = []
        /// `magic` rules.
        public var magic: [Located<MagicRule>] = []
        /// `root-XML` elements: namespace URI and local name.
        public var rootXML: [RootXML] = []
        /// `generic-icon` name, if any.
        public var genericIcon: String?
        /// `glob-deleteall`: globs of less important packages are dropped.
        public var deletesGlobs = false
        /// `magic-deleteall`: magic of less important packages is dropped.
        public var deletesMagic = false

        /// Creates a definition with no content.
        public init(mime: String, line: Int) {
            self.mime = mime
            self.line = line
        }
    }

    /// A `glob` element.
    public struct Glob: Sendable, Equatable {
        /// The pattern (`*.foo`, `Makefile`, `README*`).
        public var pattern: String
        /// 0–100; the higher wins among globs that match the same name (50 by default).
        public var weight: Int
        /// Whether the pattern is matched case-sensitively (`case-sensitive="true"`).
        public var caseSensitive: Bool
        /// The line of the element.
        public var line: Int
    }

    /// A `root-XML` element.
    public struct RootXML: Sendable, Equatable {
        /// The root element's namespace URI (may be empty).
        public var namespaceURI: String
        /// The root element's local name.
        public var localName: String
    }

    /// A value with the line it was read from.
    public struct Located<Value: Sendable & Equatable>: Sendable, Equatable {
        /// The value.
        public var value: Value
        /// Its line in the package file.
        public var line: Int
    }

    /// Creates a package.
    public init(path: String, types: [Definition], problems: [VignetteError]) {
        self.path = path
        self.types = types
        self.problems = problems
    }
}
