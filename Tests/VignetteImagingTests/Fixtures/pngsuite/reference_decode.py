#!/usr/bin/env python3
"""Independent reference decode of PngSuite to 8-bit RGBA (standard library only, no libpng).

Writes reference-rgba.tsv: name, width, height, SHA-256 of the RGBA bytes. The transforms are
the ones Vignette documents: palette -> RGB, tRNS -> alpha, gray -> RGB, low bit depths scaled
to 8 bits, 16-bit samples reduced with libpng's png_set_scale_16 rounding, opaque alpha 255,
no gamma or colour correction. Files whose name starts with 'x' are corrupt and skipped.
"""
import hashlib, os, struct, sys, zlib

ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}

def chunks(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "bad signature"
    i = 8
    while i < len(data):
        n, = struct.unpack(">I", data[i:i + 4]); kind = data[i + 4:i + 8]
        body = data[i + 8:i + 8 + n]
        assert zlib.crc32(kind + body) == struct.unpack(">I", data[i + 8 + n:i + 12 + n])[0], "CRC"
        yield kind, body
        i += 12 + n

def paeth(a, b, c):
    p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)

def unfilter(raw, width, height, bpp_bits, pos):
    stride = (width * bpp_bits + 7) // 8; bpp = max(1, bpp_bits // 8)
    rows, prev = [], bytearray(stride)
    for _ in range(height):
        f = raw[pos]; line = bytearray(raw[pos + 1:pos + 1 + stride]); pos += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0; b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
            line[x] = (line[x] + (0, a, b, (a + b) // 2, paeth(a, b, c))[f]) & 255
        rows.append(line); prev = line
    return rows, pos

def samples(line, width, nch, depth):
    if depth == 8: return list(line[:width * nch])
    if depth == 16: return [line[2 * i] << 8 | line[2 * i + 1] for i in range(width * nch)]
    per = 8 // depth; mask = (1 << depth) - 1; out = []
    for i in range(width * nch):
        out.append(line[i // per] >> (8 - depth * (i % per + 1)) & mask)
    return out

def scale16(v):
    tmp = v >> 8; lo = v & 255
    return (tmp + (((lo - tmp + 128) * 65535) >> 24)) & 255

def decode(path):
    ihdr = plte = trns = None; idat = b""
    for kind, body in chunks(open(path, "rb").read()):
        if kind == b"IHDR": ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE": plte = body
        elif kind == b"tRNS": trns = body
        elif kind == b"IDAT": idat += body
    w, h, depth, ctype, _, _, interlace = ihdr
    nch = CHANNELS[ctype]; raw = zlib.decompress(idat)
    grid = [[None] * w for _ in range(h)]
    passes = ADAM7 if interlace else [(0, 0, 1, 1)]
    pos = 0
    for x0, y0, dx, dy in passes:
        pw = (w - x0 + dx - 1) // dx if w > x0 else 0; ph = (h - y0 + dy - 1) // dy if h > y0 else 0
        if pw == 0 or ph == 0: continue
        rows, pos = unfilter(raw, pw, ph, nch * depth, pos)
        for j, line in enumerate(rows):
            s = samples(line, pw, nch, depth)
            for i in range(pw):
                grid[y0 + j * dy][x0 + i * dx] = s[i * nch:(i + 1) * nch]
    maxv = (1 << depth) - 1
    to8 = (lambda v: scale16(v)) if depth == 16 else (lambda v: v * 255 // maxv)
    out = bytearray()
    for row in grid:
        for px in row:
            if ctype == 3:
                idx = px[0]; r, g, b = plte[3 * idx:3 * idx + 3]
                a = trns[idx] if trns is not None and idx < len(trns) else 255
            elif ctype == 0:
                r = g = b = to8(px[0])
                a = 0 if trns is not None and px[0] == struct.unpack(">H", trns[:2])[0] else 255
            elif ctype == 2:
                r, g, b = (to8(v) for v in px)
                a = 0 if trns is not None and tuple(px) == struct.unpack(">HHH", trns[:6]) else 255
            elif ctype == 4:
                r = g = b = to8(px[0]); a = to8(px[1])
            else:
                r, g, b, a = (to8(v) for v in px)
            out += bytes((r, g, b, a))
    return w, h, out

if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    names = sorted(n for n in os.listdir(here) if n.endswith(".png") and not n.startswith("x"))
    with open(os.path.join(here, "reference-rgba.tsv"), "w") as f:
        f.write("file\twidth\theight\tsha256_rgba\n")
        for n in names:
            w, h, rgba = decode(os.path.join(here, n))
            f.write(f"{n}\t{w}\t{h}\t{hashlib.sha256(rgba).hexdigest()}\n")
    print(f"{len(names)} reference decodes written")
