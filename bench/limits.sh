#!/usr/bin/env bash
# Hostile headers: a 65535 × 65535 PNG and JPEG must be refused fast and in little memory.
#
#   bench/limits.sh        prints, for each file, the exit status, the message, wall ms and peak RSS
#
# The files are made on the fly: a PNG whose IHDR says 65535 × 65535 (followed by a token
# IDAT), and a real JPEG whose SOF is patched to 65535 × 65535 (libjpeg refuses > 65500, so a
# 60000 × 60000 variant checks our own pixel cap too). Since issue 18 also the formats only
# external programs read (gdk-pixbuf-thumbnailer when installed): GIF (logical screen), BMP,
# TIFF, WebP (VP8X), ICO (a PNG entry), PSD and PNM headers of 65535 × 65535, refused from the
# header before any program runs. Since issue 13 (built-in decoders): AVIF/HEIF (ispe) and JPEG XL
# (size header) too. The targets: under 50 ms, under 50 MB RSS. Since issue 14, hostile documents
# (previewed): see the second table.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${VIGNETTE_BIN:-$here/../.build/release/vignette}
[[ -x $bin ]] || (cd "$here/.." && swift build -c release >/dev/null)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" "$here/../Samples/photo.jpg" "$here/../Tests/VignetteImagingTests/Fixtures/formats/other-images/hopper.avif" <<'PY'
import struct, sys, zlib
out, jpeg, avif = sys.argv[1], open(sys.argv[2], 'rb').read(), open(sys.argv[3], 'rb').read()
def chunk(t, b): return struct.pack('>I', len(b)) + t + b + struct.pack('>I', zlib.crc32(t + b))
png = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 65535, 65535, 8, 2, 0, 0, 0)) \
    + chunk(b'IDAT', zlib.compress(b'\x00' * 64)) + chunk(b'IEND', b'')
open(out + '/huge.png', 'wb').write(png)
def patch(w, h):
    d = bytearray(jpeg); i = 2
    while i < len(d):
        m = d[i + 1]; n = struct.unpack('>H', d[i + 2:i + 4])[0]
        if m in (0xC0, 0xC1, 0xC2):
            d[i + 5:i + 9] = struct.pack('>HH', h, w); return bytes(d)
        i += 2 + n
open(out + '/huge.jpg', 'wb').write(patch(65535, 65535))
open(out + '/big-60000.jpg', 'wb').write(patch(60000, 60000))
S = 65535
# GIF: the logical screen and a 1 x 1 first frame (the built-in decoder reads up to the first frame).
open(out + '/huge.gif', 'wb').write(b'GIF89a' + struct.pack('<HHBBB', S, S, 0, 0, 0)
    + bytes([0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0]) + b';')
open(out + '/huge.bmp', 'wb').write(b'BM' + struct.pack('<IHHI', 54, 0, 0, 54) + struct.pack('<IiiHHIIiiII', 40, S, S, 1, 24, 0, 0, 0, 0, 0, 0))
# TIFF: a complete 8-bit grey directory with one strip (libtiff checks StripOffsets before the size matters).
tags = [(256, 4, S), (257, 4, S), (258, 3, 8), (259, 3, 1), (262, 3, 1), (273, 4, 110), (278, 4, S), (279, 4, 64)]
open(out + '/huge.tif', 'wb').write(b'II*\x00' + struct.pack('<IH', 8, len(tags))
    + b''.join(struct.pack('<HHII', t, k, 1, v) for t, k, v in tags) + b'\x00' * 4 + b'\x00' * 64)
open(out + '/huge.webp', 'wb').write(b'RIFF' + struct.pack('<I', 22) + b'WEBPVP8X' + struct.pack('<I', 10) + b'\x00' * 4
    + (S - 1).to_bytes(3, 'little') + (S - 1).to_bytes(3, 'little'))
open(out + '/huge.ico', 'wb').write(struct.pack('<HHH', 0, 1, 1) + struct.pack('<BBBBHHII', 0, 0, 0, 0, 1, 32, len(png), 22) + png)
open(out + '/huge.psd', 'wb').write(b'8BPS' + struct.pack('>H', 1) + b'\x00' * 6 + struct.pack('>HIIHH', 3, S, S, 8, 3))
open(out + '/huge.ppm', 'wb').write(b'P6\n65535 65535\n255\n')
# Issue 13: AVIF with its ispe box patched (65535² is over libheif's own 32768 limit; 30000² is
# under it and over our cap), and a JPEG XL codestream whose size header says 65535 × 65535.
def ispe(side):
    d = bytearray(avif); i = d.find(b'ispe')
    d[i + 8:i + 16] = struct.pack('>II', side, side); return bytes(d)
