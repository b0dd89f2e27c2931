#!/usr/bin/env bash
# WebP and AVIF thumbnails against JPEG q80 at matched quality: bytes and SSIM.
#
#   bench/output-formats.sh [SIZE]      default 256 (PHOTOS=N: only the first N); needs the photo corpus (bench/make-corpus.sh),
#                                       ImageMagick, webp (dwebp), libavif-bin (avifdec), numpy
#   METRIC=rgb|ycbcr bench/output-formats.sh    SSIM of the colours too: the mean of R, G and B's, or of Y, Cb
#                                       and Cr's weighted 4:1:1 (as ffmpeg's ssim filter weighs 4:2:0 planes)
#
# For each of the 32 corpus photos, `vignette thumbnail -s SIZE` makes a PNG (the reference:
# the same pixels before any lossy step), a JPEG at quality 80, and WebP and AVIF at the
# qualities the search below asks for. SSIM (luma, 11x11 Gaussian window, sigma 1.5; the usual constants) is
# measured against the reference (METRIC chooses the colour variants above). "Matched quality" is the lowest WebP (AVIF) quality whose SSIM
# is at least the JPEG's (found by bisection over 1..100); its bytes are compared with the JPEG's. Prints one row a photo and the
# median and mean ratios; the issue's bar is WebP <= 0.6x and AVIF <= 0.5x the JPEG bytes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
size=${1:-256}
corpus=${CORPUS_DIR:-$here/corpus}
bin=${VIGNETTE_BIN:-$here/../.build/release/vignette}
[[ -x $bin ]] || (cd "$here/.." && swift build -c release >/dev/null)
IM=/usr/bin/convert-im6.q16
command -v dwebp >/dev/null && command -v avifdec >/dev/null && [[ -x $IM ]] && python3 -c 'import numpy' ||
  { echo "needs webp, libavif-bin, imagemagick, python3 numpy" >&2; exit 1; }
[[ -d $corpus/jpeg ]] || "$here/make-corpus.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$bin" "$size" "$work" "$IM" "$corpus"/jpeg/* <<'PY'
import os, statistics, subprocess, sys
import numpy as np

binary, size, work, im = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
METRIC = os.environ.get("METRIC", "luma")
if METRIC not in ("luma", "rgb", "ycbcr"):
    sys.exit(f"METRIC must be luma, rgb or ycbcr, not {METRIC}")
photos = sys.argv[5:]
WEBP = [1, 100]
AVIF = [1, 100]
if os.environ.get("PHOTOS"):
    photos = photos[: int(os.environ["PHOTOS"])]

def thumb(src, fmt, quality=None):
    out = f"{work}/t.{fmt}"
    args = [binary, "thumbnail", "-s", size, "-f", fmt, "-o", out, src]
    if quality is not None:
        args[2:2] = ["-q", str(quality)]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    return out

def pixels(path):
    if path.endswith(".webp"):
        subprocess.run(["dwebp", "-quiet", path, "-ppm", "-o", f"{work}/d.ppm"], check=True)
        path = f"{work}/d.ppm"
    elif path.endswith(".avif"):
        subprocess.run(["avifdec", path, f"{work}/d.png"], check=True, stdout=subprocess.DEVNULL)
        path = f"{work}/d.png"
    info = subprocess.run([im, path, "-format", "%w %h", "info:"], check=True, capture_output=True, text=True).stdout.split()
    w, h = int(info[0]), int(info[1])
    raw = subprocess.run([im, path, "-background", "white", "-flatten", "-depth", "8", "RGB:-"], check=True, capture_output=True).stdout
    rgb = np.frombuffer(raw, dtype=np.uint8).reshape(h, w, 3).astype(np.float64)
    if METRIC == "rgb":
        return [rgb[..., i] for i in range(3)]
    y = rgb @ np.array([0.299, 0.587, 0.114])
    if METRIC == "luma":
        return [y]
    return [y, 128 + rgb @ np.array([-0.168736, -0.331264, 0.5]), 128 + rgb @ np.array([0.5, -0.418688, -0.081312])]

def blur(a, kernel):
    pad = len(kernel) // 2
    a = np.pad(a, pad, mode="reflect")
    a = np.apply_along_axis(lambda r: np.convolve(r, kernel, mode="valid"), 1, a)
    return np.apply_along_axis(lambda c: np.convolve(c, kernel, mode="valid"), 0, a)

x = np.arange(11) - 5
KERNEL = np.exp(-(x ** 2) / (2 * 1.5 ** 2))
KERNEL /= KERNEL.sum()

def ssim(a, b):
    """SSIM of two images' planes (pixels()), combined as METRIC says."""
    s = [plane_ssim(p, q) for p, q in zip(a, b)]
    return s[0] if METRIC == "luma" else sum(s) / 3 if METRIC == "rgb" else (4 * s[0] + s[1] + s[2]) / 6

def plane_ssim(a, b):
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    ma, mb = blur(a, KERNEL), blur(b, KERNEL)
    va = blur(a * a, KERNEL) - ma * ma
    vb = blur(b * b, KERNEL) - mb * mb
    cov = blur(a * b, KERNEL) - ma * mb
    s = ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2))
    return float(s.mean())

def matched(src, ref, fmt, ladder, target):
    """The lowest quality in ladder[0]..ladder[-1] whose SSIM reaches target (bisection: SSIM grows with quality)."""
    lo, hi = ladder[0], ladder[-1]
    best = None
    while lo <= hi:
        q = (lo + hi) // 2
        path = thumb(src, fmt, q)
        s = ssim(ref, pixels(path))
        if s >= target:
            best = (q, os.path.getsize(path), s)
            hi = q - 1
        else:
            lo = q + 1
    if best is None:
        path = thumb(src, fmt, ladder[-1])
        best = (ladder[-1], os.path.getsize(path), ssim(ref, pixels(path)))
    return best

rows = []
print(f"{'photo':40} {'jpeg B':>7} {'ssim':>6} | {'webp q':>6} {'B':>6} {'x':>5} | {'avif q':>6} {'B':>6} {'x':>5}")
for src in photos:
    ref = pixels(thumb(src, "png"))
    jpeg = thumb(src, "jpeg", 80)
    jb, js = os.path.getsize(jpeg), ssim(ref, pixels(jpeg))
    wq, wb, ws = matched(src, ref, "webp", WEBP, js)
    aq, ab, as_ = matched(src, ref, "avif", AVIF, js)
    rows.append((wb / jb, ab / jb, ws >= js, as_ >= js))
    name = os.path.basename(src)[:40]
    print(f"{name:40} {jb:7d} {js:6.4f} | {wq:6d} {wb:6d} {wb/jb:5.2f} | {aq:6d} {ab:6d} {ab/jb:5.2f}")
w = [r[0] for r in rows]
a = [r[1] for r in rows]
print(f"SSIM: {METRIC}")
print(f"WebP bytes / JPEG q80 bytes at SSIM no lower: median {statistics.median(w):.2f}x, mean {statistics.mean(w):.2f}x, "
      f"{sum(x <= 0.6 for x in w)}/{len(w)} photos <= 0.6x, SSIM matched on {sum(r[2] for r in rows)}/{len(rows)}")
print(f"AVIF bytes / JPEG q80 bytes at SSIM no lower: median {statistics.median(a):.2f}x, mean {statistics.mean(a):.2f}x, "
      f"{sum(x <= 0.5 for x in a)}/{len(a)} photos <= 0.5x, SSIM matched on {sum(r[3] for r in rows)}/{len(rows)}")
PY
