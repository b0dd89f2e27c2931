#!/usr/bin/env bash
# `vignette batch` benchmark (issue 6): one run, same conditions for every tool.
#
#   bench/batch.sh            (release build of vignette is made if missing)
#
# 1. Real-photo corpus (bench/corpus/{jpeg,png}, from bench/make-corpus.sh), 256 px thumbnails:
#    `vignette batch --out DIR --size 256` (PNG out, and --format jpeg) against GraphicsMagick
#    `mogrify` with 2 processes (xargs -P2 -n4, JPEG q80 out) and gdk-pixbuf-thumbnailer with 2
#    processes (xargs -P2, PNG out), exactly as in bench/peers.sh.  Wall time; ratios printed.
# 2. A tree of 20 000 small files (200 folders x 100: PNG, JPEG, text) generated under /tmp:
#    `vignette batch` into a fresh freedesktop cache (XDG_CACHE_HOME), peak RSS (GNU time %M)
#    and files/s; then the same again (everything up to date) for the incremental cost.
# Inputs are in the page cache (a `cat` warm-up precedes each timing); outputs go to /dev/shm.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
CORPUS=${CORPUS_DIR:-$HERE/corpus}
VIGNETTE=${VIGNETTE_BIN:-$HERE/../.build/release/vignette}
OUT=${OUTROOT:-/dev/shm/batch-bench}
TREE=${TREE:-/tmp/vignette-batch-tree}
[[ -x $VIGNETTE ]] || (cd "$HERE/.." && swift build -c release >/dev/null)
[[ -d $CORPUS/jpeg && -d $CORPUS/png ]] || "$HERE/make-corpus.sh"
command -v gm >/dev/null && command -v gdk-pixbuf-thumbnailer >/dev/null && [[ -x /usr/bin/time ]] || {
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphicsmagick libgdk-pixbuf2.0-bin time >/dev/null; }

rm -rf "$OUT"; mkdir -p "$OUT"
echo "# host: $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"

timed() {   # $1=label, rest=command (bash -c) -> prints "label wall_s rss_mb cpu_s"
  local label=$1; shift
  local tf; tf=$(mktemp)
  local t0 t1; t0=$(date +%s%N)
  /usr/bin/time -f '%M %U %S' -o "$tf" bash -c "$*" >"$tf.out" 2>&1 || { echo "FAILED: $label" >&2; tail -3 "$tf.out" >&2; }
  t1=$(date +%s%N)
  awk -v l="$label" -v t0="$t0" -v t1="$t1" -v m="$(tail -1 "$tf")" 'BEGIN{split(m,a," "); printf "%s %.3f %.0f %.2f\n", l, (t1-t0)/1e9, a[1]/1024, a[2]+a[3]}'
  cp "$tf.out" "$OUT/$label.log"; rm -f "$tf" "$tf.out"
}