open(out + '/huge.avif', 'wb').write(ispe(65535))
open(out + '/big-30000.avif', 'wb').write(ispe(30000))
bits, acc, n = [(0, 1), (2, 2), (65534, 18), (1, 3), (1, 1)], 0, 0  # div8 no, U32 selector 2, 18-bit height-1, ratio 1:1, all_default
for v, w in bits: acc |= v << n; n += w
open(out + '/huge.jxl', 'wb').write(b'\xff\x0a' + acc.to_bytes(12, 'little'))
PY
# Default: the refusal is a warning and the generic icon is drawn (as a file manager wants);
# --no-fallback: the refusal is the answer (exit 1), which is what the service sends as 422.
printf '| file | mode | exit | message | wall ms | peak RSS MB |\n|---|---|---:|---|---:|---:|\n'
for mode in default --no-fallback; do
for f in huge.png huge.jpg big-60000.jpg huge.gif huge.bmp huge.tif huge.webp huge.ico huge.psd huge.ppm huge.avif big-30000.avif huge.jxl; do
  best=999999; rss=0; msg=""; code=0
  flags=(); [[ $mode == default ]] || flags=("$mode")
  for i in 1 2 3 4 5; do
    s=$(date +%s%N)
    code=0
    /usr/bin/time -f '%M' -o "$work/rss" "$bin" thumbnail "${flags[@]}" "$work/$f" -o "$work/out.png" 2> "$work/err" || code=$?
    e=$(( ($(date +%s%N) - s) / 1000000 ))
    (( e < best )) && best=$e
    r=$(tail -1 "$work/rss"); (( r > rss )) && rss=$r
    msg=$({ grep -v '^Command exited' "$work/err" || true; } | head -1 | sed "s|$work/||")
  done
  printf '| %s | %s | %s | %s | %s | %s |\n' "$f" "$mode" "$code" "$msg" "$best" "$(( rss / 1024 ))"
done
done

# Issue 14: hostile documents, previewed (the preview reads them; thumbnails only draw page 1).
# A PDF of 100,000 real pages (only the first 10 are read) and one whose page tree declares
# 100,000 pages but holds 1. A 5-second MP4 cut to its first 30 % (its index, the moov atom, is at
# the end: FFmpeg finds none), made by Debian's ffmpeg when installed. Targets: a clear answer
# within 2 s and under 200 MB.
python3 - "$work" <<'PY'
import sys
out = sys.argv[1]
def pdf(pages, declared):
    stream = b"BT /F1 12 Tf 72 720 Td (the same page) Tj ET"
    kids = b" ".join(b"%d 0 R" % (i + 5) for i in range(pages))
    bodies = [b"<< /Type /Catalog /Pages 2 0 R >>",
              b"<< /Type /Pages /Kids [" + kids + b"] /Count %d /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> >>" % declared,
              b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
              b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream"]
    bodies += [b"<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>"] * pages
    data, offsets = bytearray(b"%PDF-1.4\n"), []
    for i, b in enumerate(bodies, 1):
        offsets.append(len(data)); data += b"%d 0 obj\n" % i + b + b"\nendobj\n"
    xref = len(data)
    data += b"xref\n0 %d\n0000000000 65535 f \n" % (len(bodies) + 1) + b"".join(b"%010d 00000 n \n" % o for o in offsets)
    data += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(bodies) + 1, xref)
    return bytes(data)
open(out + "/pages-100000.pdf", "wb").write(pdf(100000, 100000))
open(out + "/declares-100000.pdf", "wb").write(pdf(1, 100000))
PY
hostile=(pages-100000.pdf declares-100000.pdf)
if command -v ffmpeg >/dev/null; then
  ffmpeg -hide_banner -loglevel error -f lavfi -i testsrc=s=320x240:r=25:d=5 -f lavfi -i sine=d=5 -c:v mpeg4 -c:a aac "$work/whole.mp4"
  head -c $(( $(stat -c %s "$work/whole.mp4") * 3 / 10 )) "$work/whole.mp4" > "$work/truncated.mp4"
  hostile+=(truncated.mp4)
fi
printf '\n| file | exit | first line of the answer (stdout, else stderr) | wall ms | peak RSS MB |\n|---|---:|---|---:|---:|\n'
for f in "${hostile[@]}"; do
  best=999999; rss=0; code=0
  for i in 1 2 3; do
    s=$(date +%s%N)
    code=0
    /usr/bin/time -f '%M' -o "$work/rss" "$bin" preview "$work/$f" > "$work/out" 2> "$work/err" || code=$?
    e=$(( ($(date +%s%N) - s) / 1000000 ))
    (( e < best )) && best=$e
    r=$(tail -1 "$work/rss"); (( r > rss )) && rss=$r
  done
  first=$({ grep -v '^Command exited' "$work/err" || true; } | head -1 | sed "s|$work/||")
  [[ -n $first ]] || first=$(head -1 "$work/out")
  printf '| %s | %s | %s | %s | %s |\n' "$f" "$code" "$first" "$best" "$(( rss / 1024 ))"
done
