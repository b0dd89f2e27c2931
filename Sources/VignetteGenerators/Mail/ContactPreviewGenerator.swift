import Foundation
public import VignetteCore

/// Previews of vCard (`.vcf`, versions 2.1 to 4.0): each card's name, organisation, e-mail
/// addresses and phone numbers with their types, as text and as an HTML table.
///
/// The text read is the request's bytes at most; cards are cut at `maxCards` and at the
/// request's lines, with a marker. A file with no `BEGIN:VCARD` is damaged.
public struct ContactPreviewGenerator: BuiltInGenerator, PreviewGenerating {
    /// `contacts`.
    public let identifier = "contacts"
    /// vCards.
    public let supportedTypes = ["public.vcard"]
    /// Most cards shown.
    public static let maxCards = 500
    /// Most content lines read.
    static let maxContentLines = 500_000
    /// Values of one property kept per card (a card with 10,000 numbers shows the first ones).
    static let maxValues = 20

    /// One card as shown.
    struct Card {
        /// The formatted name (`FN`), else the structured one (`N`) put in reading order.
        var name: String? = nil
        /// `N`'s name in reading order, used when there is no `FN`.
        var structuredName: String? = nil
        /// The organisation (`ORG`, its units joined).
        var organisation: String? = nil
        /// E-mail addresses with their types.
        var emails: [String] = []
        /// Phone numbers with their types.
        var phones: [String] = []

        /// The name to show.
        var displayName: String { name ?? structuredName ?? organisation ?? emails.first ?? "(no name)" }
    }

    /// Creates the generator.
    public init() {}

    /// "Contact: Jane Doe" for one card, "Contacts, 12 cards" for more, with the cards.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        let excerpt = try TextExcerpt.read(input, request: request)
        try excerpt.declineIfBinary()
        var cards: [Card] = []
        var current: Card? = nil
        var sawCard = false
        var unclosed = false
        for line in ContentLine.lines(of: excerpt.text, maxLines: Self.maxContentLines) {
            switch line.name {
            case "BEGIN" where line.value.uppercased().trimming(" \t") == "VCARD":
                sawCard = true
                if let open = current {
                    cards.append(open)
                    unclosed = true
                }
                current = Card()
            case "END" where line.value.uppercased().trimming(" \t") == "VCARD":
                if let card = current { cards.append(card) }
                current = nil
            default:
                if current != nil { Self.add(line, to: &current!) }
            }
        }
        if let card = current {
            cards.append(card)
            if !excerpt.cutAtBytes { unclosed = true }
        }
        guard sawCard else { throw VignetteError(.corrupt, "no BEGIN:VCARD line: not vCard data") }
        return render(cards, notes: unclosed ? ["a card has no END:VCARD; the file may be cut"] : [], excerpt: excerpt, request: request)
    }

    /// Records the properties shown.
    static func add(_ line: ContentLine, to card: inout Card) {
        func typed(_ value: String) -> String {
            let types = line.types
            return types.isEmpty ? value : "\(value) (\(types.joined(separator: ", ")))"
        }
        switch line.name {
        case "FN": if card.name == nil { card.name = line.text.collapsingWhiteSpace.nonEmpty }
        case "N":
            if card.structuredName == nil {
                // family;given;additional;prefixes;suffixes → prefixes given additional family suffixes
                let parts = line.components.map { $0.replacingOccurrences(of: ",", with: " ") }
                let order = [3, 1, 2, 0, 4].compactMap { $0 < parts.count ? parts[$0] : nil }
                card.structuredName = order.joined(separator: " ").collapsingWhiteSpace.nonEmpty
            }
        case "ORG":
            if card.organisation == nil {
                card.organisation = line.components.map(\.collapsingWhiteSpace).filter { !$0.isEmpty }.joined(separator: ", ").nonEmpty
            }
        case "EMAIL" where card.emails.count < maxValues:
            if let value = line.text.collapsingWhiteSpace.nonEmpty { card.emails.append(typed(value)) }
        case "TEL" where card.phones.count < maxValues:
            var value = line.text.collapsingWhiteSpace
            if value.lowercased().hasPrefix("tel:") { value = String(value.dropFirst(4)) }
            if let value = value.nonEmpty { card.phones.append(typed(value)) }
        default: break
        }
    }

    /// The text and HTML of the cards.
    private func render(_ cards: [Card], notes: [String], excerpt: TextExcerpt, request: PreviewRequest) -> TextPreview {
        let countText = excerpt.cutAtBytes ? "\(CountText.grouped(cards.count))+ cards" : CountText.counted(cards.count, "card")
        var lines: [String] = []
        var html =
            "<table class=\"vignette-table\">\n<thead><tr><th>Name</th><th>Organisation</th><th>E-mail</th><th>Phone</th></tr></thead>\n<tbody>\n"
        var shown = 0
        for card in cards.prefix(Self.maxCards) {
            if lines.count >= request.maxLines { break }
            if !lines.isEmpty { lines.append("") }
            lines.append(card.displayName)
            if let organisation = card.organisation { lines.append("  Organisation: \(organisation)") }
            lines += card.emails.map { "  E-mail:       \($0)" }
            lines += card.phones.map { "  Phone:        \($0)" }
            let cells =
                [card.displayName, card.organisation ?? ""].map(HTML.escape)
                + [card.emails, card.phones].map {
                    $0.map(HTML.escape).joined(separator: "<br>")
                }
            html += "<tr>" + cells.map { "<td>\($0)</td>" }.joined() + "</tr>\n"
            shown += 1
        }
        html += "</tbody>\n</table>\n"
        var cuts: [String] = []
        if shown < cards.count { cuts.append("the first \(CountText.grouped(shown)) of \(countText)") }
        if let byteCut = excerpt.byteCutDescription { cuts.append("the \(byteCut)") }
        if !notes.isEmpty {
            lines += [""] + notes.map { "Note: \($0)" }
            html += "<ul class=\"vignette-note\">\n" + notes.map { "<li>\(HTML.escape($0))</li>\n" }.joined() + "</ul>\n"
        }
        if !cuts.isEmpty {
            let marker = "… cut: showing " + cuts.joined(separator: " and ")
            lines.append(marker)
            html += "<p class=\"vignette-cut\">\(HTML.escape(marker))</p>\n"
        }
        let title = cards.count == 1 && !excerpt.cutAtBytes ? "Contact: \(cards[0].displayName)" : "Contacts, \(countText)"
        return TextPreview(title: title, text: lines.joined(separator: "\n"), html: html, truncated: !cuts.isEmpty)
    }
}

extension String {
    /// The string, or nil when it is empty.
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
