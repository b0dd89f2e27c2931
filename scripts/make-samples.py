#!/usr/bin/env python3
"""Makes the derived files of Samples/ (run from the repository root; the results are committed).

Hand-written samples (notes.txt, photo.jpg, ...) are not touched. Needs Pillow, and fonttools'
pyftsubset for the font (a subset of DejaVu Serif from fonts-dejavu-core).
"""
import io, os, shutil, subprocess, tarfile, zipfile
from PIL import Image

S = "Samples"
photo = Image.open(os.path.join(S, "photo.jpg")).convert("RGB")


def image_bytes(size, fmt):
    im = photo.copy()
    im.thumbnail((size, size))
    b = io.BytesIO()
    im.save(b, fmt, quality=85)
    return b.getvalue()


def write(name, text, encoding="utf-8"):
    with open(os.path.join(S, name), "wb") as f:
        f.write(text.encode(encoding))


def zip_with(name, entries):
    """entries: (name, bytes, stored?) in order; the first of ODF/EPUB must be the stored mimetype."""
    with zipfile.ZipFile(os.path.join(S, name), "w") as z:
        for n, data, stored in entries:
            info = zipfile.ZipInfo(n, date_time=(2026, 11, 22, 0, 0, 0))
            info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
            z.writestr(info, data)


write("table.tsv", "name\tlanguage\tstars\nvips\tC\t10200\nGraphicsMagick\tC\t300\nVignette\tSwift\t1\n")
write("feed.xml", '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n'
      "  <title>Vignette news</title>\n  <entry><title>Thumbnails for every file</title></entry>\n</feed>\n")
write("settings.yaml", "# Vignette service settings\nserver:\n  host: 127.0.0.1\n  port: 8080\nlimits:\n  max-upload: 64MB\n")
write("config.toml", '# Vignette batch settings\n[batch]\nflavor = "large"\njobs = 2\n\n[cache]\nretry-failed = false\n')
write("Info.plist", '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
      '"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n<dict>\n'
      "  <key>CFBundleName</key>\n  <string>Vignette</string>\n</dict>\n</plist>\n")
write("lettre-latin1.txt", "Chère Amélie,\nvoilà les aperçus de l'été : déjà prêts, à bientôt !\n", "latin-1")
write("japanese-sjis.txt", "プレビューを作成します。\n日本語のテキストファイルです。\n", "shift_jis")

with tarfile.open(os.path.join(S, "logs.tar.xz"), "w:xz") as t:
    for n, text in (("logs/app.log", "started\nthumbnailed 12 files\n"), ("logs/errors/bad.log", "photo-7.jpg: truncated\n")):
        data = text.encode()
        info = tarfile.TarInfo(n)
        info.size, info.mtime = len(data), 1795000000
        t.addfile(info, io.BytesIO(data))

ct = ('<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
      '<Default Extension="jpeg" ContentType="image/jpeg"/>'
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
      "</Types>")
rels = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>'
        '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/thumbnail" Target="docProps/thumbnail.jpeg"/>'
        "</Relationships>")
doc = ('<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
       "<w:body><w:p><w:r><w:t>Vignette report</w:t></w:r></w:p></w:body></w:document>")
zip_with("report.docx", [("[Content_Types].xml", ct.encode(), False), ("_rels/.rels", rels.encode(), False),
                         ("word/document.xml", doc.encode(), False), ("docProps/thumbnail.jpeg", image_bytes(256, "JPEG"), False)])

odt_manifest = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
                '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>'
                '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>')
content = ('<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
           'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:text>'
           "<text:p>Vignette letter</text:p></office:text></office:body></office:document-content>")
zip_with("letter.odt", [("mimetype", b"application/vnd.oasis.opendocument.text", True),
                        ("META-INF/manifest.xml", odt_manifest.encode(), False), ("content.xml", content.encode(), False),
                        ("Thumbnails/thumbnail.png", image_bytes(256, "PNG"), False)])

container = ('<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
             '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>')
opf = ('<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">'
       '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">vignette-sample</dc:identifier>'
       '<dc:title>The Vignette Book</dc:title><dc:language>en</dc:language><meta name="cover" content="cover-image"/></metadata>'
       '<manifest><item id="cover-image" href="images/cover.jpg" media-type="image/jpeg" properties="cover-image"/>'
       '<item id="ch1" href="chapter1.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="ch1"/></spine></package>')
chapter = ('<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>One</title></head>'
           "<body><p>Once upon a thumbnail.</p></body></html>")
zip_with("book.epub", [("mimetype", b"application/epub+zip", True), ("META-INF/container.xml", container.encode(), False),
                       ("OEBPS/content.opf", opf.encode(), False), ("OEBPS/chapter1.xhtml", chapter.encode(), False),
                       ("OEBPS/images/cover.jpg", image_bytes(400, "JPEG"), False)])

dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
if shutil.which("pyftsubset") and os.path.exists(dejavu):
    subprocess.run(["pyftsubset", dejavu, "--unicodes=U+0020-007E,U+00C0-00FF", "--no-hinting",
                    "--output-file=" + os.path.join(S, "serif-subset.ttf")], check=True, stderr=subprocess.DEVNULL)
print("samples written")


def pdf(name, info, pages):
    """A small PDF written by hand: `pages` are lists of (font size, text) lines in Helvetica."""
    objects = []

    def add(body):
        objects.append(body)
        return len(objects)

    catalog = add(None)
    tree = add(None)
    font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    kids = []
    for lines in pages:
        ops, y = [], 780
        for size, text in lines:
            escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            ops.append(f"BT /F1 {size} Tf 72 {y} Td ({escaped}) Tj ET")
            y -= size * 1.6 if text else 12
        stream = "\n".join(ops).encode("cp1252")
        content = add(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        kids.append(add(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 %d 0 R >> >> /Contents %d 0 R >>"
                        % (tree, font, content)))
    objects[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % tree
    objects[tree - 1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % k for k in kids), len(kids))
    fields = " ".join(f"/{k} ({v})" for k, v in info.items())
    info_ref = add(f"<< {fields} >>".encode("cp1252"))
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for o in offsets:
        out += b"%010d 00000 n \n" % o
    out += b"trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, catalog, info_ref, xref)
    with open(os.path.join(S, name), "wb") as f:
        f.write(out)


pdf("report.pdf", {"Title": "Quarterly thumbnail report", "Author": "Vignette team", "Subject": "What the service made",
                   "Creator": "scripts/make-samples.py", "CreationDate": "D:20261120090000Z"},
    [[(20, "Quarterly thumbnail report"), (12, ""), (12, "Vignette made 1,204,332 thumbnails this quarter,"),
      (12, "twice as many as the last one."), (12, ""), (12, "Most were photos; PDFs came second.")],
     [(16, "Next steps"), (12, ""), (12, "Previews for audio and video files.")]])


def xlsx(name, sheet, rows):
    """A one-sheet workbook written by hand: `rows` of strings (inline) and numbers."""
    def cell(ref, v):
        if isinstance(v, str):
            return f'<c r="{ref}" t="inlineStr"><is><t>{v}</t></is></c>'
        return f'<c r="{ref}"><v>{v}</v></c>'
    data = "".join(f'<row r="{i + 1}">' + "".join(cell(f"{chr(65 + j)}{i + 1}", v) for j, v in enumerate(r)) + "</row>"
                   for i, r in enumerate(rows))
    ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    zip_with(name, [
        ("[Content_Types].xml", '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
         '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
         '<Default Extension="xml" ContentType="application/xml"/>'
         '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
         '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
         '</Types>', False),
        ("_rels/.rels", f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
         f'<Relationship Id="rId1" Type="{rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>', False),
        ("xl/workbook.xml", f'<?xml version="1.0" encoding="UTF-8"?><workbook {ns} xmlns:r="{rel}"><sheets>'
         f'<sheet name="{sheet}" sheetId="1" r:id="rId1"/></sheets></workbook>', False),
        ("xl/_rels/workbook.xml.rels", f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
         f'<Relationship Id="rId1" Type="{rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>', False),
        ("xl/worksheets/sheet1.xml", f'<?xml version="1.0" encoding="UTF-8"?><worksheet {ns}><sheetData>{data}</sheetData></worksheet>', False),
    ])


xlsx("budget.xlsx", "Thumbnails", [["Format", "Files", "Share"], ["JPEG", 812004, 0.67], ["PNG", 250113, 0.21], ["PDF", 142215, 0.12]])


def chime(name, seconds=0.8, rate=8000):
    """A short decaying 880 Hz tone as 16-bit mono WAV, titled in a RIFF INFO list (INAM, IART, ICRD)."""
    import math, struct
    n = int(seconds * rate)
    pcm = b"".join(struct.pack("<h", int(12000 * math.exp(-4 * i / n) * math.sin(2 * math.pi * 880 * i / rate))) for i in range(n))
    def chunk(tag, data):
        return tag + struct.pack("<I", len(data)) + data + (b"\0" if len(data) % 2 else b"")
    info = b"INFO" + b"".join(chunk(t, v.encode() + b"\0") for t, v in ((b"INAM", "Chime"), (b"IART", "Vignette team"), (b"ICRD", "2026")))
    body = b"WAVE" + chunk(b"fmt ", struct.pack("<HHIIHH", 1, 1, rate, rate * 2, 2, 16)) + chunk(b"data", pcm) + chunk(b"LIST", info)
    with open(os.path.join(S, name), "wb") as f:
        f.write(b"RIFF" + struct.pack("<I", len(body)) + body)


chime("chime.wav")
