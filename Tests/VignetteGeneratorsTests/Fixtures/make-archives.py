#!/usr/bin/env python3
"""Makes the archive and document fixtures of VignetteGeneratorsTests (deterministic).

Run from this folder: python3 make-archives.py
Needs Python 3.11+ with Pillow (pictures for the document previews).
"""
import bz2
import gzip
import io
import lzma
import os
import random
import struct
import tarfile
import zipfile

from PIL import Image, ImageDraw

HERE = os.path.dirname(os.path.abspath(__file__))
ARCHIVES = os.path.join(HERE, "archives")
DOCUMENTS = os.path.join(HERE, "documents")
STAMP = (2024, 1, 2, 3, 4, 6)
MTIME = 1704164646

# The tree shared by listing.zip and listing.tar*: sizes chosen to exercise the units.
TREE = [
    ("README.md", b"# Demo\n" * 10),            # 70 bytes
    ("docs/", None),
    ("docs/guide.txt", b"g" * 1500),            # 1.5 KB
    ("docs/img/logo.png", b"\x89PNG" + b"p" * 2496),  # 2.5 KB
    ("src/main.c", b"int main(void) { return 0; }\n"),  # 29 bytes
    ("src/lib/util.c", b"u" * 1),               # 1 byte
]


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def zip_bytes(members, compression=zipfile.ZIP_DEFLATED):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression) as z:
        for name, data in members:
            info = zipfile.ZipInfo(name, STAMP)
            # ODF and EPUB readers expect `mimetype` stored; directories have no data.
            stored = data is None or name == "mimetype"
            info.compress_type = zipfile.ZIP_STORED if stored else compression
            if data is None:
                info.external_attr = 0o40755 << 16 | 0x10
                z.writestr(info, b"")
            else:
                info.external_attr = 0o644 << 16
                z.writestr(info, data)
    return buf.getvalue()


def tar_bytes(members, fmt=tarfile.USTAR_FORMAT):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=fmt) as t:
        for name, data in members:
            info = tarfile.TarInfo(name.rstrip("/"))
            info.mtime = MTIME
            info.uname = info.gname = "demo"
            if data is None:
                info.type = tarfile.DIRTYPE
                info.mode = 0o755
                t.addfile(info)
            else:
                info.size = len(data)
                info.mode = 0o644
                t.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def gz(data):
    return gzip.compress(data, mtime=0)


