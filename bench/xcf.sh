#!/usr/bin/env bash
# GIMP documents: 256 px thumbnails of layered XCF files by vignette against ImageMagick (the XCF
# reader most tools reach through: `convert doc.xcf -flatten -thumbnail`) and GIMP itself
# (gimp-console loading, merging and scaling: what GIMP's own thumbnailer amounts to), same files,
# same run; and how close each side's picture is to GIMP's. (ImageMagick 6.9.11, Debian 12's,
# cannot read the XCF version 11 GIMP 2.10 writes: its times are those of the failure.)
#
#   bench/xcf.sh [RUNS]     default 3 runs; needs gimp (gimp-console-2.10), imagemagick, and the
#                           photo corpus (bench/make-corpus.sh)
#
# The documents, made here by gimp-console from three corpus photos at their full size (4352 x 2448
# and the like): the photo; a second photo at half size, 70 % opacity, faded by a gradient mask;
# a band in GIMP 2.10's Multiply; a group of two shapes in Screen; a hidden layer. One process per
# file, as a file manager's thumbnailer runs. Each side's median wall time over the runs, the ratio
# to vignette's, and the PSNR of its thumbnail against GIMP's (ImageMagick `compare`).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
runs=${1:-3}
bin=${VIGNETTE_BIN:-$here/../.build/release/vignette}
[[ -x $bin ]] || (cd "$here/.." && swift build -c release --product vignette >/dev/null)
for tool in gimp-console-2.10 convert compare; do
    command -v "$tool" >/dev/null || { echo "xcf.sh: $tool is missing (apt-get install gimp imagemagick)" >&2; exit 1; }
