#!/usr/bin/env python3
"""Renders a Vignette example palette (.palette) as a PNG swatch strip or an HTML table.

    palette-render.py thumbnail INPUT OUTPUT SIZE   PNG at most SIZE pixels wide
    palette-render.py html INPUT                    HTML fragment on stdout

Format: a first line "VIGNETTE-PALETTE 1", then one colour per line, "RRGGBB name";
blank lines and lines starting with '#' are ignored. Standard library only.
"""
import html
import struct
import sys
import zlib

MAX_COLOURS = 256


def read_palette(path):
    with open(path, "rb") as f:
        data = f.read(1 << 20)
    lines = data.decode("utf-8", "replace").splitlines()
    if not lines or not lines[0].startswith("VIGNETTE-PALETTE 1"):
        sys.exit("not a palette: the first line must be 'VIGNETTE-PALETTE 1'")
    colours = []
    for number, line in enumerate(lines[1:], start=2):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        hex_part, _, name = line.partition(" ")
        if len(hex_part) != 6:
            sys.exit(f"line {number}: expected RRGGBB, got {hex_part!r}")
        try:
            rgb = bytes.fromhex(hex_part)
        except ValueError:
            sys.exit(f"line {number}: {hex_part!r} is not hexadecimal")
        colours.append((rgb, name.strip()))
        if len(colours) > MAX_COLOURS:
            sys.exit(f"more than {MAX_COLOURS} colours")
    if not colours:
        sys.exit("the palette has no colours")
    return colours


def png(width, height, rows):
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + row for row in rows)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def thumbnail(path, output, size):
    colours = read_palette(path)
    size = max(8, min(int(size), 2048))
    width, height = size, max(1, size * 3 // 4)
    row = bytearray()
    for x in range(width):
        row += colours[x * len(colours) // width][0]
    with open(output, "wb") as f:
        f.write(png(width, height, [bytes(row)] * height))


def table(path):
    colours = read_palette(path)
    print('<table class="palette">')
    for rgb, name in colours:
        code = rgb.hex()
        print(f'<tr><td style="background:#{code};width:4em"></td><td><code>#{code}</code></td><td>{html.escape(name)}</td></tr>')
    print("</table>")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "thumbnail":
        thumbnail(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) == 3 and sys.argv[1] == "html":
        table(sys.argv[2])
    else:
        sys.exit(__doc__)
