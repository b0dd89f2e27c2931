import Foundation
import Testing
import VignetteCore
import VignetteGenerators

@Suite("Calendar and contact previews")
struct CalendarContactPreviewTests {
    static let calendar = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Example//EN", "X-WR-CALNAME:Équipe",
        "BEGIN:VTIMEZONE", "TZID:Europe/Paris", "BEGIN:STANDARD", "DTSTART:19701025T030000", "TZNAME:CET", "END:STANDARD",
        "END:VTIMEZONE",
        "BEGIN:VEVENT", "UID:1@example.org", "SUMMARY:Réunion d'équipe\\, salle 4",
        "DTSTART;TZID=Europe/Paris:20260310T140000", "DTEND;TZID=Europe/Paris:20260310T153000",
        "LOCATION:Bâtiment A\\, étage 2", "RRULE:FREQ=WEEKLY;COUNT=4",
        "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Rappel", "TRIGGER:-PT15M", "END:VALARM", "END:VEVENT",
        "BEGIN:VEVENT", "UID:2@example.org", "SUMMARY:Jour férié", "DTSTART;VALUE=DATE:20260501", "DTEND;VALUE=DATE:20260502",
        "END:VEVENT",
        "BEGIN:VEVENT", "UID:3@example.org", "SUMMARY:Appel avec Tokyo\\, dont le titre est plié",
        "  sur deux lignes", "DTSTART:20260311T080015Z", "DURATION:PT1H", "END:VEVENT",
        "END:VCALENDAR", "",
    ].joined(separator: "\r\n")

    @Test func eventsShowSummaryStartEndAndLocationReadably() throws {
        let (result, generator) = try preview(Self.calendar, named: "team.ics")
        #expect(generator == "calendar")
        #expect(result.title == "Calendar \"Équipe\", 3 events")
        #expect(
            result.text == """
                Réunion d'équipe, salle 4
                  Start:    2026-03-10 14:00 (Europe/Paris)
                  End:      2026-03-10 15:30 (Europe/Paris)
                  Location: Bâtiment A, étage 2
                  Repeats:  FREQ=WEEKLY;COUNT=4

                Jour férié
                  Start:    2026-05-01
                  End:      2026-05-02

                Appel avec Tokyo, dont le titre est plié sur deux lignes
                  Start:    2026-03-11 08:00:15 UTC
                  End:      after PT1H
                """)
        #expect(
            result.html.contains(
                "<tr><td>Réunion d&#39;équipe, salle 4</td><td>2026-03-10 14:00 (Europe/Paris)</td><td>2026-03-10 15:30 (Europe/Paris)</td><td>Bâtiment A, étage 2</td></tr>"
            ))
        #expect(!result.truncated)
    }

    @Test func aCalendarCutAtTheRequestedBytesSaysSo() throws {
        let (result, _) = try preview(Self.calendar, named: "team.ics", request: PreviewRequest(maxBytes: 600))
        #expect(result.title == "Calendar \"Équipe\", 2+ events")
        #expect(result.truncated)
        #expect(result.text.hasSuffix("\n… cut: showing the first 600 bytes of \(ByteCount.text(Self.calendar.utf8.count))"))
    }

    @Test func anUnclosedEventIsKeptWithANote() throws {
        let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:Open\nDTSTART:20260101\n"
        let (result, _) = try preview(text, named: "open.ics")
        #expect(
            result.text == """
                Open
                  Start:    2026-01-01

                Note: the last event has no END:VEVENT; the file may be cut
                Note: the calendar has no END:VCALENDAR; the file may be cut
                """)
    }

    @Test func textThatIsNotICalendarFailsWithTheReasonAndIsShownAsText() throws {
        let input = GeneratorInput(
            bytes: Array("hello\n".utf8), filename: "x.ics", resolver: TypeResolver(catalog: textRegistry.catalog))
        let (_, generator, attempts) = try textRegistry.preview(for: input, request: PreviewRequest())
        #expect(generator == "text")
        #expect(attempts.first?.description == "calendar: failed: no BEGIN:VCALENDAR line: not iCalendar data")
    }

    static let cards = [
        "BEGIN:VCARD", "VERSION:3.0", "FN:Amélie Dupont", "N:Dupont;Amélie;;Dr.;", "ORG:Exemple SA;Recherche",
        "EMAIL;TYPE=INTERNET,WORK:amelie@example.org", "EMAIL;TYPE=HOME:amelie@home.example",
        "item1.TEL;TYPE=CELL:+33 6 12 34 56 78", "TEL;TYPE=WORK;TYPE=VOICE:tel:+33 1 23 45 67 89", "END:VCARD",
        "BEGIN:VCARD", "VERSION:2.1", "N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:M=C3=BCller;J=C3=BCrgen",
        "TEL;WORK;VOICE:+49 30 1234567", "EMAIL;PREF;INTERNET:juergen@example.de", "END:VCARD", "",
    ].joined(separator: "\r\n")

    @Test func cardsShowNamesEmailsAndPhonesWithTheirTypes() throws {
        let (result, generator) = try preview(Self.cards, named: "people.vcf")
        #expect(generator == "contacts")
        #expect(result.title == "Contacts, 2 cards")
        #expect(
            result.text == """
                Amélie Dupont
                  Organisation: Exemple SA, Recherche
                  E-mail:       amelie@example.org (work)
                  E-mail:       amelie@home.example (home)
                  Phone:        +33 6 12 34 56 78 (cell)
                  Phone:        +33 1 23 45 67 89 (work, voice)

                Jürgen Müller
                  E-mail:       juergen@example.de
                  Phone:        +49 30 1234567 (work, voice)
                """)
        #expect(
            result.html.contains(
                "<tr><td>Jürgen Müller</td><td></td><td>juergen@example.de</td><td>+49 30 1234567 (work, voice)</td></tr>"))
    }

    @Test func oneCardIsTitledWithItsName() throws {
        let (result, _) = try preview("BEGIN:VCARD\nVERSION:4.0\nFN:Ada Lovelace\nEND:VCARD\n", named: "ada.vcf")
        #expect(result.title == "Contact: Ada Lovelace")
        #expect(result.text == "Ada Lovelace")
    }
}
