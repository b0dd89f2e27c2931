#!/usr/bin/env bash
# Checks of the C shim that need C on both sides (Tests/c/*.c): each is built with clang against
# the shim's sources, as the fuzz harnesses are, without sanitizers (AddressSanitizer's shadow
# memory and RLIMIT_DATA do not mix), and run; each prints "ok: …" or what failed and exits 1.
# Used by `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build-checks
mkdir -p "$out"
packages="libjpeg libpng freetype2 zlib liblzma libwebpdemux libtiff-4 libheif libjxl lcms2"
# shellcheck disable=SC2046
cflags="-g -O1 -ISources/CVignetteCodecs/include -ISources/CVignetteCodecs $(pkg-config --cflags $packages)"
libs="$(pkg-config --libs $packages) -lgif -lraw_r -lbz2 -lzstd -ldeflate -lm -ldl -lpthread"
# The helper program the readers start as (vignette-decode), built as the checks are.
# shellcheck disable=SC2086
clang $cflags Sources/CVignetteCodecs/*.c Sources/vignette-decode/main.c $libs -o "$out/vignette-decode"
export VGN_CHECK_HELPER="$PWD/$out/vignette-decode"
status=0
for src in Tests/c/*.c; do
    bin=$out/$(basename "$src" .c)
    # shellcheck disable=SC2086
    clang $cflags Sources/CVignetteCodecs/*.c "$src" $libs -o "$bin"
    printf 'c-checks: %s: ' "$(basename "$src" .c)"
    "$bin" || status=1
done
exit $status
