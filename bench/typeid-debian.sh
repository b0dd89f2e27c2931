#!/usr/bin/env bash
# Type-identification accuracy on a held-out corpus of real files from Debian 12 packages.
#
#   bench/typeid-debian.sh [CORPORA_DIR]     default: ../shared/corpora beside the repo (for the scorer)
#   TYPEID_CORPUS=typeid-debian2 bench/typeid-debian.sh    the second held-out corpus (151 files,
#       37 other packages, bench/typeid-corpus2.sh), labelled after the rules were written
#
# The corpus (353 files from 78 packages, bench/corpus/typeid-debian) is made by
# bench/typeid-corpus.sh and labelled by hand in bench/typeid-debian-truth.tsv under the rules of
# ../shared/corpora/typeid-truth-rules.md, independently of Vignette (the labeller never ran it).
# bench/typeid-debian-reference.tsv holds libmagic's and shared-mime-info's answers
# (bench/typeid-debian-reference.sh). This scores `vignette type --mime` with the corpora's
# scorer, then libmagic and shared-mime-info on the same files, then Vignette without the system
# MIME database (--no-system-types), to show what the database adds.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
corpora=${1:-$top/../shared/corpora}
scorer=$(cd "$corpora" && pwd)/score-typeid.py
bin=${VIGNETTE_BIN:-$top/.build/release/vignette}
[[ -x "$bin" ]] || (cd "$top" && swift build -c release >/dev/null)
name=${TYPEID_CORPUS:-typeid-debian}
maker=$top/bench/typeid-corpus.sh
[[ $name == typeid-debian2 ]] && maker=$top/bench/typeid-corpus2.sh
[[ -d "$top/bench/corpus/$name" ]] || bash "$maker"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
truth=$top/bench/$name-truth.tsv
cd "$top/bench/corpus"
tail -n +2 "$truth" | cut -f1 > "$work/files.txt"
echo "files: $(wc -l < "$work/files.txt")"

score() { # name, answers
    echo "== $1"
    python3 "$scorer" --truth "$truth" --max-wrong "${2:-0}" "$work/$1.tsv" | sed -n '3,4p'
}
xargs -d '\n' -a "$work/files.txt" "$bin" type --mime > "$work/vignette.tsv"
echo "== vignette"
python3 "$scorer" --truth "$truth" --max-wrong 40 "$work/vignette.tsv" | sed '1,2d;/^\/usr\/share/d;/^mixed\//d'
for column in libmagic shared_mime_info smi_magic_only; do
    python3 - "$top/bench/$name-reference.tsv" "$column" > "$work/$column.tsv" <<'PY'
import csv, sys
for row in csv.DictReader(open(sys.argv[1]), delimiter="\t"):
    print(row["path"] + "\t" + row[sys.argv[2]])
PY
    score "$column"
done
xargs -d '\n' -a "$work/files.txt" "$bin" type --mime --no-system-types > "$work/vignette-no-system-types.tsv"
score vignette-no-system-types
