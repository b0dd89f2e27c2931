extension StringProtocol {
    // Inlinable so that callers in other modules get it specialized: the generic copy instantiated the metadata of
    // its index range and scalar slice at run time: two scans of the conformance records (thumbnail's --size).
    /// The text without leading and trailing spaces and tabs: what Foundation's
    /// `trimmingCharacters(in: .whitespaces)` gives, without its bridging to `NSString`.
    ///
    /// Foundation's `.whitespaces` is the tab, Unicode's space separators (category Zs) and the
    /// zero-width space (U+200B), removed scalar by scalar. Its bridging cost a one-file command several scans of the
    /// runtime's protocol conformance records.
    @inlinable
    public func trimmingWhitespaces() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isHorizontalSpace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.isHorizontalSpace })!
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}

extension Unicode.Scalar {
    /// A tab, a Unicode space separator (category Zs) or U+200B, as in Foundation's `.whitespaces`.
    @usableFromInline
    var isHorizontalSpace: Bool {
        value == 0x09 || value == 0x20 || (value >= 0x80 && (value == 0x200B || properties.generalCategory == .spaceSeparator))
    }
}