def picture(width, height, fmt, colour):
    img = Image.new("RGB", (width, height), colour)
    ImageDraw.Draw(img).rectangle([width // 4, height // 4, 3 * width // 4, 3 * height // 4], fill=(255, 255, 255))
    buf = io.BytesIO()
    img.save(buf, fmt, quality=90) if fmt == "JPEG" else img.save(buf, fmt)
    return buf.getvalue()


def patch_zip_name(data, old, new):
    """Replaces a member name (same length) in local and central headers: for names zipfile cannot write."""
    assert len(old) == len(new)
    return data.replace(old, new)


def patch_declared_size(data, name, size):
    """Makes the central directory (and local header) declare `size` uncompressed bytes for `name` (a lying zip bomb)."""
    out = bytearray(data)
    for sig, offset in ((b"PK\x01\x02", 24), (b"PK\x03\x04", 22)):
        pos = 0
        while True:
            pos = out.find(sig, pos)
            if pos < 0:
                break
            name_len_at = 28 if sig == b"PK\x01\x02" else 26
            n = struct.unpack_from("<H", out, pos + name_len_at)[0]
            name_at = pos + (46 if sig == b"PK\x01\x02" else 30)
            if bytes(out[name_at:name_at + n]) == name:
                struct.pack_into("<I", out, pos + offset, size)
            pos += 4
    return bytes(out)


def archives():
    write(os.path.join(ARCHIVES, "listing.zip"), zip_bytes(TREE))
    plain = tar_bytes(TREE)
    write(os.path.join(ARCHIVES, "listing.tar"), plain)
    write(os.path.join(ARCHIVES, "listing.tar.gz"), gz(plain))
    write(os.path.join(ARCHIVES, "listing.tar.bz2"), bz2.compress(plain, 9))
    write(os.path.join(ARCHIVES, "listing.tar.xz"), lzma.compress(plain, format=lzma.FORMAT_XZ))
    write(os.path.join(ARCHIVES, "listing.tar.lzma"), lzma.compress(plain, format=lzma.FORMAT_ALONE))
    # The same tar behind a name that does not say tar: found by content.
    write(os.path.join(ARCHIVES, "listing-in-disguise.gz"), gz(plain))

    long_name = "very-long-directory-name-" * 5 + "/file-with-a-long-name.txt"  # > 100 bytes
    write(os.path.join(ARCHIVES, "gnu-longname.tar"), tar_bytes([(long_name, b"x" * 42)], tarfile.GNU_FORMAT))
    write(os.path.join(ARCHIVES, "pax-path.tar"), tar_bytes([(long_name.replace("file", "päx"), b"y" * 7)], tarfile.PAX_FORMAT))

    # Four members, the second incompressible: cut in the middle of it.
    rng = random.Random(7)
    noise = bytes(rng.getrandbits(8) for _ in range(100_000))
    damaged = gz(tar_bytes([("a.txt", b"a" * 10), ("noise.bin", noise), ("c.txt", b"c"), ("d.txt", b"d")]))
    write(os.path.join(ARCHIVES, "truncated.tar.gz"), damaged[: len(damaged) // 2])

    # 300 KB of zeros in three members: a stream larger than one 64 KiB chunk, for the byte budget.
    zeros = tar_bytes([(f"zero{i}.bin", bytes(100_000)) for i in range(3)])
    write(os.path.join(ARCHIVES, "zeros.tar.xz"), lzma.compress(zeros, format=lzma.FORMAT_XZ))

    # A compressed file that is not a tar; gzip keeps its original name.
    buf = io.BytesIO()
    with gzip.GzipFile(filename="notes.txt", mode="wb", fileobj=buf, mtime=0) as g:
        g.write(b"just some notes\n" * 100)
    write(os.path.join(ARCHIVES, "notes.txt.gz"), buf.getvalue())

    # Hostile names: markup, traversal, a terminal escape, invalid UTF-8 flagged as UTF-8 (patched in after writing).
    hostile = zip_bytes([
        ("<script>alert(1)</script>.txt", b"s"),
        ("../../etc/passwd", b"p"),
        ("ctrl\x1b[31mred.txt", b"c"),
        ("bad-\u00e9.txt", b"b"),  # non-ASCII, so zipfile sets the UTF-8 flag; then made invalid
    ])
    write(os.path.join(ARCHIVES, "hostile.zip"), patch_zip_name(hostile, "bad-\u00e9.txt".encode(), b"bad-\xff\xfe.txt"))


def ar_member(name, data):
    """One ar member: the 60-byte header (name as given, padded), the data, a newline to an even offset."""
    header = f"{name:<16}{MTIME:<12}{0:<6}{0:<6}{0o100644:<8o}{len(data):<10}".encode() + b"`\n"
    assert len(header) == 60
    return header + data + (b"\n" if len(data) % 2 else b"")


def tar_xz(members):
    return lzma.compress(tar_bytes(members), format=lzma.FORMAT_XZ)


def ar_archives():
    control = (b"Package: vignette-demo\nVersion: 1.2-3\nArchitecture: all\n"
               b"Maintainer: Vignette <vignette@example.org>\nInstalled-Size: 12\nSection: graphics\n"
               b"Priority: optional\nDepends: libc6 (>= 2.36)\n"
               b"Description: demonstration package for the ar listing\n"
               b" Its files are listed by Vignette's preview.\n .\n A second paragraph.\n")
    data = [("./", None), ("./usr/", None), ("./usr/bin/", None), ("./usr/bin/vignette-demo", b"#!/bin/sh\necho demo\n"),
            ("./usr/share/", None), ("./usr/share/doc/", None), ("./usr/share/doc/vignette-demo/", None),
            ("./usr/share/doc/vignette-demo/README", b"r" * 1500)]
    deb = (b"!<arch>\n" + ar_member("debian-binary", b"2.0\n")
           + ar_member("control.tar.xz", tar_xz([("./", None), ("./control", control)]))
           + ar_member("data.tar.xz", tar_xz(data)))
    write(os.path.join(ARCHIVES, "demo.deb"), deb)

    # GNU: a symbol table, the long-name table, a short name ("name/") and a long one ("/0").
    long_name = "a-member-with-a-long-name.o"
    lib = (b"!<arch>\n" + ar_member("/", b"\0\0\0\0") + ar_member("//", f"{long_name}/\n".encode())
           + ar_member("short.o/", b"s" * 7) + ar_member("/0", b"l" * 2048))
    write(os.path.join(ARCHIVES, "libdemo.a"), lib)
    # BSD: "#1/N", the name leading the data.
    bsd_name = b"a-long-bsd-member-name.o"
    write(os.path.join(ARCHIVES, "bsd-names.a"), b"!<arch>\n" + ar_member(f"#1/{len(bsd_name)}", bsd_name + b"b" * 100))
    # Cut inside the fourth header (the second file's).
    write(os.path.join(ARCHIVES, "truncated.a"), lib[: len(lib) - 2048 - 30])


def documents():
    jpeg = picture(160, 120, "JPEG", (200, 40, 40))
    png = picture(120, 160, "PNG", (40, 40, 200))
    content_types = b'<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'
    word = [("[Content_Types].xml", content_types), ("word/document.xml", b"<w:document/>")]
    write(os.path.join(DOCUMENTS, "thumbnail.docx"), zip_bytes(word + [("docProps/thumbnail.jpeg", jpeg)]))
    write(os.path.join(DOCUMENTS, "no-thumbnail.docx"), zip_bytes(word))
    sheet = [("[Content_Types].xml", content_types), ("xl/workbook.xml", b"<workbook/>")]
    write(os.path.join(DOCUMENTS, "metafile.xlsx"), zip_bytes(sheet + [("docProps/thumbnail.emf", b"\x01\x00\x00\x00emf")]))

    # Zip bombs: 40 MiB of zeros honestly declared (over the 32 MiB cap), and 1 MiB declared as 1,000 bytes.
    write(os.path.join(DOCUMENTS, "bomb.docx"), zip_bytes(word + [("docProps/thumbnail.jpeg", bytes(40 << 20))]))
    lying = zip_bytes(word + [("docProps/thumbnail.jpeg", bytes(1 << 20))])
    write(os.path.join(DOCUMENTS, "lying-bomb.docx"), patch_declared_size(lying, b"docProps/thumbnail.jpeg", 1000))

    container = (b'<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
                 b'<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>'
                 b'</rootfiles></container>')
    epub3 = (b'<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata/>'
             b'<manifest><item id="c" href="chapter.xhtml" media-type="application/xhtml+xml"/>'
             b'<item id="cov" href="images/cover%20art.png" media-type="image/png" properties="cover-image"/>'
             b'</manifest></package>')
    epub2 = (b'<?xml version="1.0"?><opf:package xmlns:opf="http://www.idpf.org/2007/opf" version="2.0"><opf:metadata>'
             b'<opf:meta name="cover" content="cover-id"/></opf:metadata><opf:manifest>'
             b'<opf:item id="cover-id" href="../Images/cover.jpg" media-type="image/jpeg"/></opf:manifest></opf:package>')
    mimetype = [("mimetype", b"application/epub+zip")]
    write(os.path.join(DOCUMENTS, "cover3.epub"), zip_bytes(
        mimetype + [("META-INF/container.xml", container), ("OEBPS/content.opf", epub3),
                    ("OEBPS/images/cover art.png", png)]))
    write(os.path.join(DOCUMENTS, "cover2.epub"), zip_bytes(
        mimetype + [("META-INF/container.xml", container), ("OEBPS/content.opf", epub2), ("Images/cover.jpg", jpeg)]))


if __name__ == "__main__":
    archives()
    ar_archives()
    documents()
