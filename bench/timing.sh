# bench/timing.sh - sourced by the format benchmarks (formats.sh, dicom.sh): one timed run and a median.
# The caller sets $out, where each run's output goes as $out/LABEL.log.

# timed LABEL COMMAND -> "wall_s rss_mb" (GNU time's %M: the largest single process); a command that
# exits non-zero is said on stderr, naming its log.
timed() {
    local label=$1 tf t0 t1; shift
    tf=$(mktemp)
    t0=$(date +%s%N)
    /usr/bin/time -f '%M' -o "$tf" bash -c "$*" >"$out/$label.log" 2>&1 || echo "${0##*/}: $label exited non-zero (see $out/$label.log)" >&2
    t1=$(date +%s%N)
    awk -v t0="$t0" -v t1="$t1" -v m="$(tail -1 "$tf")" 'BEGIN{printf "%.3f %.0f\n", (t1-t0)/1e9, m/1024}'
    rm -f "$tf"
}

# median: of the numbers on stdin, one a line.
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
