#!/usr/bin/env bash
# Several sizes from one decode: three sizes of every corpus photo against the largest alone.
#
#   bench/multisize.sh [RUNS]       default 7 interleaved runs of each; needs the photo corpus
#
# Times `vignette thumbnail -s 64,256,1024 -o DIR` (one decode at 1024, the others resampled
# from it) against `vignette thumbnail -s 1024 -o DIR` over the 32 corpus photos (one process
# each, all cores), and, for scale, three separate runs at 64, 256 and 1024. Prints medians and
# ratios; the issue's bar is three sizes <= 1.3x the largest alone. The same for the cache:
# `vignette batch --flavor normal,large,x-large` against `--flavor x-large` alone (empty cache
# each run).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
runs=${1:-7}
corpus=${CORPUS_DIR:-$here/corpus}
bin=${VIGNETTE_BIN:-$here/../.build/release/vignette}
[[ -x $bin ]] || (cd "$here/.." && swift build -c release >/dev/null)
[[ -d $corpus/jpeg ]] || "$here/make-corpus.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$bin" "$work" "$runs" "$corpus"/jpeg/* <<'PY'
import statistics, subprocess, sys, time, shutil, os
binary, work, runs, photos = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
def run(sizes):
    out = f"{work}/out"
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    start = time.perf_counter()
    subprocess.run([binary, "thumbnail", "-s", sizes, "-o", out + "/"] + photos, check=True)
    return time.perf_counter() - start
variants = {"1024 alone": ["1024"], "64,256,1024 one decode": ["64,256,1024"], "64 + 256 + 1024 separately": ["64", "256", "1024"]}
times = {k: [] for k in variants}
def batch(flavors):
    cache = f"{work}/cache"
    shutil.rmtree(cache, ignore_errors=True)
    start = time.perf_counter()
    subprocess.run([binary, "batch", "--flavor", flavors, os.path.dirname(photos[0])], check=True, stdout=subprocess.DEVNULL,
                   env=dict(os.environ, XDG_CACHE_HOME=cache))
    return time.perf_counter() - start
batches = {"batch --flavor x-large": ["x-large"], "batch --flavor normal,large,x-large": ["normal,large,x-large"],
           "batch, each flavor a run": ["normal", "large", "x-large"]}
for name in batches:
    times[name] = []
for _ in range(runs):
    for name, calls in variants.items():
        times[name].append(sum(run(s) for s in calls))
    for name, calls in batches.items():
        times[name].append(sum(batch(f) for f in calls))
for group, first in ((variants, "1024 alone"), (batches, "batch --flavor x-large")):
    base = statistics.median(times[first])
    for name in group:
        m = statistics.median(times[name])
        print(f"{name:36} median {m*1000:7.0f} ms  {m/base:5.2f}x the largest alone")
PY
