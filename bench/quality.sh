#!/usr/bin/env bash
# Thumbnail quality: PSNR of vignette's and vipsthumbnail's 256 px thumbnails against a
# high-quality reference downscale of the full decode, for every corpus photo.
#
#   bench/quality.sh             (needs the corpus: bench/make-corpus.sh; vips, ImageMagick, numpy)
#
# Reference (bench/tools/reference_downscale.py): the whole image decoded at full size by
# ImageMagick (`-auto-orient`, no shrink-on-load), then an exact separable Lanczos-3 in
# float64 on premultiplied alpha, rounded to nearest, at exactly the size of the thumbnail
# being judged (each tool at its own rounding of the size). Thumbnails are written as PNG
# (no JPEG loss enters the figure) and compared over RGB after flattening on white.
# Why not ImageMagick's own -resize as the reference: its 8-bit result is about half a level
# darker than the image it came from (integer truncation), which would reward tools that
# share that bias and penalise mean-preserving ones.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
corpus=${CORPUS_DIR:-$here/corpus}
bin=${VIGNETTE_BIN:-$here/../.build/release/vignette}
[[ -x $bin ]] || (cd "$here/.." && swift build -c release >/dev/null)
IM=/usr/bin/convert-im6.q16
command -v vipsthumbnail >/dev/null && [[ -x $IM ]] && python3 -c 'import numpy' || { echo "needs libvips-tools, imagemagick, python3-numpy" >&2; exit 1; }
[[ -d $corpus/jpeg ]] || "$here/make-corpus.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf 'file\ttool\tsize\tpsnr\n' > "$work/q.tsv"
for f in "$corpus"/jpeg/* "$corpus"/png/*; do
  n=$(basename "$f")
  read -r w h < <("$IM" "$f" -auto-orient -format '%w %h\n' info:)
  "$IM" "$f" -auto-orient -depth 8 "RGBA:$work/full.rgba"
  "$bin" thumbnail -s 256 -f png -o "$work/vignette.png" "$f" 2>/dev/null
  vipsthumbnail -s 256 -o "$work/vips.png" "$f" 2>/dev/null
  for tool in vignette vips; do
    read -r tw th < <("$IM" "$work/$tool.png" -format '%w %h\n' info:)
    python3 "$here/tools/reference_downscale.py" "$work/full.rgba" "$w" "$h" "$tw" "$th" "$work/ref.rgba"
    "$IM" "$work/$tool.png" -depth 8 "RGBA:$work/thumb.rgba"
    psnr=$(python3 - "$work/thumb.rgba" "$work/ref.rgba" <<'PY'
import sys, numpy as np
a, b = (np.fromfile(p, np.uint8).reshape(-1, 4).astype(float) for p in sys.argv[1:3])
flat = lambda x: x[:, :3] * (x[:, 3:] / 255) + 255 * (1 - x[:, 3:] / 255)
mse = ((flat(a) - flat(b)) ** 2).mean()
print(99.0 if mse == 0 else round(10 * np.log10(255 ** 2 / mse), 3))
PY
)
    printf '%s\t%s\t%sx%s\t%s\n' "$n" "$tool" "$tw" "$th" "$psnr" >> "$work/q.tsv"
  done
done
python3 - "$work/q.tsv" <<'PY'
import csv, statistics as st, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter='\t'))
by = {}
for r in rows: by.setdefault(r['file'], {})[r['tool']] = r
print("| file | vignette size | vignette PSNR dB | vips size | vips PSNR dB | difference dB |")
print("|---|---|---:|---|---:|---:|")
worse = 0
diffs = {'jpg': [], 'png': []}
for f, t in by.items():
    v, s = float(t['vignette']['psnr']), float(t['vips']['psnr'])
    worse += v < s - 1
    diffs['png' if f.endswith('png') else 'jpg'].append((v, s))
    print(f"| {f} | {t['vignette']['size']} | {v:.2f} | {t['vips']['size']} | {s:.2f} | {v - s:+.2f} |")
for k, vs in diffs.items():
    d = [v - s for v, s in vs]
    print(f"\n{k}: {len(vs)} images, mean vignette {st.mean(v for v, _ in vs):.2f} dB, mean vips {st.mean(s for _, s in vs):.2f} dB, "
          f"mean difference {st.mean(d):+.2f} dB, worst {min(d):+.2f} dB")
print(f"\nimages where vignette is more than 1 dB below vips: {worse} of {len(by)}")
PY
