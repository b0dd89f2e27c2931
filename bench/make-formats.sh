#!/usr/bin/env bash
# Re-encodes the 32 benchmark photos (bench/corpus/jpeg, from bench/make-corpus.sh) into every
# format the built-in image generator reads, with Debian's own encoders:
#   corpus/formats/webp/  cwebp -q 80                      (libwebp)
#   corpus/formats/heic/  heif-enc -q 60 -t 320            (libheif + x265; with a 320 px thumbnail)
#   corpus/formats/avif/  avifenc -s 8 --min 20 --max 30   (libavif + aom)
#   corpus/formats/jxl/   cjxl -d 1 -e 3 (lossy, not the JPEG recompression)
#   corpus/formats/tiff/  ImageMagick -compress lzw (strips), every second file tiled JPEG (vips)
#   corpus/formats/gif/   ImageMagick, 256 colours
#   corpus/formats/jp2/   opj_compress -r 20 (OpenJPEG: 20:1, six resolution levels, 1024-pixel tiles)
#   corpus/formats/hdr/   ImageMagick, the photo's linear light as run-length coded Radiance RGBE
#   corpus/formats/fits/  ImageMagick, the photo's grey as 16-bit FITS (BITPIX 16, as cameras on telescopes write)
#   corpus/formats/dpx/   ImageMagick, 10-bit RGB DPX (filled words, as film scanners write)
# and corpus/formats/oriented/: a photo with EXIF orientation 6 (JPEG), and the same photo as
# HEIC (irot added by tools/heif-irot.py), AVIF (avifenc --irot), JPEG XL (orientation in the
# codestream) and TIFF (Orientation tag), each of which must come out portrait.
#
#   bench/make-formats.sh [--force]     (needs bench/corpus; install the encoders with
#                                        scripts/install-deps.sh --test)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${CORPUS_DIR:-$here/corpus}/jpeg
out=${CORPUS_DIR:-$here/corpus}/formats
[[ -d $src ]] || { echo "make-formats: no $src (run bench/make-corpus.sh first)" >&2; exit 1; }
if [[ ${1:-} == --force ]]; then rm -rf "$out"; fi
for tool in cwebp heif-enc avifenc cjxl opj_compress convert vips exiftool; do
    command -v "$tool" >/dev/null || { echo "make-formats: $tool is missing (scripts/install-deps.sh --test)" >&2; exit 1; }
done
mkdir -p "$out"/{webp,heic,avif,jxl,tiff,gif,jp2,hdr,fits,dpx,oriented}

encode() { # format input
    local fmt=$1 in=$2 name
    name=$(basename "${in%.*}")
    case $fmt in
    webp) [[ -s $out/webp/$name.webp ]] || cwebp -quiet -q 80 "$in" -o "$out/webp/$name.webp" ;;
    heic) [[ -s $out/heic/$name.heic ]] || heif-enc -q 60 -t 320 "$in" -o "$out/heic/$name.heic" >/dev/null ;;
    avif) [[ -s $out/avif/$name.avif ]] || avifenc -s 8 -j 1 --min 20 --max 30 "$in" "$out/avif/$name.avif" >/dev/null ;;
    jxl) [[ -s $out/jxl/$name.jxl ]] || cjxl -d 1 -e 3 --lossless_jpeg=0 --quiet "$in" "$out/jxl/$name.jxl" 2>/dev/null ;;
    tiff)
        [[ -s $out/tiff/$name.tif ]] && return
        if (($(cksum <<<"$name" | cut -d' ' -f1) % 2)); then
            vips tiffsave "$in" "$out/tiff/$name.tif" --tile --compression jpeg --Q 85
        else
            convert "$in" -compress lzw "$out/tiff/$name.tif"
        fi ;;
    gif) [[ -s $out/gif/$name.gif ]] || convert "$in" -colors 256 "$out/gif/$name.gif" ;;
    # opj_compress reads no JPEG: through a PPM (tiles keep its memory and vips' reasonable)
    jp2)
        [[ -s $out/jp2/$name.jp2 ]] && return
        convert "$in" "/dev/shm/$name.ppm" && opj_compress -i "/dev/shm/$name.ppm" -o "$out/jp2/$name.jp2" -r 20 -n 6 -t 1024,1024 >/dev/null
        rm -f "/dev/shm/$name.ppm" ;;
    hdr) [[ -s $out/hdr/$name.hdr ]] || convert "$in" -colorspace RGB "$out/hdr/$name.hdr" ;;
    fits) [[ -s $out/fits/$name.fits ]] || convert "$in" -colorspace gray -depth 16 "$out/fits/$name.fits" ;;
    dpx) [[ -s $out/dpx/$name.dpx ]] || convert "$in" -depth 10 "$out/dpx/$name.dpx" ;;
    esac
}
export -f encode
export out
for fmt in ${FORMATS:-webp heic avif jxl tiff gif jp2 hdr fits dpx}; do # FORMATS="jp2": only those
    echo "make-formats: $fmt" >&2
    ls "$src"/*.jpg | xargs -P 2 -I{} bash -c 'encode "$0" "$1"' "$fmt" {}
done

# Orientation: the photo stored landscape with "rotate 90° clockwise to view" in each format's own way.
o=$out/oriented
first=$(ls "$src"/*.jpg | head -1)
convert "$first" -resize 1200x1200 -strip "$o/base.jpg"
cp "$o/base.jpg" "$o/exif6.jpg" && exiftool -q -overwrite_original -Orientation=6 -n "$o/exif6.jpg"
# heif-enc copies EXIF but writes no irot (phones write irot and no EXIF rotation): add one.
heif-enc -q 60 "$o/base.jpg" -o "$o/plain.heic" >/dev/null && python3 "$here/tools/heif-irot.py" "$o/plain.heic" "$o/irot.heic" 3 && rm "$o/plain.heic"
avifenc -s 8 -j 1 --irot 3 "$o/base.jpg" "$o/irot.avif" >/dev/null
cjxl -d 1 --lossless_jpeg=0 --quiet "$o/exif6.jpg" "$o/exif6.jxl" 2>/dev/null
convert "$o/base.jpg" -compress lzw "$o/tag6.tif" && tiffset -s 274 6 "$o/tag6.tif"
for fmt in webp heic avif jxl tiff gif oriented; do printf '%-9s %3d files %s\n' "$fmt" "$(ls "$out/$fmt" | wc -l)" "$(du -sh "$out/$fmt" | cut -f1)"; done
