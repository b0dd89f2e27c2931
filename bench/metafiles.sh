#!/usr/bin/env bash
# Windows metafiles: 256 px thumbnails of WMF and EMF files by vignette against LibreOffice (what
# Nextcloud and most desktops call for Office pictures) and, for WMF, libwmf's wmf2gd (the library
# behind gdk-pixbuf's WMF loader), same files, same run.
#
#   bench/metafiles.sh [RUNS]     default 5 runs; needs libreoffice (any -nogui part), libwmf-bin,
#                                 librsvg2-bin, and ../shared/corpora for Pillow's two files
#
# The files: four drawings (shapes, gradients of many polygons, text, an embedded photo) written
# as SVG here and converted to EMF and to WMF by LibreOffice, and Pillow's drawing.emf/.wmf.
# Sides, one process per file as a file manager's thumbnailer runs: `vignette thumbnail -s 256`;
# `soffice --headless --convert-to png` (its own warm profile, so start-up is paid once per file
# as in a thumbnailer, not the first-run profile creation); `wmf2gd --maxwidth=256 --maxheight=256`.
# Each side's median wall time over the runs, and the ratio to vignette's.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
runs=${1:-5}
bin=${VIGNETTE_BIN:-$here/../.build/release/vignette}
shared=${CORPORA_DIR:-$here/../../shared/corpora}
[[ -x $bin ]] || (cd "$here/.." && swift build -c release --product vignette >/dev/null)
for tool in soffice wmf2gd rsvg-convert; do
    command -v "$tool" >/dev/null || { echo "metafiles.sh: $tool is missing (apt-get install libreoffice-impress-nogui libwmf-bin librsvg2-bin)" >&2; exit 1; }
done
work=$(mktemp -d /dev/shm/metafile-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$work/files" "$work/out"
photo=$here/../Tests/VignetteImagingTests/Fixtures/jpeg/pillow/flower.jpg
python3 - "$work/src" "$photo" <<'PY'
import base64, math, sys
out, photo = sys.argv[1], sys.argv[2]
head = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="800" height="600">'
shapes = ''.join(
    f'<rect x="{20 + 60 * (i % 12)}" y="{20 + 60 * (i // 12)}" width="50" height="50" fill="#{(i * 37) % 256:02x}{(i * 91) % 256:02x}80" stroke="#000" stroke-width="2"/>'
    for i in range(96))
rings = ''.join(
    f'<polygon points="{" ".join(f"{400 + r * math.cos(a / 20):.1f},{300 + r * math.sin(a / 20):.1f}" for a in range(126))}" fill="none" stroke="#{(r * 5) % 256:02x}4080" stroke-width="1.5"/>'
    for r in range(10, 290, 4))
text = ''.join(f'<text x="30" y="{40 + 22 * i}" font-family="DejaVu Sans" font-size="18">Line {i}: the quick brown fox jumps over the lazy dog</text>' for i in range(25))
picture = f'<image x="100" y="75" width="600" height="450" xlink:href="data:image/jpeg;base64,{base64.b64encode(open(photo, "rb").read()).decode()}"/>'
for name, body in (('shapes', shapes), ('rings', rings), ('text', text), ('photo', picture)):
    open(f'{out}/{name}.svg', 'w').write(head + body + '</svg>')
PY
profile="-env:UserInstallation=file://$work/profile"
for ext in emf wmf; do
    soffice "$profile" --headless --norestore --convert-to "$ext" --outdir "$work/files" "$work"/src/*.svg >/dev/null 2>&1
done
for f in drawing.emf drawing.wmf; do
    [[ -f $shared/mixed/other-images/$f ]] && cp "$shared/mixed/other-images/$f" "$work/files/pillow-$f"
done
files=("$work"/files/*)
for f in "${files[@]}"; do
    printf '%-22s %8s bytes  %s\n' "$(basename "$f")" "$(stat -c %s "$f")" "$("$bin" which "$f" | sed -n 's/^thumbnail: \(.*\) answers$/\1/p')"
done
python3 - "$bin" "$work" "$runs" "$profile" "${files[@]}" <<'PY'
import os, statistics, subprocess, sys, time
binary, work, runs, profile, files = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5:]
out = os.path.join(work, 'out')
def run(cmd):
    t = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t, r.returncode
sides = {
    'vignette': lambda f: [binary, 'thumbnail', '-s', '256', '-o', os.path.join(out, 'v.png'), f],
    'LibreOffice': lambda f: ['soffice', profile, '--headless', '--norestore', '--convert-to', 'png', '--outdir', out, f],
    'wmf2gd': lambda f: ['wmf2gd', '--maxwidth=256', '--maxheight=256', '-o', os.path.join(out, 'w.png'), f] if f.endswith('.wmf') else None,
}
times = {s: {} for s in sides}
failed = {s: set() for s in sides}
for _ in range(runs):
    for f in files:
        for side, cmd in sides.items():
            c = cmd(f)
            if c is None: continue
            t, rc = run(c)
            times[side].setdefault(f, []).append(t)
            if rc != 0: failed[side].add(os.path.basename(f))
print(f'\nmedian wall time a file over {runs} runs (one process per file)')
print(f'{"file":22} {"vignette":>10} {"LibreOffice":>12} {"wmf2gd":>10}')
totals = {s: 0.0 for s in sides}
wmf_v = 0.0
for f in files:
    row = [os.path.basename(f)]
    for side in sides:
        if f in times[side]:
            m = statistics.median(times[side][f])
            totals[side] += m
            if side == 'vignette' and f.endswith('.wmf'): wmf_v += m
            row.append(f'{m * 1000:.1f} ms')
        else:
            row.append('-')
    print(f'{row[0]:22} {row[1]:>10} {row[2]:>12} {row[3]:>10}')
print(f'\nLibreOffice / vignette, every file: {totals["LibreOffice"] / totals["vignette"]:.1f}x')
if wmf_v > 0: print(f'wmf2gd / vignette, the WMF files: {totals["wmf2gd"] / wmf_v:.2f}x')
for side, names in failed.items():
    if names: print(f'{side} failed on: {", ".join(sorted(names))}')
PY
