/// One piece of HTML or XML source: text, a tag, or something a preview ignores.
struct MarkupToken {
    /// What the piece is.
    enum Kind: Equatable {
        /// Character data, entities still encoded.
        case text
        /// `<name attr="value">`, possibly `/>`.
        case startTag
        /// `</name>`.
        case endTag
        /// `<![CDATA[…]]>`; `text` is the content.
        case cdata
        /// A comment, `<!DOCTYPE …>` or `<?…?>`.
        case ignorable
    }

    /// What the piece is.
    var kind: Kind
    /// The tag name in lower case (empty for text).
    var name = ""
    /// The attributes in source order, names in lower case, values as written (entities encoded).
    var attributes: [(name: String, value: String?)] = []
    /// Whether a start tag ends with `/>`.
    var selfClosing = false
    /// The characters of a text or CDATA piece.
    var text = ""
}
