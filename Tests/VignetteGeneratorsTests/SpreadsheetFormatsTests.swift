import Testing

@testable import VignetteGenerators

@Suite("Spreadsheet number formats")
struct SpreadsheetFormatsTests {
    @Test(arguments: [
        ("yyyy\\-mm\\-dd", SpreadsheetFormats.Kind.date), ("d/m/yy h:mm", .dateTime), ("[h]:mm:ss", .time),
        ("hh:mm AM/PM", .time), ("0.00%", .percent), ("#,##0.00 [$€-407]", .number), ("\"day\" 0", .number), ("General", .number),
    ])
    func customFormatCodesAreClassifiedIgnoringQuotedTextAndBrackets(code: String, kind: SpreadsheetFormats.Kind) {
        #expect(SpreadsheetFormats.kind(code: code) == kind)
    }

    @Test func serialDaysAreISODatesInBothDateSystems() {
        var formats = SpreadsheetFormats()
        #expect(formats.dateText(45366, kind: .date) == "2024-03-15")
        #expect(formats.dateText(1, kind: .date) == "1900-01-01")
        #expect(formats.dateText(60, kind: .date) == "1900-02-29")
        #expect(formats.dateText(61, kind: .date) == "1900-03-01")
        #expect(formats.dateText(45366.5625, kind: .dateTime) == "2024-03-15 13:30")
        #expect(formats.dateText(0.25001157407, kind: .time) == "06:00:01")
        formats.uses1904 = true
        #expect(formats.dateText(0, kind: .date) == "1904-01-01")
    }

    @Test func numbersLoseTheirFloatNoise() {
        #expect(SpreadsheetFormats.number(42) == "42")
        #expect(SpreadsheetFormats.number(3.5) == "3.5")
        #expect(SpreadsheetFormats.number(0.1 + 0.2) == "0.3")
        #expect(SpreadsheetFormats.number(-1234.5678) == "-1234.5678")
    }
}
