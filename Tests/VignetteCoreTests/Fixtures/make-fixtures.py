#!/usr/bin/env python3
"""Regenerates the small container fixtures used by the resolver tests.

Every file here is made by this script (no third-party material). Run from this folder:
    python3 make-fixtures.py
"""
import io, os, tarfile, zipfile

os.makedirs("containers", exist_ok=True)
D = (2026, 1, 1, 0, 0, 0)

def z(name, entries, prefix=b"", stored_first=False):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as f:
        for i, (n, data) in enumerate(entries):
            info = zipfile.ZipInfo(n, date_time=D)
            method = zipfile.ZIP_STORED if (stored_first and i == 0) else zipfile.ZIP_DEFLATED
            f.writestr(info, data, method)
    data = buf.getvalue()
    if prefix:
        # A self-extractor style stub: offsets inside stay relative to the archive start.
        data = prefix + data
    open(os.path.join("containers", name), "wb").write(data)

z("document.odt.zip", [("mimetype", b"application/vnd.oasis.opendocument.text"), ("content.xml", b"<office:document-content/>")], stored_first=True)
z("book.bin", [("mimetype", b"application/epub+zip"), ("META-INF/container.xml", b"<container/>")], stored_first=True)
z("library.zip", [("META-INF/MANIFEST.MF", b"Manifest-Version: 1.0\n"), ("a/B.class", b"\xca\xfe\xba\xbe")])
z("report.zip", [("[Content_Types].xml", b"<Types/>"), ("word/document.xml", b"<w:document/>")])
z("sheet", [("[Content_Types].xml", b"<Types/>"), ("xl/workbook.xml", b"<workbook/>")])
z("app.zip", [("AndroidManifest.xml", b"\x03\x00"), ("classes.dex", b"dex\n035\x00"), ("META-INF/MANIFEST.MF", b"Manifest-Version: 1.0\n")])
z("not-a-jar.jar", [("hello.txt", b"hello\n")])
z("plain.zip", [("hello.txt", b"hello\n"), ("dir/world.txt", b"world\n")])
z("stub-prefixed.zip", [("hello.txt", b"hello\n")], prefix=b"SFX stub: runs first, then the zip follows\n\x00\x01\x02\x03")

ti = tarfile.TarInfo("hello.txt"); ti.size = 6; ti.mtime = 1767225600
buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as t:
    t.addfile(ti, io.BytesIO(b"hello\n"))
ustar = buf.getvalue()
# An old V7 tar: the same header without the "ustar" magic, checksum recomputed.
h = bytearray(ustar[:512]); h[257:265] = b"\x00" * 8; h[148:156] = b"        "
h[148:156] = ("%06o\x00 " % sum(h)).encode()
open("containers/old-v7", "wb").write(bytes(h) + ustar[512:])
