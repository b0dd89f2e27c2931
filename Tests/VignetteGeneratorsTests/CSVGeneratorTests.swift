import Testing
import VignetteCore
import VignetteGenerators

@Suite("CSV and TSV previews")
struct CSVGeneratorTests {
    @Test func quotedFieldsWithDelimitersQuotesAndNewlinesAreOneCell() throws {
        let source = "name,note\r\n\"Smith, J\",\"said \"\"hi\"\"\"\r\nLee,\"two\r\nlines\"\r\n"
        let (result, generator) = try preview(source, named: "q.csv")
        #expect(generator == "csv")
        #expect(result.title == "CSV table, 2 columns × 2 rows")
        #expect(result.text == "name      note\n--------  ---------\nSmith, J  said \"hi\"\nLee       two↵lines")
        #expect(
            result.html == """
                <table class="vignette-table">
                <thead>
                <tr><th>name</th><th>note</th></tr>
                </thead>
                <tbody>
                <tr><td>Smith, J</td><td>said &quot;hi&quot;</td></tr>
                <tr><td>Lee</td><td>two<br>lines</td></tr>
                </tbody>
                </table>

                """)
    }

    @Test func aSemicolonDelimiterIsSniffed() throws {
        let (result, _) = try preview("a;b;c\n1,5;2;3\n4;5,5;6\n", named: "eu.csv")
        #expect(result.title == "CSV table (semicolon-separated), 3 columns × 2 rows")
        #expect(result.text == "a    b    c\n---  ---  -\n1,5  2    3\n4    5,5  6")
    }

    @Test func tsvIsSplitAtTabs() throws {
        let (result, generator) = try preview("x\ty\n1\t2\n", named: "t.tsv")
        #expect(generator == "csv")
        #expect(result.title == "TSV table, 2 columns × 1 row")
        #expect(result.text == "x  y\n-  -\n1  2")
    }

    @Test func raggedRowsArePaddedAndWideCellsCut() throws {
        let wide = String(repeating: "w", count: 50)
        let (result, _) = try preview("a,b\n1\n2,3,4\n\(wide),5\n", named: "r.csv")
        #expect(result.title == "CSV table, 3 columns × 3 rows")
        #expect(
            result.text
                == "a                                         b\n----------------------------------------  -  -\n1\n2                                         3  4\n\(String(repeating: "w", count: 39))…  5"
        )
    }

    @Test func rowsAndColumnsOverTheCapsAreCutWithAMarker() throws {
        let header = (1...40).map { "c\($0)" }.joined(separator: ",")
        let rows = (1...300).map { r in (1...40).map { _ in String(r % 10) }.joined(separator: ",") }
        let (result, _) = try preview(
            ([header] + rows).joined(separator: "\n"), named: "big.csv", request: PreviewRequest(maxBytes: 1 << 20))
        #expect(result.title == "CSV table, 40 columns × 300 rows")
        let lines = result.text.split(separator: "\n")
        #expect(lines.count == 203)
        #expect(lines.last == "… cut: showing 200 of 300 rows and 30 of 40 columns")
        #expect(result.truncated)
    }
}
