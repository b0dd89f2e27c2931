#!/usr/bin/env bash
# Thumbnail quality: PSNR of vignette's and vipsthumbnail's 256 px thumbnails against a
# reference made by a high-quality downscale of the full decode.
#
#   bench/quality.sh            (needs the corpus: bench/make-corpus.sh; vips + ImageMagick)
#
# Reference: ImageMagick decodes the whole image (no shrink-on-load hint) and resizes it with
# its Lanczos filter to exactly the output size of the thumbnail being judged
# (`convert IN -filter Lanczos -resize WxH! ref.png`), so each tool is judged at its own
# rounding of the size. PSNR is over RGB (`compare -metric PSNR`). Both tools write PNG, so no
# JPEG re-encoding loss enters the figure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
corpus=${CORPUS_DIR:-$here/corpus}
bin=${VIGNETTE_BIN:-$here/../.build/release/vignette}
[[ -x $bin ]] || (cd "$here/.." && swift build -c release >/dev/null)
IM=/usr/bin/convert-im6.q16
CMP=/usr/bin/compare-im6.q16
command -v vipsthumbnail >/dev/null && [[ -x $IM ]] || { echo "needs libvips-tools and imagemagick" >&2; exit 1; }
[[ -d $corpus/jpeg ]] || "$here/make-corpus.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

psnr() { "$CMP" -metric PSNR "$1" "$2" null: 2>&1 | awk '{print ($1=="inf")?99:$1}'; }
size() { "$IM" identify -format '%wx%h' "$1" 2>/dev/null || identify -format '%wx%h' "$1"; }

printf 'file\tvignette_size\tvignette_psnr\tvips_size\tvips_psnr\n' > "$work/q.tsv"
for f in "$corpus"/jpeg/* "$corpus"/png/*; do
  n=$(basename "$f")
  "$bin" thumbnail -s 256 -f png -o "$work/v.png" "$f" 2>/dev/null
  vipsthumbnail -s 256 -o "$work/s.png" "$f" 2>/dev/null
  vs=$(identify -format '%wx%h' "$work/v.png"); ss=$(identify -format '%wx%h' "$work/s.png")
  "$IM" "$f" -auto-orient -filter Lanczos -resize "${vs}!" "$work/rv.png"
  "$IM" "$f" -auto-orient -filter Lanczos -resize "${ss}!" "$work/rs.png"
  printf '%s\t%s\t%s\t%s\t%s\n' "$n" "$vs" "$(psnr "$work/v.png" "$work/rv.png")" "$ss" "$(psnr "$work/s.png" "$work/rs.png")" >> "$work/q.tsv"
done
python3 - "$work/q.tsv" <<'PY'
import csv, statistics as st, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter='\t'))
print("| file | vignette size | vignette PSNR dB | vips size | vips PSNR dB | difference dB |")
print("|---|---|---:|---|---:|---:|")
worse = 0
for r in rows:
    v, s = float(r['vignette_psnr']), float(r['vips_psnr'])
    if v < s - 1: worse += 1
    print(f"| {r['file']} | {r['vignette_size']} | {v:.2f} | {r['vips_size']} | {s:.2f} | {v - s:+.2f} |")
for kind in ('jpg', 'png'):
    sel = [r for r in rows if r['file'].endswith(kind)]
    dv = [float(r['vignette_psnr']) - float(r['vips_psnr']) for r in sel]
    print(f"\n{kind}: {len(sel)} images, mean vignette {st.mean(float(r['vignette_psnr']) for r in sel):.2f} dB, "
          f"mean vips {st.mean(float(r['vips_psnr']) for r in sel):.2f} dB, mean difference {st.mean(dv):+.2f} dB, worst {min(dv):+.2f} dB")
print(f"\nimages where vignette is more than 1 dB below vips: {worse} of {len(rows)}")
PY
