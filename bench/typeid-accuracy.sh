#!/usr/bin/env bash
# Type-identification accuracy and speed on the external mixed corpus (416 files).
#
#   bench/typeid-accuracy.sh [CORPORA_DIR]      default: ../shared/corpora beside the repo
#
# Scores `vignette type --mime` with the corpus's own scorer (score-typeid.py), prints the
# reference scores of libmagic and shared-mime-info from the same scorer, then times one
# `vignette type` process against one `file --mime-type` process over the same files
# (hyperfine when installed, else the best of 5 runs with `date`), in the same run.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
corpora=${1:-$top/../shared/corpora}
corpora=$(cd "$corpora" && pwd)
bin=${VIGNETTE_BIN:-$top/.build/release/vignette}
[[ -x "$bin" ]] || (cd "$top" && swift build -c release >/dev/null)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cd "$corpora"
find mixed -type f ! -name MANIFEST.tsv ! -name SOURCES.md | sort > "$work/files.txt"
echo "files: $(wc -l < "$work/files.txt")"

xargs -d '\n' "$bin" type --mime < "$work/files.txt" > "$work/answers.tsv"
echo "== vignette"
python3 score-typeid.py "$work/answers.tsv" --max-wrong 40
for ref in libmagic smi; do
  echo "== $ref (reference column)"
  python3 score-typeid.py --reference "$ref" --max-wrong 0 | sed -n '3,5p'
done

echo "== speed: one process over all files"
if command -v hyperfine >/dev/null; then
  hyperfine -N --warmup 2 --runs 15 --export-json "$work/speed.json" \
    -n vignette "xargs -d '\n' -a $work/files.txt $bin type --mime" \
    -n "file --mime-type" "xargs -d '\n' -a $work/files.txt file --mime-type" >/dev/null
  python3 - "$work/speed.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
v, f = r["vignette"], r["file --mime-type"]
print(f"vignette type --mime : median {v['median']*1000:.1f} ms")
print(f"file --mime-type     : median {f['median']*1000:.1f} ms")
print(f"ratio vignette/file  : {v['median']/f['median']:.2f}x (lower is better)")
PY
else
  best() { local b=999999; for i in 1 2 3 4 5; do s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; e=$(( ($(date +%s%N)-s)/1000000 )); (( e < b )) && b=$e; done; echo $b; }
  v=$(best xargs -d '\n' -a "$work/files.txt" "$bin" type --mime)
  f=$(best xargs -d '\n' -a "$work/files.txt" file --mime-type)
  echo "vignette ${v} ms, file ${f} ms, ratio $(python3 -c "print(f'{$v/$f:.2f}')")x"
fi
