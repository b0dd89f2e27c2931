#!/usr/bin/env bash
# Peer thumbnailer benchmark: 256 px (longest side) thumbnails of bench/corpus/{jpeg,png}.
# (Copied from the project's shared bench/peers.sh, with Vignette's own cases added and a
#  second table of ratios against the peers the issues name: GraphicsMagick and
#  gdk-pixbuf-thumbnailer with 2 processes, and the djpeg -scale 1/8 floor with 2 processes.)
#
#   bench/peers.sh [ROUNDS]          default ROUNDS=5 (plus one unrecorded warm-up/validation round)
#   SETS="jpeg png" ONLY='regex' ROUNDS=3 bench/peers.sh
#
# Every round runs every case once, in a different shuffled order (seeded by the round
# number), so machine noise is spread over all tools; ratios are taken against
# vipsthumbnail (1 process) of the same set IN THE SAME ROUND, and the table reports the
# median over rounds.  Wall time is the headline; CPU (user+sys) is printed too because
# it is far less sensitive to other load on this shared 2-core machine.
# Peak RSS = GNU time's %M: the largest single process in the case (for xargs -P2 cases it
# is per process, not the sum of both).
# Output thumbnails: JPEG q80, metadata stripped where the tool allows, written to tmpfs
# (/dev/shm) -- except gdk-pixbuf-thumbnailer, which can only write PNG.
# Input files are in the page cache (a `cat` warm-up precedes the rounds): this measures
# CPU cost, not disk.  Raw data: bench/peers-raw.tsv.  Needs root for the apt installs.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
CORPUS=${CORPUS_DIR:-$HERE/corpus}
ROUNDS=${1:-${ROUNDS:-5}}
SETS=${SETS:-"jpeg png"}
ONLY=${ONLY:-.}
OUTROOT=${OUTROOT:-/dev/shm/peers-out}
BIN=${BIN:-/tmp/peers-bin}
VENV=${VENV:-/opt/peers-venv}
RAW=${RAW:-$HERE/peers-raw.tsv}
VIGNETTE=${VIGNETTE_BIN:-$HERE/../.build/release/vignette}
[[ -x $VIGNETTE ]] || (cd "$HERE/.." && swift build -c release >/dev/null)

