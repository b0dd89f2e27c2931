#!/usr/bin/env bash
# What reading the system MIME database costs one command.
#
#   bench/mime-load.sh [RUNS]        default 40 runs of each variant, interleaved
#
# Times `vignette type --mime` on one small text file (the process's whole life) in four ways,
# in the same run and interleaved so that the machine's noise hits each alike:
#   without   VIGNETTE_SYSTEM_TYPES=0: built-in types only (the cost before the database)
#   cached    the compiled cache in $XDG_CACHE_HOME/vignette is current (every run but the first)
#   xml       the cache removed before each run: the 2.4 MB of XML read and merged every time
#   file      `file --mime-type` on the same file, the usual peer
# Prints medians and the ratio of each to `without` and to `file`.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-40}
bin=${VIGNETTE_BIN:-$top/.build/release/vignette}
[[ -x "$bin" ]] || (cd "$top" && swift build -c release >/dev/null)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "packages: $(ls /usr/share/mime/packages/*.xml | wc -l) in /usr/share/mime/packages ($(du -ch /usr/share/mime/packages/*.xml | tail -1 | cut -f1))"
python3 - "$bin" "$top/Samples/notes.txt" "$work" "$runs" <<'PY'
import os, statistics, subprocess, sys, time, shutil
binary, sample, work, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
base = dict(os.environ, XDG_CACHE_HOME=work + "/cache")
variants = {
    "without": (dict(base, VIGNETTE_SYSTEM_TYPES="0"), [binary, "type", "--mime", sample], None),
    "cached": (base, [binary, "type", "--mime", sample], None),
    "xml": (base, [binary, "type", "--mime", sample], work + "/cache"),
    "file": (base, ["file", "--mime-type", sample], None),
}
times = {k: [] for k in variants}
subprocess.run(variants["cached"][1], env=base, check=True, stdout=subprocess.DEVNULL)  # fills the cache
for _ in range(runs):
    for name, (env, argv, wipe) in variants.items():
        if wipe:
            shutil.rmtree(wipe, ignore_errors=True)
        start = time.perf_counter()
        subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)
        times[name].append((time.perf_counter() - start) * 1000)
        if wipe:  # leave a current cache for the "cached" variant
            subprocess.run(variants["cached"][1], env=base, check=True, stdout=subprocess.DEVNULL)
med = {k: statistics.median(v) for k, v in times.items()}
print(f"{'variant':8} {'median ms':>10} {'x without':>10} {'x file':>8}")
for k in variants:
    print(f"{k:8} {med[k]:10.1f} {med[k]/med['without']:10.2f} {med[k]/med['file']:8.2f}")
print(f"database cost per command: cached {med['cached']-med['without']:.1f} ms, from XML {med['xml']-med['without']:.1f} ms")
PY
