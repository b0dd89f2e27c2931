#!/usr/bin/env bash
# Built-in decoders against the peers (issue 13), 256 px thumbnails, one run, same conditions:
#
# 1. The 32 benchmark photos as WebP, HEIC, AVIF, JPEG XL, TIFF, GIF, JPEG 2000, Radiance HDR, FITS and DPX (bench/make-formats.sh):
#    `vignette batch --out DIR --size 256 --format jpeg --quality 80 -j 2` against `vipsthumbnail
#    -s 256` run as 2 processes
#    (xargs -P2 -n4, JPEG q80 out, like bench/peers.sh). Target: vignette ≤ 0.7× vipsthumbnail.
# 2. GIF, BMP and TIFF of the shared mixed corpus (../shared/corpora/mixed): `vignette batch
#    --no-system-thumbnailers` against the same files (subfolders too: bmpsuite, broken/) through
#    gdk-pixbuf-thumbnailer (2 processes, one per file, as a file manager runs it, PNG out).
#    Target: vignette ≤ 0.3× gdk-pixbuf. Broken files make both exit non-zero (said on stderr).
# 3. The orientation examples of make-formats.sh: each thumbnail's size (base.jpg is the
#    landscape original; every other one must come out portrait).
# Peak RSS is GNU time's %M (the largest single process). Inputs are in the page cache (a `cat`
# warm-up precedes each timing); outputs go to /dev/shm. Ratios are of wall time in this run.
# A set whose first Vignette run takes under a second (the mixed sets: tens of milliseconds,
# where one sample is mostly the machine's noise) is timed REPEAT more times on each side,
# alternating, and the medians compared (REPEAT=5 by default; RSS is the largest of the runs).
#
#   bench/formats.sh            (a release build of vignette is made if missing)
#   SETS="jp2" bench/formats.sh   only those sets of part 1 (part 2 and 3 are skipped)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
formats=${CORPUS_DIR:-$here/corpus}/formats
mixed=${MIXED_DIR:-$here/../../shared/corpora/mixed}
vignette=${VIGNETTE_BIN:-$here/../.build/release/vignette}
out=${OUTROOT:-/dev/shm/formats-bench}
[[ -x $vignette ]] || (cd "$here/.." && swift build -c release >/dev/null)
for set in ${SETS:-webp heic avif jxl tiff gif jp2 hdr fits dpx}; do
    [[ -d $formats/$set && -n $(ls "$formats/$set") ]] || FORMATS=${SETS:-} "$here/make-formats.sh"
done
for tool in vipsthumbnail gdk-pixbuf-thumbnailer /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "formats.sh: $tool is missing (apt-get install libvips-tools libgdk-pixbuf2.0-bin time)" >&2; exit 1; }
done
rm -rf "$out"; mkdir -p "$out"
echo "# host: $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg); $(git -C "$here/.." rev-parse --short HEAD)"

# shellcheck source=bench/timing.sh
source "$here/timing.sh"

repeat=${REPEAT:-5}
peak=0
row() { # set input-dir peer-label peer-command target
    local set=$1 in=$2 peer=$3 cmd=$4 target=$5 n w r pw pr ws pws i w1 r1
    n=$(find "$in" -type f | wc -l)
    find "$in" -type f -exec cat {} + >/dev/null
    mkdir -p "$out/vignette.$set" "$out/$peer.$set"
    (cd "$in" && find . -type d -exec mkdir -p "$out/$peer.$set/{}" \;)
    local mine="'$vignette' batch --no-system-thumbnailers --out '$out/vignette.$set' --size 256 --format jpeg --quality 80 -j 2 '$in'"
    read -r w r < <(timed "vignette.$set" "$mine")
    find "$in" -type f -exec cat {} + >/dev/null
    read -r pw pr < <(timed "$peer.$set" "cd '$in' && $cmd")
    if awk -v w="$w" 'BEGIN{exit !(w < 1)}'; then
        ws=$w pws=$pw
        for ((i = 0; i < repeat; i++)); do
            rm -rf "$out/vignette.$set"
            read -r w1 r1 < <(timed "vignette.$set" "$mine")
            ws+=" $w1"
            ((r1 > r)) && r=$r1
            read -r w1 r1 < <(timed "$peer.$set" "cd '$in' && $cmd")
            pws+=" $w1"
        done
        w=$(tr ' ' '\n' <<<"$ws" | median)
        pw=$(tr ' ' '\n' <<<"$pws" | median)
    fi
    ((r > peak)) && peak=$r
    printf '| %s | %d | %d | %.2f s | %d MB | %d | %.2f s | %d MB | **%.2f×** | ≤ %s |\n' "$set" "$n" \
        "$(find "$out/vignette.$set" -type f | wc -l)" "$w" "$r" "$(find "$out/$peer.$set" -type f | wc -l)" "$pw" "$pr" \
        "$(awk -v a="$w" -v b="$pw" 'BEGIN{print a/b}')" "$target"
}

echo "| set | files | vignette thumbnails | vignette wall | vignette RSS | peer thumbnails | peer wall | peer RSS | ratio | target |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
vips="ls | OMP_NUM_THREADS=1 VIPS_CONCURRENCY=1 xargs -P2 -n4 vipsthumbnail -s 256 -o '$out/vipsthumbnail.%SET%/%s.jpg[Q=80,strip]'"
for set in ${SETS:-webp heic avif jxl tiff gif jp2 hdr fits dpx}; do
    row "$set" "$formats/$set" vipsthumbnail "${vips//%SET%/$set}" 0.7
done
[[ -n ${SETS:-} ]] && exit 0
gdk="find . -type f | xargs -P2 -I{} gdk-pixbuf-thumbnailer -s 256 {} '$out/gdk.%SET%/{}.png'"
for set in gif bmp tiff; do
    row "mixed-$set" "$mixed/$set" gdk "${gdk//%SET%/mixed-$set}" 0.3
done
echo
echo "peak RSS of one vignette process over every set: $peak MB (target ≤ 64 MB)"
echo
echo "orientation (stored landscape, each format's own way of saying 'turn 90° clockwise'):"
for f in "$formats"/oriented/*; do
    "$vignette" thumbnail --no-system-thumbnailers --no-fallback -s 128 "$f" -o "$out/oriented.png" 2>&1
    printf '  %-12s %s\n' "$(basename "$f")" "$(python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); w,h=struct.unpack(">II",d[16:24]); print(f"{w} x {h}", "portrait" if h > w else "landscape")' "$out/oriented.png")"
done