done
photos=("$here"/corpus/jpeg/*.jpg)
[[ ${#photos[@]} -ge 4 ]] || { echo "xcf.sh: the photo corpus is missing (bench/make-corpus.sh)" >&2; exit 1; }
work=$(mktemp -d /dev/shm/xcf-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/files" "$work/out"
script=""
for i in 0 1 2; do
    script+="(make \"${photos[$i]}\" \"${photos[$((i + 1))]}\" \"$work/files/doc$i.xcf\")"$'\n'
done
gimp-console-2.10 -i -d -f --batch-interpreter plug-in-script-fu-eval -b - >/dev/null 2>&1 <<SCHEME
(define (make base over out)
  (let* ((image (car (gimp-file-load RUN-NONINTERACTIVE base base)))
         (w (car (gimp-image-width image))) (h (car (gimp-image-height image)))
         (top (car (gimp-file-load-layer RUN-NONINTERACTIVE image over)))
         (band (car (gimp-layer-new image w (quotient h 4) RGBA-IMAGE "band" 100 LAYER-MODE-MULTIPLY)))
         (hidden (car (gimp-layer-new image w h RGBA-IMAGE "hidden" 100 LAYER-MODE-NORMAL)))
         (group (car (gimp-layer-group-new image)))
         (disc (car (gimp-layer-new image (quotient w 3) (quotient h 2) RGBA-IMAGE "disc" 100 LAYER-MODE-NORMAL))))
    (gimp-image-insert-layer image top 0 0)
    (gimp-layer-scale top (quotient w 2) (quotient h 2) FALSE)
    (gimp-layer-set-offsets top (quotient w 8) (quotient h 8))
    (gimp-layer-set-opacity top 70)
    (let ((mask (car (gimp-layer-create-mask top ADD-MASK-WHITE))))
      (gimp-layer-add-mask top mask)
      (gimp-context-set-foreground '(0 0 0))
      (gimp-context-set-background '(255 255 255))
      (gimp-context-set-gradient-fg-bg-rgb)
      (gimp-drawable-edit-gradient-fill mask GRADIENT-LINEAR 0 FALSE 1 0 FALSE 0 0 (quotient w 2) 0))
    (gimp-image-insert-layer image band 0 0)
    (gimp-layer-set-offsets band 0 (quotient (* 3 h) 5))
    (gimp-context-set-foreground '(255 160 60))
    (gimp-drawable-fill band FILL-FOREGROUND)
    (gimp-image-insert-layer image hidden 0 0)
    (gimp-drawable-fill hidden FILL-FOREGROUND)
    (gimp-item-set-visible hidden FALSE)
    (gimp-image-insert-layer image group 0 0)
    (gimp-layer-set-mode group LAYER-MODE-SCREEN)
    (gimp-image-insert-layer image disc group 0)
    (gimp-layer-set-offsets disc (quotient w 2) (quotient h 4))
    (gimp-context-set-foreground '(40 90 220))
    (gimp-image-select-ellipse image CHANNEL-OP-REPLACE (quotient w 2) (quotient h 4) (quotient w 3) (quotient h 2))
    (gimp-drawable-edit-fill disc FILL-FOREGROUND)
    (gimp-selection-none image)
    (gimp-xcf-save 0 image band out out)
    (gimp-image-delete image)))
$script
(gimp-quit 0)
SCHEME
files=("$work"/files/*.xcf)
for f in "${files[@]}"; do
    printf '%-10s %10s bytes  %s\n' "$(basename "$f")" "$(stat -c %s "$f")" "$(identify -format '%wx%h' "$f[0]" 2>/dev/null || true)"
done
python3 - "$bin" "$work" "$runs" "${files[@]}" <<'PY'
import os, statistics, subprocess, sys, time
binary, work, runs, files = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
out = os.path.join(work, 'out')
def gimp(f, png):
    scheme = f'''(let* ((i (car (gimp-file-load RUN-NONINTERACTIVE "{f}" "{f}")))
  (w (car (gimp-image-width i))) (h (car (gimp-image-height i))) (k (/ 256 (max w h))))
  (gimp-image-merge-visible-layers i CLIP-TO-IMAGE)
  (gimp-image-scale i (round (* w k)) (round (* h k)))
  (file-png-save2 RUN-NONINTERACTIVE i (car (gimp-image-get-active-drawable i)) "{png}" "{png}" 0 9 0 0 0 0 0 0 0))
(gimp-quit 0)'''
    return ['gimp-console-2.10', '-i', '-d', '-f', '--batch-interpreter', 'plug-in-script-fu-eval', '-b', scheme]
sides = {
    'vignette': lambda f, png: [binary, 'thumbnail', '-s', '256', '--no-system-thumbnailers', '-o', png, f],
    'ImageMagick': lambda f, png: ['convert', f, '-flatten', '-thumbnail', '256x256', png],
    'GIMP': gimp,
}
times = {s: {} for s in sides}
failed = {s: set() for s in sides}
for r in range(runs):
    for f in files:
        for side, cmd in sides.items():
            png = os.path.join(out, f'{side}-{os.path.basename(f)}.png')
            t = time.perf_counter()
            rc = subprocess.run(cmd(f, png), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
            times[side].setdefault(f, []).append(time.perf_counter() - t)
            if rc != 0 or not os.path.exists(png): failed[side].add(os.path.basename(f))
def psnr(a, b):
    if not os.path.exists(a) or not os.path.exists(b): return 'no picture'
    r = subprocess.run(['compare', '-metric', 'PSNR', a, b, 'null:'], capture_output=True, text=True)
    return r.stderr.strip().split()[0] if r.stderr.strip() else '?'
print(f'\nmedian wall time a file over {runs} runs (one process per file); PSNR (dB) against GIMP\'s thumbnail')
print(f'{"file":10} {"vignette":>10} {"ImageMagick":>12} {"GIMP":>10}   {"vignette dB":>12} {"ImageMagick dB":>15}')
totals = {s: 0.0 for s in sides}
for f in files:
    row = [os.path.basename(f)]
    for side in sides:
        m = statistics.median(times[side][f])
        totals[side] += m
        row.append(f'{m * 1000:.0f} ms')
    g = os.path.join(out, f'GIMP-{os.path.basename(f)}.png')
    dv = psnr(os.path.join(out, f'vignette-{os.path.basename(f)}.png'), g)
    di = psnr(os.path.join(out, f'ImageMagick-{os.path.basename(f)}.png'), g)
    print(f'{row[0]:10} {row[1]:>10} {row[2]:>12} {row[3]:>10}   {dv:>12} {di:>15}')
print(f'\nImageMagick / vignette: {totals["ImageMagick"] / totals["vignette"]:.1f}x')
print(f'GIMP / vignette: {totals["GIMP"] / totals["vignette"]:.1f}x')
for side, names in failed.items():
    if names: print(f'{side} failed on: {", ".join(sorted(names))}')
if failed['ImageMagick']:
    r = subprocess.run(['convert', files[0], '-flatten', os.path.join(out, 'im.png')], capture_output=True, text=True)
    print(f'ImageMagick says: {r.stderr.strip()}')
PY
