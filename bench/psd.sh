#!/usr/bin/env bash
# Photoshop documents: 256 px thumbnails of layered PSDs by vignette against ImageMagick and
# libvips (whose PSD loader is ImageMagick's), same files, same run. (Debian 12's GraphicsMagick
# has no PSD coder: "No decode delegate for this image format".)
#
#   bench/psd.sh [RUNS] [FILES]   default 3 interleaved runs over 8 documents; needs imagemagick,
#                                 libvips-tools and bench/corpus (make-corpus.sh)
#
# Each document is a benchmark photo (bench/corpus/jpeg, the first FILES by name) as the merged
# image plus two layers (the photo flopped and the photo negated), PackBits-compressed, written by
# ImageMagick: the shape of a photographer's edit, three times the photo's pixels on disk. Sides:
# `vignette thumbnail -s 256 -o DIR` (one process, every file); `convert 'F.psd[0]' -thumbnail
# 256x256` (the merged image only) and `vipsthumbnail -s 256 F.psd`, one process per file as a
# file manager's thumbnailer runs. Wall times are each side's
# total; peak RSS the largest single process (/usr/bin/time's %M).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
runs=${1:-3}
count=${2:-8}
bin=${VIGNETTE_BIN:-$here/../.build/release/vignette}
corpus=${CORPUS_DIR:-$here/corpus}/jpeg
[[ -x $bin ]] || (cd "$here/.." && swift build -c release --product vignette >/dev/null)
[[ -d $corpus ]] || "$here/make-corpus.sh"
for tool in /usr/bin/convert vipsthumbnail /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "psd.sh: $tool is missing (apt-get install imagemagick libvips-tools time)" >&2; exit 1; }
done
work=$(mktemp -d /dev/shm/psd-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/psd"
for photo in $(ls "$corpus"/*.jpg | sort | head -n "$count"); do
    name=$(basename "$photo" .jpg)
    /usr/bin/convert "$photo" \( "$photo" -flop \) \( "$photo" -negate \) -compress RLE "$work/psd/$name.psd"
done
files=("$work"/psd/*.psd)
for f in "${files[@]}"; do
    printf '%-46s %6s MB  %s\n' "$(basename "$f")" "$(( $(stat -c %s "$f") / 1048576 ))" "$("$bin" which "$f" | sed -n 's/^thumbnail: \(.*\) answers$/\1/p')"
done
python3 - "$here/tools" "$bin" "$work" "$runs" "${files[@]}" <<'PY'
import os, shutil, subprocess, sys, time
tools, binary, work, runs, files = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:]
out = f"{work}/out"
def run(argv):
    r = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit(f"psd.sh: {argv[0]} failed: {r.stderr.strip()[-300:]}")
    return int(r.stderr.strip().splitlines()[-1])
def side(name):
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    start = time.perf_counter()
    if name == "vignette":
        rss = [run([binary, "thumbnail", "-s", "256", "-o", out + "/"] + files)]
    else:
        rss = []
        for i, f in enumerate(files):
            target = f"{out}/{i}.png"
            argv = {
                "ImageMagick convert [0]": ["/usr/bin/convert", f + "[0]", "-thumbnail", "256x256", target],
                "vipsthumbnail": ["vipsthumbnail", "-s", "256", "-o", target, f],
            }[name]
            rss.append(run(argv))
    elapsed = time.perf_counter() - start
    made = len(os.listdir(out))
    if made != len(files):
        sys.exit(f"psd.sh: {name} wrote {made} of {len(files)} thumbnails")
    return elapsed, max(rss)
sys.path.insert(0, tools)
from interleaved import report
names = ["vignette", "ImageMagick convert [0]", "vipsthumbnail"]
report({n: (lambda n=n: side(n)) for n in names}, runs, f"{len(files)} layered PSDs", width=27)
PY
