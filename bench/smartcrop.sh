#!/usr/bin/env bash
# Smart crop against libvips' attention crop on the 32 corpus photos: how much the windows agree.
#
#   bench/smartcrop.sh [SIZE]      default 256; needs the photo corpus (bench/make-corpus.sh),
#                                  libvips-tools, ImageMagick, numpy
#
# For each photo: `vignette thumbnail --crop smart -s SIZE` and `vipsthumbnail -s SIZExSIZE
# --smartcrop attention` each give a SIZE x SIZE window of the picture scaled to cover the box.
# Both windows are located in one covering image (ImageMagick `-resize SIZExSIZE^`) by the
# smallest mean squared difference along the axis the window slides on; their IoU (intersection
# over union) is printed, with the centred window's IoU against vips as the baseline. The issue's
# bar: IoU >= 0.5 on most photos.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
size=${1:-256}
corpus=${CORPUS_DIR:-$here/corpus}
bin=${VIGNETTE_BIN:-$here/../.build/release/vignette}
[[ -x $bin ]] || (cd "$here/.." && swift build -c release >/dev/null)
IM=/usr/bin/convert-im6.q16
command -v vipsthumbnail >/dev/null && [[ -x $IM ]] && python3 -c 'import numpy' ||
  { echo "needs libvips-tools, imagemagick, python3 numpy" >&2; exit 1; }
[[ -d $corpus/jpeg ]] || "$here/make-corpus.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$bin" "$size" "$work" "$IM" "$corpus"/jpeg/* <<'PY'
import os, statistics, subprocess, sys
import numpy as np

binary, size, work, im = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]

def rgb(path):
    w, h = map(int, subprocess.run([im, path, "-format", "%w %h", "info:"], check=True, capture_output=True, text=True).stdout.split())
    raw = subprocess.run([im, path, "-background", "white", "-flatten", "-depth", "8", "RGB:-"], check=True, capture_output=True).stdout
    return np.frombuffer(raw, dtype=np.uint8).reshape(h, w, 3).astype(np.float64)

def locate(cover, window):
    """The offset of window in cover along the axis where cover is longer (least mean squared difference)."""
    h, w = cover.shape[:2]
    if w > size:
        scores = [np.mean((cover[:size, x:x + size] - window) ** 2) for x in range(w - size + 1)]
    else:
        scores = [np.mean((cover[y:y + size, :size] - window) ** 2) for y in range(h - size + 1)]
    return int(np.argmin(scores)), max(w, h) - size

def iou(a, b):
    overlap = max(0, size - abs(a - b))
    return overlap / (2 * size - overlap)

rows = []
print(f"{'photo':40} {'slide':>5} {'vips':>5} {'ours':>5} {'IoU':>5} {'centre IoU':>10}")
for src in sys.argv[5:]:
    subprocess.run([im, src, "-auto-orient", "-resize", f"{size}x{size}^", f"{work}/cover.png"], check=True, stderr=subprocess.DEVNULL)
    subprocess.run([binary, "thumbnail", "--crop", "smart", "-s", str(size), "-o", f"{work}/ours.png", src], check=True)
    subprocess.run(["vipsthumbnail", src, "-s", f"{size}x{size}", "--smartcrop", "attention", "-o", f"{work}/vips.png"], check=True, stderr=subprocess.DEVNULL)
    cover = rgb(f"{work}/cover.png")
    ours, slide = locate(cover, rgb(f"{work}/ours.png"))
    vips, _ = locate(cover, rgb(f"{work}/vips.png"))
    centre = slide // 2
    rows.append((iou(ours, vips), iou(centre, vips), slide))
    print(f"{os.path.basename(src)[:40]:40} {slide:5d} {vips:5d} {ours:5d} {rows[-1][0]:5.2f} {rows[-1][1]:10.2f}")
ours_iou = [r[0] for r in rows]
centre_iou = [r[1] for r in rows]
print(f"smart vs vips attention: IoU >= 0.5 on {sum(x >= 0.5 for x in ours_iou)}/{len(rows)} photos, median IoU {statistics.median(ours_iou):.2f}")
print(f"centre vs vips attention (baseline): IoU >= 0.5 on {sum(x >= 0.5 for x in centre_iou)}/{len(rows)} photos, median IoU {statistics.median(centre_iou):.2f}")
PY
