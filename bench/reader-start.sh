#!/usr/bin/env bash
# The cost of starting the PDF reader's child as vignette-decode (a fresh program: what vignette
# does since the fork hazard of Tests/c/reader_fork_safety.c) rather than as a fork of the caller,
# on three PDFs, with the caller's heap at 0, 100 and 500 MB.
#
#   bench/reader-start.sh [ROUNDS]     default 30; the release build's vignette-decode
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-30}
helper=$PWD/.build/release/vignette-decode
[[ -x $helper ]] || swift build -c release --product vignette-decode >/dev/null
out=.build-checks
mkdir -p "$out"
packages="libjpeg libpng freetype2 zlib liblzma libwebpdemux libtiff-4 libheif libjxl lcms2"
# shellcheck disable=SC2046,SC2086
clang -O2 -ISources/CVignetteCodecs/include -ISources/CVignetteCodecs $(pkg-config --cflags $packages) \
    Sources/CVignetteCodecs/*.c bench/tools/reader_start.c $(pkg-config --libs $packages) \
    -lgif -lraw_r -lbz2 -lzstd -ldeflate -lm -ldl -lpthread -o "$out/reader_start"
for heap in 0 100 500; do
    for pdf in Tests/VignetteGeneratorsTests/Fixtures/external/minimal-document.pdf \
        Tests/VignetteGeneratorsTests/Fixtures/pdf/crazyones-pdfa.pdf Samples/report.pdf; do
        "$out/reader_start" "$pdf" "$helper" "$rounds" "$heap"
    done
done
