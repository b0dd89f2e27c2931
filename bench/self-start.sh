#!/usr/bin/env bash
# The cost of the children starting as the caller's own executable (what a program using the
# library gets without vignette-decode) against vignette-decode: `vignette batch --out --jobs 1`
# over 20 AVIF (libheif's child) and 20 PDF (poppler's child) copies, once with the release
# build's vignette-decode beside the binary and once with the binary copied alone. Rounds
# interleave the two; prints each way's median and the ratio.
#
#   bench/self-start.sh [ROUNDS]     default 9
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-9}
[[ -x .build/release/vignette && -x .build/release/vignette-decode ]] || make release >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/alone" "$work/in"
cp .build/release/vignette "$work/alone/"
cp -r .build/release/*.resources "$work/alone/"
for i in $(seq 1 20); do
    cp Tests/VignetteImagingTests/Fixtures/formats/other-images/hopper.avif "$work/in/h$i.avif"
    cp Tests/VignetteGeneratorsTests/Fixtures/external/minimal-document.pdf "$work/in/d$i.pdf"
done
run() { # BINARY: milliseconds for one batch into an empty folder
    rm -rf "$work/out"
    local start end
    start=$(date +%s%N)
    "$1" batch --out "$work/out" --jobs 1 "$work/in" >/dev/null
    end=$(date +%s%N)
    [[ $(find "$work/out" -type f | wc -l) == 40 ]] || { echo "self-start: $1 did not make 40 thumbnails" >&2; exit 1; }
    echo $(((end - start) / 1000000))
}
helper=() alone=()
for _ in $(seq 1 "$rounds"); do
    helper+=("$(run .build/release/vignette)")
    alone+=("$(run "$work/alone/vignette")")
done
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}'; }
h=$(median "${helper[@]}") a=$(median "${alone[@]}")
echo "40 files, batch --jobs 1, $rounds rounds (load $(cut -d' ' -f1 /proc/loadavg))"
echo "children as vignette-decode      median $h ms  1.00x"
awk -v a="$a" -v h="$h" 'BEGIN{printf "children as the vignette binary   median %d ms  %.2fx\n", a, a/h}'
