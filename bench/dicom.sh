#!/usr/bin/env bash
# DICOM thumbnails against dcmtk's dcmj2pnm, the tool Linux users convert DICOM with, 256 px, same run:
#
# The 32 benchmark photos (bench/corpus/jpeg, from bench/make-corpus.sh) as radiograph-sized grey
# DICOM (12 bits stored in 16, as CR/DX detectors write: ImageMagick's 16-bit PGM divided by 16,
# made a DICOM file by GDCM's gdcmimg, then dcmtk's dcmconv/dcmcjpeg), in two transfer syntaxes:
#   native    explicit VR little-endian (dcmconv +te)
#   lossless  JPEG lossless, first-order prediction (dcmcjpeg +e1: the commonest compressed syntax)
# `vignette batch --out DIR --size 256 --format png -j 2` against `dcmj2pnm +Wm +Sxv 256 +on` (the
# values' range as the window, as Vignette shows a file without one; 256 pixels wide) run as 2
# processes (xargs -P2), PNG out on both sides. Peak RSS is GNU time's %M (the largest single process);
# inputs are in the page cache (a `cat` warm-up precedes each timing); outputs go to /dev/shm; each
# side is timed REPEAT times (3 by default), alternating, and the medians compared.
#
#   bench/dicom.sh            (a release build of vignette is made if missing)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${CORPUS_DIR:-$here/corpus}/jpeg
corpus=${CORPUS_DIR:-$here/corpus}/formats/dicom
vignette=${VIGNETTE_BIN:-$here/../.build/release/vignette}
out=${OUTROOT:-/dev/shm/dicom-bench}
repeat=${REPEAT:-3}
[[ -d $src ]] || { echo "dicom.sh: no $src (run bench/make-corpus.sh first)" >&2; exit 1; }
for tool in convert gdcmimg dcmconv dcmcjpeg dcmj2pnm /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "dicom.sh: $tool is missing (scripts/install-deps.sh --test)" >&2; exit 1; }
done
[[ -x $vignette ]] || (cd "$here/.." && swift build -c release >/dev/null)
mkdir -p "$corpus"/{native,lossless}
for photo in "$src"/*.jpg; do
    name=$(basename "${photo%.*}")
    [[ -s $corpus/lossless/$name.dcm ]] && continue
    convert "$photo" -colorspace gray -depth 16 -evaluate divide 16 "/dev/shm/$name.pgm"
    gdcmimg "/dev/shm/$name.pgm" "/dev/shm/$name.dcm"
    dcmconv +te "/dev/shm/$name.dcm" "$corpus/native/$name.dcm"
    dcmcjpeg +e1 "$corpus/native/$name.dcm" "$corpus/lossless/$name.dcm"
    rm -f "/dev/shm/$name.pgm" "/dev/shm/$name.dcm"
done
rm -rf "$out"; mkdir -p "$out"
echo "# host: $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg); $(git -C "$here/.." rev-parse --short HEAD)"

# shellcheck source=bench/timing.sh
source "$here/timing.sh"

echo "| set | files | vignette thumbnails | vignette wall | vignette RSS | dcmj2pnm thumbnails | dcmj2pnm wall | dcmj2pnm RSS | ratio |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for set in native lossless; do
    in=$corpus/$set
    mine="rm -rf '$out/vignette.$set' && '$vignette' batch --no-system-thumbnailers --out '$out/vignette.$set' --size 256 --format png -j 2 '$in'"
    theirs="rm -rf '$out/dcmtk.$set' && mkdir -p '$out/dcmtk.$set' && cd '$in' && ls | xargs -P2 -I{} dcmj2pnm +Wm +Sxv 256 +on {} '$out/dcmtk.$set/{}.png'"
    ws="" pws="" r=0 pr=0
    for ((i = 0; i < repeat; i++)); do
        find "$in" -type f -exec cat {} + >/dev/null
        read -r w1 r1 < <(timed "vignette.$set" "$mine")
        ws+=" $w1"
        ((r1 > r)) && r=$r1
        find "$in" -type f -exec cat {} + >/dev/null
        read -r w1 r1 < <(timed "dcmtk.$set" "$theirs")
        pws+=" $w1"
        ((r1 > pr)) && pr=$r1
    done
    w=$(tr ' ' '\n' <<<"${ws# }" | median)
    pw=$(tr ' ' '\n' <<<"${pws# }" | median)
    printf '| %s | %d | %d | %.2f s | %d MB | %d | %.2f s | %d MB | **%.2f×** |\n' "$set" "$(find "$in" -type f | wc -l)" \
        "$(find "$out/vignette.$set" -type f | wc -l)" "$w" "$r" "$(find "$out/dcmtk.$set" -type f | wc -l)" "$pw" "$pr" \
        "$(awk -v a="$w" -v b="$pw" 'BEGIN{print a/b}')"
done