# ---------------------------------------------------------------- dependencies
need=()
command -v vipsthumbnail >/dev/null || need+=(libvips-tools)
[[ -x /usr/bin/convert-im6.q16 ]] || need+=(imagemagick)
command -v gm >/dev/null || need+=(graphicsmagick)
command -v gdk-pixbuf-thumbnailer >/dev/null || need+=(libgdk-pixbuf2.0-bin)
command -v djpeg >/dev/null || need+=(libjpeg-turbo-progs)
[[ -x /usr/bin/time ]] || need+=(time)
[[ -f /usr/include/png.h ]] || need+=(libpng-dev)
command -v gcc >/dev/null || need+=(gcc)
python3 -c 'import venv, ensurepip' 2>/dev/null || need+=(python3-venv)
if ((${#need[@]})); then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
if [[ ! -x $VENV/bin/python ]] || ! "$VENV/bin/python" -c 'import PIL' 2>/dev/null; then
  python3 -m venv "$VENV" && "$VENV/bin/pip" install -q pillow
fi
mkdir -p "$BIN"
[[ -x $BIN/pngfloor ]] || gcc -O2 -o "$BIN/pngfloor" "$HERE/tools/pngfloor.c" -lpng
[[ -d $CORPUS/jpeg && -d $CORPUS/png ]] || "$HERE/make-corpus.sh"

# Debian puts a python stand-in for `convert` in /usr/local/bin on this image: never time it.
IM_CONVERT=/usr/bin/convert-im6.q16
IM_MOGRIFY=/usr/bin/mogrify-im6.q16
PY=$VENV/bin/python
PILLOW=$HERE/tools/pillow_thumbs.py
export VIPS_WARNING=0   # silence "unknown EXIF resolution unit" chatter (no effect on work)

# ---------------------------------------------------------------- cases
# case NAME|TOOL|MODE|SETS|COMMAND   ($IN = input dir, $O = output dir, $N = file count)
CASES=$(cat <<'EOF'
vips.1p|vipsthumbnail|1 process, all files|jpeg png|vipsthumbnail -s 256 -o "$O/%s.jpg[Q=80,strip]" "$IN"/*
vips.pf|vipsthumbnail|1 process per file|jpeg png|for f in "$IN"/*; do vipsthumbnail -s 256 -o "$O/%s.jpg[Q=80,strip]" "$f"; done
vips.P2|vipsthumbnail|xargs -P2 -n4, VIPS_CONCURRENCY=1|jpeg png|cd "$IN" && ls | VIPS_CONCURRENCY=1 xargs -P2 -n4 vipsthumbnail -s 256 -o "$O/%s.jpg[Q=80,strip]"
im.1p|ImageMagick 6 mogrify|1 process, -define jpeg:size=512x512|jpeg png|$IM_MOGRIFY -path "$O" -define jpeg:size=512x512 -thumbnail 256x256 -quality 80 -format jpg "$IN"/*
im.pf|ImageMagick 6 convert|1 process per file, jpeg:size hint|jpeg png|for f in "$IN"/*; do $IM_CONVERT -define jpeg:size=512x512 "$f" -thumbnail 256x256 -quality 80 "$O/${f##*/}.jpg"; done
im.naive|ImageMagick 6 convert|1 process per file, NO jpeg:size hint|jpeg|for f in "$IN"/*; do $IM_CONVERT "$f" -thumbnail 256x256 -quality 80 "$O/${f##*/}.jpg"; done
im.P2|ImageMagick 6 mogrify|xargs -P2 -n4, MAGICK_THREAD_LIMIT=1|jpeg png|cd "$IN" && ls | MAGICK_THREAD_LIMIT=1 xargs -P2 -n4 $IM_MOGRIFY -path "$O" -define jpeg:size=512x512 -thumbnail 256x256 -quality 80 -format jpg
gm.1p|GraphicsMagick mogrify|1 process, -size 512x512 hint|jpeg png|cd "$IN" && gm mogrify -output-directory "$O" -size 512x512 -thumbnail 256x256 -quality 80 -format jpg *
gm.pf|GraphicsMagick convert|1 process per file, -size hint|jpeg png|for f in "$IN"/*; do gm convert -size 512x512 "$f" -thumbnail 256x256 -quality 80 "$O/${f##*/}.jpg"; done
gm.P2|GraphicsMagick mogrify|xargs -P2 -n4, OMP_NUM_THREADS=1|jpeg png|cd "$IN" && ls | OMP_NUM_THREADS=1 xargs -P2 -n4 gm mogrify -output-directory "$O" -size 512x512 -thumbnail 256x256 -quality 80 -format jpg
gdk.pf|gdk-pixbuf-thumbnailer|1 process per file (PNG out)|jpeg png|for f in "$IN"/*; do gdk-pixbuf-thumbnailer -s 256 "$f" "$O/${f##*/}.png"; done
gdk.P2|gdk-pixbuf-thumbnailer|xargs -P2 -n1 (PNG out)|jpeg png|cd "$IN" && ls | xargs -P2 -I{} gdk-pixbuf-thumbnailer -s 256 {} "$O/{}.png"
pil.1p|Pillow (draft+thumbnail)|1 process, all files|jpeg png|$PY "$PILLOW" "$O" "$IN"/*
pil.P2|Pillow (draft+thumbnail)|xargs -P2 -n4|jpeg png|ls "$IN"/* | xargs -P2 -n4 $PY "$PILLOW" "$O"
djpeg8|floor: djpeg -scale 1/8|1 process per file, decode only|jpeg|for f in "$IN"/*; do djpeg -scale 1/8 -outfile /dev/null "$f"; done
djpeg8.P2|floor: djpeg -scale 1/8|xargs -P2 -n1, decode only|jpeg|ls "$IN"/* | xargs -P2 -n1 djpeg -scale 1/8 -outfile /dev/null
djpeg1|ref: djpeg full size|1 process per file, decode only|jpeg|for f in "$IN"/*; do djpeg -outfile /dev/null "$f"; done
pngfloor|floor: libpng decode|1 process, inflate+unfilter only|png|$BIN/pngfloor "$IN"/* 2>/dev/null
pngfloor.P2|floor: libpng decode|xargs -P2 -n2, inflate+unfilter only|png|ls "$IN"/* | xargs -P2 -n2 $BIN/pngfloor 2>/dev/null
cat|floor: cat (I/O)|1 process|jpeg png|cat "$IN"/* > /dev/null
vignette|vignette thumbnail|1 process, -j 2 (both cores)|jpeg png|$VIGNETTE thumbnail -s 256 -f jpeg -q 80 -j 2 -o "$O/" "$IN"/*
vignette.png|vignette thumbnail|1 process, -j 2, PNG out|jpeg png|$VIGNETTE thumbnail -s 256 -f png -j 2 -o "$O/" "$IN"/*
vignette.j1|vignette thumbnail|1 process, -j 1|jpeg png|$VIGNETTE thumbnail -s 256 -f jpeg -q 80 -j 1 -o "$O/" "$IN"/*
EOF
)

export O IN N IM_CONVERT IM_MOGRIFY PY PILLOW BIN VIGNETTE
declare -A CMD
while IFS='|' read -r name tool mode sets cmd; do CMD[$name]=$cmd; done <<<"$CASES"

run_case() {   # $1=name $2=set $3=cmd  -> prints "wall cpu rss_kb nout"
  local name=$1 set=$2 cmd=$3 tf
  IN=$CORPUS/$set; O=$OUTROOT/$name.$set; N=$(ls "$IN" | wc -l)
  rm -rf "$O"; mkdir -p "$O"
  tf=$(mktemp)
  local t0 t1
  t0=$(date +%s%N)
  /usr/bin/time -f '%M %U %S' -o "$tf" bash -c "$cmd" >/dev/null 2>"$tf.err" || { echo "FAILED: $name $set" >&2; tail -3 "$tf.err" >&2; }
  t1=$(date +%s%N)
  local rss u s nout
  read -r rss u s < <(tail -1 "$tf")
  nout=$(find "$O" -type f | wc -l)
  rm -f "$tf" "$tf.err"
  awk -v t0="$t0" -v t1="$t1" -v u="$u" -v s="$s" -v r="$rss" -v n="$nout" 'BEGIN{printf "%.4f %.2f %s %s\n", (t1-t0)/1e9, u+s, r, n}'
}

validate() {   # every output must exist and have longest side 256 (floors excepted)
  local name=$1 set=$2 n; n=$(ls "$CORPUS/$set" | wc -l)
  case $name in djpeg*|pngfloor*|cat) return 0;; esac
  local got; got=$(find "$OUTROOT/$name.$set" -type f | wc -l)
  [[ $got -eq $n ]] || { echo "VALIDATION: $name/$set wrote $got of $n thumbnails" >&2; return 0; }
  local bad; bad=$(find "$OUTROOT/$name.$set" -type f -print0 | xargs -0 vipsheader 2>/dev/null |
                   awk '{split($2,a,"x"); m=(a[1]+0>a[2]+0)?a[1]:a[2]; if (m!=256) b++} END{print b+0}')
  [[ $bad -eq 0 ]] || echo "VALIDATION: $name/$set: $bad thumbnails whose longest side is not 256" >&2
}

echo "# host: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB; load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo "# versions: vips $(vips --version | cut -d- -f2), IM $($IM_CONVERT -version | head -1 | awk '{print $3}'), GM $(gm -version | head -1 | awk '{print $2}'), gdk-pixbuf $(dpkg-query -W -f '${Version}' libgdk-pixbuf-2.0-0 2>/dev/null), libjpeg-turbo $(dpkg-query -W -f '${Version}' libjpeg62-turbo), libpng $(dpkg-query -W -f '${Version}' libpng16-16), Pillow $($PY -c 'import PIL;print(PIL.__version__)')" >&2
cat "$CORPUS"/jpeg/* "$CORPUS"/png/* > /dev/null   # page cache

printf 'round\tcase\tset\twall_s\tcpu_s\trss_kb\tnout\tnin\tloadavg\n' > "$RAW"
for round in $(seq 0 "$ROUNDS"); do
  order=$(for set in $SETS; do while IFS='|' read -r name tool mode sets cmd; do
            if [[ " $sets " == *" $set "* && $name =~ $ONLY ]]; then echo "$name $set"; fi; done <<<"$CASES"; done |
          shuf --random-source=<(yes "$round"))
  while read -r name set; do
    cmd=${CMD[$name]}
    read -r wall cpu rss nout < <(run_case "$name" "$set" "$cmd")
    if ((round == 0)); then validate "$name" "$set"; continue; fi   # warm-up, not recorded
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$name" "$set" "$wall" "$cpu" "$rss" "$nout" \
      "$(ls "$CORPUS/$set" | wc -l)" "$(cut -d' ' -f1 /proc/loadavg)" >> "$RAW"
  done <<<"$order"
  echo "# round $round done (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
done
rm -rf "$OUTROOT"

# ---------------------------------------------------------------- table
CASES="$CASES" python3 - "$RAW" <<'PY'
import csv, os, statistics as st, sys
cases = {}
for line in os.environ['CASES'].strip().splitlines():
    name, tool, mode, sets, _ = line.split('|', 4)
    cases[name] = (tool, mode)
rows = list(csv.DictReader(open(sys.argv[1]), delimiter='\t'))
ref = {(r['round'], r['set']): float(r['wall_s']) for r in rows if r['case'] == 'vips.1p'}
refc = {(r['round'], r['set']): float(r['cpu_s']) for r in rows if r['case'] == 'vips.1p'}
order = list(cases)
for s in ('jpeg', 'png'):
    sel = [r for r in rows if r['set'] == s]
    if not sel: continue
    nin = int(sel[0]['nin'])
    loads = [float(r['loadavg']) for r in sel]
    print(f"\n### {s.upper()} set: {nin} files, {len(set(r['round'] for r in sel))} rounds, 1-min load avg during runs {min(loads):.1f}-{max(loads):.1f}\n")
    print("| tool | mode | median wall s | ms/image | median CPU s (u+s) | peak RSS MB | wall ratio vs vips | CPU ratio vs vips |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for c in order:
        rs = [r for r in sel if r['case'] == c]
        if not rs: continue
        w = st.median(float(r['wall_s']) for r in rs)
        cpu = st.median(float(r['cpu_s']) for r in rs)
        rss = max(int(r['rss_kb']) for r in rs) / 1024
        rat = [float(r['wall_s']) / ref[(r['round'], s)] for r in rs if (r['round'], s) in ref]
        ratc = [float(r['cpu_s']) / refc[(r['round'], s)] for r in rs if (r['round'], s) in refc]
        tool, mode = cases[c]
        print(f"| {tool} | {mode} | {w:.2f} | {1000*w/nin:.0f} | {cpu:.2f} | {rss:.0f} | "
              f"{st.median(rat):.2f} | {st.median(ratc):.2f} |" if rat else f"| {tool} | {mode} | {w:.2f} | {1000*w/nin:.0f} | {cpu:.2f} | {rss:.0f} | - | - |")
PY

# ---------------------------------------------------------------- vignette vs the named peers
python3 - "$RAW" <<'PY'
import csv, statistics as st, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter='\t'))
def wall(case, s, rnd):
    for r in rows:
        if r['case'] == case and r['set'] == s and r['round'] == rnd: return float(r['wall_s'])
def rss(case, s):
    v = [int(r['rss_kb']) for r in rows if r['case'] == case and r['set'] == s]
    return max(v) / 1024 if v else None
print("\n### Vignette against the named peers (median over rounds of the per-round wall-time ratio)\n")
print("| set | vignette case | vs | median ratio | rounds | vignette peak RSS MB |")
print("|---|---|---|---:|---:|---:|")
pairs = {'jpeg': ['gm.P2', 'djpeg8.P2', 'gdk.P2', 'vips.1p'], 'png': ['gdk.P2', 'gm.P2', 'pngfloor.P2', 'vips.1p']}
for s, peers in pairs.items():
    for v in ('vignette', 'vignette.png', 'vignette.j1'):
        for p in peers:
            ratios = []
            for rnd in sorted({r['round'] for r in rows}):
                a, b = wall(v, s, rnd), wall(p, s, rnd)
                if a and b: ratios.append(a / b)
            if ratios:
                print(f"| {s} | {v} | {p} | {st.median(ratios):.2f} | {len(ratios)} | {rss(v, s):.0f} |")
PY
