#!/usr/bin/env python3
"""Adds an `irot` (rotation) property to the primary image of a HEIF/HEIC/AVIF file.

    heif-irot.py IN OUT ANGLE      ANGLE 0-3: 90 * ANGLE degrees anti-clockwise (3 = EXIF 6)

heif-enc (libheif 1.15) copies EXIF but writes no irot, while phones store rotation only as irot:
this makes such files from heif-enc's output. The property is appended to ipco, associated
(essential) with the primary item in ipma, and every iloc offset into data after the meta box
is moved by the bytes added.
"""
import struct
import sys


def boxes(data, start, end):
    """(type, box start, header size, box end) of each box in data[start:end]."""
    at = start
    while at + 8 <= end:
        size, kind = struct.unpack('>I4s', data[at:at + 8])
        header = 8
        if size == 1:
            size, header = struct.unpack('>Q', data[at + 8:at + 16])[0], 16
        elif size == 0:
            size = end - at
        yield kind.decode('latin-1'), at, header, at + size
        at += size


def child(data, parent, kind, skip=0):
    _, start, header, end = parent
    for box in boxes(data, start + header + skip, end):
        if box[0] == kind:
            return box
    raise SystemExit(f'heif-irot: no {kind} box')


def grow(data, box, by):
    """Adds `by` to a (32-bit sized) box's size field."""
    at = box[1]
    data[at:at + 4] = struct.pack('>I', struct.unpack('>I', data[at:at + 4])[0] + by)


def main():
    source, target, angle = sys.argv[1], sys.argv[2], int(sys.argv[3])
    data = bytearray(open(source, 'rb').read())
    meta = next(b for b in boxes(data, 0, len(data)) if b[0] == 'meta')
    pitm = child(data, meta, 'pitm', 4)
    primary = struct.unpack('>H' if data[pitm[1] + 8] == 0 else '>I', data[pitm[1] + 12:pitm[1] + (14 if data[pitm[1] + 8] == 0 else 16)])[0]
    iprp = child(data, meta, 'iprp', 4)
    ipco = child(data, iprp, 'ipco')
    index = len(list(boxes(data, ipco[1] + ipco[2], ipco[3]))) + 1
    irot = struct.pack('>I4sB', 9, b'irot', angle & 3)
    # ipma first (it follows ipco), so ipco's offsets stay valid.
    ipma = child(data, iprp, 'ipma')
    version, flags = data[ipma[1] + 8], struct.unpack('>I', data[ipma[1] + 8:ipma[1] + 12])[0] & 0xFFFFFF
    at = ipma[1] + 12
    count = struct.unpack('>I', data[at:at + 4])[0]
    at += 4
    wide = flags & 1
    added = 0
    for _ in range(count):
        item = struct.unpack('>H' if version < 1 else '>I', data[at:at + (2 if version < 1 else 4)])[0]
        at += 2 if version < 1 else 4
        n = data[at]
        if item == primary:
            data[at] = n + 1
            entry = struct.pack('>H', 0x8000 | index) if wide else bytes([0x80 | index])
            data[at + 1 + n * (2 if wide else 1):at + 1 + n * (2 if wide else 1)] = entry
            added = len(entry)
            break
        at += 1 + n * (2 if wide else 1)
    if not added:
        raise SystemExit('heif-irot: the primary item has no ipma entry')
    for box in (ipma, iprp, meta):
        grow(data, box, added)
    data[ipco[3]:ipco[3]] = irot
    for box in (ipco, iprp, meta):
        grow(data, box, len(irot))
    shift = added + len(irot)
    meta_end = meta[3] + shift
    meta = next(b for b in boxes(data, 0, len(data)) if b[0] == 'meta')
    iloc = child(data, meta, 'iloc', 4)
    at = iloc[1] + 8
    version = data[at]
    at += 4
    sizes = data[at] >> 4, data[at] & 15, data[at + 1] >> 4, data[at + 1] & 15
    offset_size, length_size, base_size, index_size = sizes[0], sizes[1], sizes[2], sizes[3] if version in (1, 2) else 0
    at += 2
    count = struct.unpack('>H' if version < 2 else '>I', data[at:at + (2 if version < 2 else 4)])[0]
    at += 2 if version < 2 else 4

    def field(n):
        return {0: None, 4: '>I', 8: '>Q'}[n]

    def patch(position, n):
        if n == 0:
            return
        value = struct.unpack(field(n), data[position:position + n])[0]
        if value >= meta_end - shift:
            data[position:position + n] = struct.pack(field(n), value + shift)

    for _ in range(count):
        at += 2 if version < 2 else 4
        method = 0
        if version in (1, 2):
            method = struct.unpack('>H', data[at:at + 2])[0] & 15
            at += 2
        at += 2  # data_reference_index
        base_at = at
        at += base_size
        extents = struct.unpack('>H', data[at:at + 2])[0]
        at += 2
        if method == 0 and base_size and struct.unpack(field(base_size), data[base_at:base_at + base_size])[0]:
            patch(base_at, base_size)
            at += extents * (index_size + offset_size + length_size)
            continue
        for _ in range(extents):
            at += index_size
            if method == 0:
                patch(at, offset_size)
            at += offset_size + length_size
    open(target, 'wb').write(data)


main()
