#!/usr/bin/env python3
"""Writes scaled-tiff/*.tif: small TIFFs of floating-point and signed samples, with the pixels the
tests expect in their names' comments below. Plain strips are written here byte by byte; the tiled
and compressed copy is made from one of them by libtiff's tiffcp (libtiff-tools).

Run from this folder: python3 make-scaled-tiffs.py
"""
import math
import struct
import subprocess

SHORT, LONG, ASCII = 3, 4, 2


def tiff(path, width, height, samples, fmt, bits, photometric, values, nodata=None):
    """A little-endian TIFF, one strip, `values` row by row (`samples` per pixel), packed as `fmt`."""
    data = b"".join(struct.pack("<" + fmt, v) for v in values)
    assert len(data) == width * height * samples * bits // 8
    sample_format = {"f": 3, "d": 3, "e": 3, "b": 2, "h": 2, "i": 2}[fmt]
    entries = [
        (256, LONG, [width]), (257, LONG, [height]), (258, SHORT, [bits] * samples), (259, SHORT, [1]),
        (262, SHORT, [photometric]), (273, LONG, [0]), (277, SHORT, [samples]), (278, LONG, [height]),
        (279, LONG, [len(data)]), (284, SHORT, [1]), (339, SHORT, [sample_format] * samples),
    ]
    if samples in (2, 4):
        entries.append((338, SHORT, [2]))  # unassociated alpha
    if nodata is not None:
        entries.append((42113, ASCII, nodata.encode() + b"\0"))
    entries.sort()
    ifd_offset = 8
    ifd_size = 2 + 12 * len(entries) + 4
    extra = b""
    extra_offset = ifd_offset + ifd_size
    data_offset = None
    packed = []
    for tag, kind, value in entries:
        raw = value if kind == ASCII else b"".join(struct.pack("<H" if kind == SHORT else "<I", v) for v in value)
        packed.append([tag, kind, len(value), raw])
    # The strip goes after the out-of-line values; its offset is known once they are laid out.
    for entry in packed:
        if len(entry[3]) > 4:
            entry.append(extra_offset + len(extra))
            extra += entry[3] + (b"\0" if len(entry[3]) % 2 else b"")
    data_offset = extra_offset + len(extra)
    for entry in packed:
        if entry[0] == 273:
            entry[3] = struct.pack("<I", data_offset)
    out = b"II*\0" + struct.pack("<I", ifd_offset) + struct.pack("<H", len(packed))
    for entry in packed:
        tag, kind, count, raw = entry[:4]
        field = struct.pack("<I", entry[4]) if len(raw) > 4 else raw.ljust(4, b"\0")
        out += struct.pack("<HHI", tag, kind, count) + field
    out += struct.pack("<I", 0) + extra + data
    with open(path, "wb") as f:
        f.write(out)


# 0, 0.25, 0.5, 1: the values of a float picture within [0, 1] are kept: 0, 64, 128, 255.
tiff("scaled-tiff/float32-unit.tif", 4, 1, 1, "f", 32, 1, [0.0, 0.25, 0.5, 1.0])
# An elevation model from 100 to 1100 m with GDAL's no-data value -9999: 0, 128, 255, transparent.
tiff("scaled-tiff/dem-int16-nodata.tif", 4, 2, 1, "h", 16, 1, [100, 600, 1100, -9999, 1100, 600, 100, -9999], nodata="-9999")
# Signed 8-bit from -128 to 127: 0 and 255.
tiff("scaled-tiff/int8.tif", 2, 1, 1, "b", 8, 1, [-128, 127])
# Half floats, RGB: pure red, then (0, 0.5, 1).
tiff("scaled-tiff/float16-rgb.tif", 2, 1, 3, "e", 16, 2, [1.0, 0.0, 0.0, 0.0, 0.5, 1.0])
# Doubles, min-is-white: 0 is white, 1 black.
tiff("scaled-tiff/float64-miniswhite.tif", 2, 1, 1, "d", 64, 0, [0.0, 1.0])
# Grey and alpha floats: opaque mid grey, then a half-transparent white.
tiff("scaled-tiff/float32-grey-alpha.tif", 2, 1, 2, "f", 32, 1, [0.5, 1.0, 1.0, 0.5])
# A 40x20 ramp, value 10x + y (0 to 409), NaN at (3, 2): stretched from 0 to 409, NaN transparent;
# then tiled 16x16 and deflated with the floating-point predictor.
ramp = [math.nan if (x, y) == (3, 2) else float(10 * x + y) for y in range(20) for x in range(40)]
tiff("scaled-tiff/ramp-strip.tif", 40, 20, 1, "f", 32, 1, ramp)
subprocess.run(["tiffcp", "-c", "zip:3", "-t", "-w", "16", "-l", "16", "scaled-tiff/ramp-strip.tif",
                "scaled-tiff/ramp-tiled-deflate.tif"], check=True)
