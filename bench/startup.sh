#!/usr/bin/env bash
# Start-up cost of one-file commands (issue 15): a whole process's life, against the usual peers.
#
#   bench/startup.sh [RUNS]                 default 20 runs of each command, interleaved
#   BASE_BIN=/path/to/old/vignette bench/startup.sh    also times another build (before/after)
#
# Times, in the same run and interleaved so that the machine's noise hits each alike:
#   thumb     vignette thumbnail -s 256 Samples/photo.jpg -o x.png
#   pixbuf    gdk-pixbuf-thumbnailer -s 256 Samples/photo.jpg x.png (the peer of thumb)
#   type      vignette type --mime Samples/notes.txt (and Samples/photo.jpg)
#   file      file --mime-type on the same file (the peer of type)
#   version   vignette --version (the floor: start-up and nothing else)
# with the system MIME database's compiled cache current (a private $XDG_CACHE_HOME for each build, filled
# by a first unrecorded run) and every input in the page cache. Prints the median wall time,
# the median CPU time (user+sys, far less sensitive to the other load on a shared machine),
# the largest peak RSS, and the ratios the issue's acceptance names.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-20}
bin=${VIGNETTE_BIN:-$top/.build/release/vignette}
# The release build as `make release` makes it (static Swift runtime, no libdbus-1 linked).
[[ -x "$bin" ]] || (cd "$top" && PKG_CONFIG_PATH=$(scripts/release-pkg-config.sh) swift build -c release --static-swift-stdlib -Xlinker --no-export-dynamic --product vignette >/dev/null)
command -v gdk-pixbuf-thumbnailer >/dev/null || { echo "needs gdk-pixbuf-thumbnailer (libgdk-pixbuf2.0-bin)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$bin" "${BASE_BIN:-}" "$top/Samples" "$work" "$runs" <<'PY'
import os, statistics, subprocess, sys, time
binary, base, samples, work, runs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
photo, notes = samples + "/photo.jpg", samples + "/notes.txt"
# Each build gets its own cache folder: the compiled type cache is keyed by the executable, so
# two builds sharing one would each find the other's and rebuild it on every turn.
envs = {}

def commands(prefix, exe):
    envs[prefix] = dict(os.environ, XDG_CACHE_HOME=work + "/cache-" + (prefix or "new"))
    return {
        prefix + "thumb": [exe, "thumbnail", "-s", "256", photo, "-o", work + "/x.png"],
        prefix + "type-text": [exe, "type", "--mime", notes],
        prefix + "type-jpeg": [exe, "type", "--mime", photo],
        prefix + "version": [exe, "--version"],
    }

cases = commands("", binary)
cases["pixbuf"] = ["gdk-pixbuf-thumbnailer", "-s", "256", photo, work + "/p.png"]
cases["file-text"] = ["file", "--mime-type", notes]
cases["file-jpeg"] = ["file", "--mime-type", photo]
if base:
    cases.update(commands("base-", base))

def run(argv):
    start = time.perf_counter()
    env = envs["base-" if argv[0] == base and base != binary else ""]
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = (time.perf_counter() - start) * 1000
    if status != 0:
        sys.exit(f"failed ({status}): {' '.join(argv)}")
    return wall, (usage.ru_utime + usage.ru_stime) * 1000, usage.ru_maxrss / 1024

for argv in cases.values():  # fills the MIME cache, warms the page cache
    run(argv)
wall = {k: [] for k in cases}
cpu = {k: [] for k in cases}
rss = {k: 0.0 for k in cases}
for _ in range(runs):
    for name, argv in cases.items():
        w, c, r = run(argv)
        wall[name].append(w)
        cpu[name].append(c)
        rss[name] = max(rss[name], r)
mw = {k: statistics.median(v) for k, v in wall.items()}
mc = {k: statistics.median(v) for k, v in cpu.items()}
print(f"{runs} runs each, interleaved; medians")
print(f"{'command':16} {'wall ms':>8} {'cpu ms':>8} {'max RSS MB':>11}")
for k in cases:
    print(f"{k:16} {mw[k]:8.1f} {mc[k]:8.1f} {rss[k]:11.1f}")
print()
print(f"{'ratio':32} {'wall':>6} {'cpu':>6}  target")
def ratio(label, a, b, target):
    print(f"{label:32} {mw[a]/mw[b]:6.2f} {mc[a]/mc[b]:6.2f}  <= {target}")
ratio("thumb / pixbuf", "thumb", "pixbuf", "1.0")
ratio("type-text / file-text", "type-text", "file-text", "2.0")
ratio("type-jpeg / file-jpeg", "type-jpeg", "file-jpeg", "2.0")
if base:
    for k in ("thumb", "type-text", "type-jpeg", "version"):
        ratio(f"{k} / base-{k}", k, "base-" + k, "-")
PY
