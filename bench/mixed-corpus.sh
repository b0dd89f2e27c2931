#!/usr/bin/env bash
# Every file of the mixed corpus through `vignette thumbnail` and `vignette preview`:
# exit status, wall time per run (each must be under 2 s), and which generator answered.
#
#   bench/mixed-corpus.sh [CORPUS_DIR]      (default ../shared/corpora/mixed; release build)
#
# Prints a Markdown report: totals, the slowest runs, any failure, and a table of which
# generator answered how many files (from `vignette which --json`).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
corpus=${1:-$here/../../shared/corpora/mixed}
bin=${VIGNETTE_BIN:-$here/../.build/release/vignette}
[[ -x $bin ]] || (cd "$here/.." && swift build -c release --product vignette >/dev/null)
exec python3 "$here/tools/mixed_corpus.py" "$bin" "$corpus"
