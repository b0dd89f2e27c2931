#!/usr/bin/env bash
# Encoder settings for WebP and AVIF thumbnails, swept without rebuilding Vignette (issue 19).
#
#   bench/encoder-sweep.sh [VARIANTS.json]    default bench/encoder-sweep.json; PHOTOS=N: only the first N photos,
#                                             ONLY=substring: only the variants whose name contains it, ROUNDS=N timing rounds (2)
#   needs the photo corpus (bench/make-corpus.sh), gcc, libheif-dev, libwebp-dev, ImageMagick, webp, libavif-bin, numpy, scipy
#
# The method is bench/output-formats.sh's: per photo, `vignette thumbnail -s 256` makes the lossless PNG (the
# reference) and the JPEG at q80; for each variant the lowest quality (1..100, bisection) whose luma SSIM against
# the reference is at least the JPEG's. The encoders are bench/tools/avif_sweep.c and webp_sweep.c, which with no
# options write byte for byte what Vignette writes; a variant adds options (see those files). "avifenc" variants
# run libavif's avifenc instead (quality q -> cq-level as libheif maps it). Per variant: median and mean bytes / JPEG
# bytes, photos under the issue's bar (WebP 0.6x, AVIF 0.5x), photos whose SSIM is no lower, the geometric mean of
# bytes / the format's first variant's bytes (the paired gain), and the encode time at the matched qualities against
# the first variant of the same tool (rounds interleaved; milliseconds measured inside the tool, REPS encodes each,
# so process start-up is left out; for avifenc the whole process).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
variants=${1:-$here/encoder-sweep.json}
corpus=${CORPUS_DIR:-$here/corpus}
bin=${VIGNETTE_BIN:-$here/../.build/release/vignette}
[[ -x $bin ]] || (cd "$here/.." && swift build -c release >/dev/null)
IM=/usr/bin/convert-im6.q16
command -v dwebp >/dev/null && command -v avifdec >/dev/null && [[ -x $IM ]] && python3 -c 'import numpy, scipy' ||
  { echo "needs webp, libavif-bin, imagemagick, python3 numpy and scipy" >&2; exit 1; }
[[ -d $corpus/jpeg ]] || "$here/make-corpus.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -O2 -I/usr/include/x86_64-linux-gnu -o "$work/avif_sweep" "$here/tools/avif_sweep.c" -lheif -lm
gcc -O2 -o "$work/webp_sweep" "$here/tools/webp_sweep.c" -lwebp
exec python3 "$here/tools/encoder_sweep.py" "$bin" "$work" "$IM" "$variants" "$corpus"/jpeg/*
