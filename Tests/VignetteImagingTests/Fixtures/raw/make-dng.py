# make-dng.py OUT.dng ORIENTATION [noprev [WxH]] - how the eos30d-*.dng fixtures were made (see SOURCE.md).
# Inputs in the working directory: cfa.bin = 16-bit little-endian CFA samples (LibRaw's
# rawdata.raw_image of IMG_5952.CR2, rows 800..1599, columns 1200..2399), prev.rgb = 8-bit RGB
# (the CR2's embedded JPEG preview resized by ImageMagick: `convert preview.jpg -resize 240x160
# -depth 8 rgb:prev.rgb`). The tiny variant used W, H = 64, 64 (the first 64 rows/columns of the
# crop) and PW, PH = 32, 21 (`-resize 32x21!`).
# Builds a small DNG: IFD0 = 8-bit RGB uncompressed preview (NewSubfileType 1), SubIFD = 16-bit CFA raw
# (a 1200x800 crop of the Canon EOS 30D raw data of IMG_5952.CR2, RGGB, black 127, white 4095).
import struct, sys
orient = int(sys.argv[2]) if len(sys.argv) > 2 else 1
preview_only = len(sys.argv) > 3 and sys.argv[3] == 'noprev'
cfa = open('cfa.bin', 'rb').read(); W, H = 1200, 800
if len(sys.argv) > 4: W, H = map(int, sys.argv[4].split('x'))  # a smaller crop in cfa.bin (WxH)
prev = open('prev.rgb', 'rb').read(); PW, PH = 240, 160
SHORT, LONG, RATIONAL, SRATIONAL, ASCII, BYTE = 3, 4, 5, 10, 2, 1
out = bytearray(b'II*\x00\x00\x00\x00\x00')
def align():
    while len(out) % 2: out.append(0)
def blob(b):
    align(); off = len(out); out.extend(b); return off
def ifd(entries, next_off=0):
    # entries: (tag, type, count, payload bytes)
    entries = sorted(entries)
    align(); off = len(out)
    size = 2 + 12 * len(entries) + 4
    out.extend(b'\x00' * size)
    ext = []
    p = off + 2
    struct.pack_into('<H', out, off, len(entries))
    for tag, typ, count, payload in entries:
        if len(payload) <= 4:
            struct.pack_into('<HHI', out, p, tag, typ, count); out[p+8:p+8+len(payload)] = payload.ljust(4, b'\x00')
        else:
            ext.append((p, tag, typ, count, payload))
        p += 12
    nxt = p
    for p, tag, typ, count, payload in ext:
        o = blob(payload); struct.pack_into('<HHII', out, p, tag, typ, count, o)
    struct.pack_into('<I', out, nxt, next_off)
    return off
def s(*v): return struct.pack('<%dH' % len(v), *v)
def l(*v): return struct.pack('<%dI' % len(v), *v)
def r(*v):  # rationals from floats
    b = b''
    for x in v: b += struct.pack('<ii', int(round(x * 10000)), 10000)
    return b
def a(t): t = t.encode() + b'\x00'; return t
cfa_off = blob(cfa); prev_off = blob(prev)
raw_ifd = ifd([(254, LONG, 1, l(0)), (256, LONG, 1, l(W)), (257, LONG, 1, l(H)), (258, SHORT, 1, s(16)), (259, SHORT, 1, s(1)),
    (262, SHORT, 1, s(32803)), (273, LONG, 1, l(cfa_off)), (277, SHORT, 1, s(1)), (278, LONG, 1, l(H)), (279, LONG, 1, l(len(cfa))),
    (284, SHORT, 1, s(1)), (33421, SHORT, 2, s(2, 2)), (33422, BYTE, 4, bytes([0, 1, 1, 2])), (50714, LONG, 1, l(127)), (50717, LONG, 1, l(4095))])
e0 = [(254, LONG, 1, l(1)), (256, LONG, 1, l(PW)), (257, LONG, 1, l(PH)), (258, SHORT, 3, s(8, 8, 8)), (259, SHORT, 1, s(1)),
    (262, SHORT, 1, s(2)), (271, ASCII, 6, a('Canon')), (272, ASCII, 14, a('Canon EOS 30D')), (273, LONG, 1, l(prev_off)), (274, SHORT, 1, s(orient)),
    (277, SHORT, 1, s(3)), (278, LONG, 1, l(PH)), (279, LONG, 1, l(len(prev))), (284, SHORT, 1, s(1)), (330, LONG, 1, l(raw_ifd)),
    (50706, BYTE, 4, bytes([1, 4, 0, 0])), (50707, BYTE, 4, bytes([1, 1, 0, 0])), (50708, ASCII, 14, a('Canon EOS 30D')),
    (50721, SRATIONAL, 9, r(0.6939, -0.1004, -0.0710, -0.4854, 1.2375, 0.2674, -0.0929, 0.1768, 0.7257)), (50778, SHORT, 1, s(21))]
if preview_only:
    e0 = [e for e in e0 if e[0] not in (273, 279)]
i0 = ifd(e0)
struct.pack_into('<I', out, 4, i0)
open(sys.argv[1], 'wb').write(out)