declare -A WALL RSS CPU
for set in jpeg png; do
  IN=$CORPUS/$set
  cat "$IN"/* >/dev/null
  cases=(
    "gm.P2|cd '$IN' && ls | OMP_NUM_THREADS=1 xargs -P2 -n4 gm mogrify -output-directory '$OUT/gm.P2.$set' -size 512x512 -thumbnail 256x256 -quality 80 -format jpg"
    "gdk.P2|cd '$IN' && ls | xargs -P2 -I{} gdk-pixbuf-thumbnailer -s 256 {} '$OUT/gdk.P2.$set/{}.png'"
    "batch|'$VIGNETTE' batch --out '$OUT/batch.$set' --size 256 '$IN'"
    "batchjpg|'$VIGNETTE' batch --out '$OUT/batchjpg.$set' --size 256 --format jpeg --quality 80 '$IN'"
  )
  for c in "${cases[@]}"; do
    name=${c%%|*}; cmd=${c#*|}
    mkdir -p "$OUT/$name.$set"
    read -r _ w r c < <(timed "$name.$set" "$cmd")
    WALL[$name.$set]=$w; RSS[$name.$set]=$r; CPU[$name.$set]=$c
    n=$(find "$OUT/$name.$set" -type f | wc -l)
    printf '%-6s %-12s %8.3f s wall  %6.1f ms/image  %6.2f s CPU  %4s MB  %s outputs\n' "$set" "$name" "$w" "$(awk -v w="$w" -v n="$(ls "$IN" | wc -l)" 'BEGIN{print 1000*w/n}')" "$c" "$r" "$n"
  done
done
ratio() { awk -v a="${WALL[$1]}" -v b="${WALL[$2]}" -v c="${CPU[$1]}" -v d="${CPU[$2]}" 'BEGIN{printf "%.2f | %.2f", a/b, c/d}'; }
echo
echo "| set | vignette batch | vs | wall ratio | CPU ratio | target (wall) |"
echo "|---|---|---|---:|---:|---|"
echo "| jpeg | --out --size 256 (PNG out) | GraphicsMagick mogrify, 2 procs | $(ratio batch.jpeg gm.P2.jpeg) | ≤ 0.6 |"
echo "| jpeg | --out --size 256 --format jpeg | GraphicsMagick mogrify, 2 procs | $(ratio batchjpg.jpeg gm.P2.jpeg) | ≤ 0.6 |"
echo "| png | --out --size 256 (PNG out) | gdk-pixbuf-thumbnailer, 2 procs | $(ratio batch.png gdk.P2.png) | ≤ 0.8 |"
echo "| png | --out --size 256 (PNG out) | GraphicsMagick mogrify, 2 procs | $(ratio batch.png gm.P2.png) | - |"
echo "| jpeg | --out --size 256 (PNG out) | gdk-pixbuf-thumbnailer, 2 procs | $(ratio batch.jpeg gdk.P2.jpeg) | - |"

# ---------------------------------------------------------------- 20 000 small files
if [[ ! -f $TREE/.complete ]]; then
  rm -rf "$TREE"; mkdir -p "$TREE"
  gm convert -size 96x64 gradient:navy-orange "$OUT/seed.png"
  gm convert -size 120x80 plasma:fractal -quality 85 "$OUT/seed.jpg"
  printf 'hello\n' > "$OUT/seed.txt"
  for d in $(seq -w 0 199); do
    mkdir -p "$TREE/d$d"
    for f in $(seq -w 0 99); do
      case $((10#$f % 10)) in
        0) cp "$OUT/seed.txt" "$TREE/d$d/f$f.txt" ;;
        1|2|3) cp "$OUT/seed.jpg" "$TREE/d$d/f$f.jpg" ;;
        *) cp "$OUT/seed.png" "$TREE/d$d/f$f.png" ;;
      esac
    done
  done
  touch "$TREE/.complete"
fi
files=$(find "$TREE" -type f ! -name .complete | wc -l)
cache=$OUT/xdg
rm -rf "$cache"
cat "$TREE"/*/* >/dev/null
read -r _ w r _ < <(timed tree.first "XDG_CACHE_HOME='$cache' '$VIGNETTE' batch '$TREE'")
read -r _ w2 r2 _ < <(timed tree.again "XDG_CACHE_HOME='$cache' '$VIGNETTE' batch '$TREE'")
echo
echo "20 000-file tree ($files files): first run $(awk -v w="$w" -v n="$files" 'BEGIN{printf "%.2f s, %.0f files/s", w, n/w}'), peak RSS $r MB"
echo "  summary: $(tail -1 "$OUT/tree.first.log")"
echo "second run (all up to date): $(awk -v w="$w2" -v n="$files" 'BEGIN{printf "%.2f s, %.0f files/s", w, n/w}'), peak RSS $r2 MB"
echo "  summary: $(tail -1 "$OUT/tree.again.log")"
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -rf "$OUT"
