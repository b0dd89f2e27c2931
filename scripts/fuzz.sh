#!/usr/bin/env bash
# Builds the libFuzzer harnesses and runs each for a set time; prints runs and executions per
# second per harness, and fails (exit 1) naming the input when one finds a crash, a sanitizer
# report, a timeout or runaway memory.
#
#   scripts/fuzz.sh                      every harness; each group of harnesses gets 10 minutes
#   scripts/fuzz.sh --seconds 30 jpeg    one harness for 30 s
#   scripts/fuzz.sh --smoke              every harness for a few seconds from its seeds (make test)
#   scripts/fuzz.sh --jobs 2             two harnesses at a time
#   scripts/fuzz.sh --list               the harnesses and their groups
#
# C harnesses (Fuzz/c/) are built with clang -fsanitize=fuzzer,address against the shim's
# sources; the Swift ones are the VignetteFuzz product built (release) with -sanitize=fuzzer,address
# (one binary, the harness chosen by VIGNETTE_FUZZ_HARNESS). Everything lands in .build-fuzz/:
# the corpora grown by earlier runs (corpus/<harness>), and findings (findings/<harness>/).
# Seeds come from Tests/ fixtures, Samples/ and Fuzz/seeds/; past findings live in
# Tests/Fixtures/fuzz/<harness>/ and are replayed by FuzzRegressionTests.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=$root/.build-fuzz

# harness:group:kind
harnesses=(
    jpeg:images:c jpeg-dc:images:c png:images:c webp:images:c image-header:images:swift
    image-metadata:images:swift gif:formats:c tiff:formats:c bmp:formats:c psd:formats:c heif:formats:c jxl:formats:c jp2:formats:c icns:formats:c xpm:formats:c qoi:formats:c dds:formats:c legacy:formats:c hdr:formats:c fits:formats:c dpx:formats:c dicom:formats:c xcf:formats:c exr:formats:c jbig:formats:c metafile:formats:c raw:formats:c icc:formats:c
    stream:containers:c zip:containers:swift tar:containers:swift office:containers:swift
    types:types-and-text:swift mime-package:types-and-text:swift type-cache:types-and-text:swift declarations:types-and-text:swift text:types-and-text:swift fallback:types-and-text:swift font:types-and-text:c
    json:previewers:swift csv:previewers:swift markdown:previewers:swift xml:previewers:swift plist:previewers:swift imaginary:previewers:swift mail:previewers:swift rtf:previewers:swift pdf:previewers:swift
)
group_seconds=600
seconds=""
smoke=0
jobs=1
chosen=()
while [ $# -gt 0 ]; do
    case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --smoke) smoke=1; shift ;;
    --jobs) jobs=$2; shift 2 ;;
    --list)
        for h in "${harnesses[@]}"; do IFS=: read -r name group kind <<<"$h"; printf '%-13s %-15s %s\n' "$name" "$group" "$kind"; done
        exit 0 ;;
    -h | --help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) chosen+=("$1"); shift ;;
    esac
done

selected=()
for h in "${harnesses[@]}"; do
    IFS=: read -r name group kind <<<"$h"
    if [ ${#chosen[@]} -eq 0 ] || printf '%s\n' "${chosen[@]}" | grep -qx -e "$name" -e "$group"; then selected+=("$h"); fi
done
if [ ${#selected[@]} -eq 0 ]; then
    echo "fuzz.sh: no harness named ${chosen[*]} (see --list)" >&2
    exit 2
fi

group_size() { local n=0 h; for h in "${harnesses[@]}"; do [[ $h == *":$1:"* ]] && n=$((n + 1)); done; echo $n; }

# ---- build --------------------------------------------------------------------------------
mkdir -p "$out/c"
packages="libjpeg libpng freetype2 zlib liblzma libwebpdemux libtiff-4 libheif libjxl lcms2"
cflags="-g -O1 -fno-omit-frame-pointer -ISources/CVignetteCodecs/include $(pkg-config --cflags $packages)"
libs="$(pkg-config --libs $packages) -lgif -lraw_r -lbz2 -lzstd -ldeflate"
need_swift=0
for h in "${selected[@]}"; do
    IFS=: read -r name group kind <<<"$h"
    if [ "$kind" = swift ]; then need_swift=1; continue; fi
    bin=$out/c/fuzz_${name//-/_}
    src=Fuzz/c/fuzz_${name//-/_}.c
    if [ ! -x "$bin" ] || [ -n "$(find "$src" Sources/CVignetteCodecs -newer "$bin" -print -quit)" ]; then
        echo "building $bin" >&2
        # shellcheck disable=SC2086
        clang $cflags -fsanitize=fuzzer,address -fuse-ld=lld Sources/CVignetteCodecs/*.c "$src" $libs -o "$bin"
    fi
done
if [ $need_swift = 1 ]; then
    echo "building VignetteFuzz (swift, -sanitize=fuzzer,address)" >&2
    swift build -c release --product VignetteFuzz --scratch-path "$out/swift" -Xswiftc -sanitize=fuzzer,address \
        -Xswiftc -D -Xswiftc VIGNETTE_LIBFUZZER 2>&1 | { grep -vE "Cannot export local symbol|^info: " || true; } >&2
fi

# ---- seeds --------------------------------------------------------------------------------
# Files for each harness, at most 256 KiB each (larger seeds slow every mutation down).
seeds() {
    local t=Tests g=Tests/VignetteGeneratorsTests/Fixtures
    case $1 in
    jpeg | jpeg-dc) find $t/VignetteImagingTests/Fixtures/jpeg Samples $t/VignetteServerTests/Fixtures -name '*.jp*g' ;;
    png) find $t/VignetteImagingTests/Fixtures/pngsuite Samples -name '*.png' ;;
    webp) find $t/VignetteImagingTests/Fixtures/webp -name '*.webp' ;;
    gif) find $t/VignetteImagingTests/Fixtures/formats/gif -name '*.gif' ;;
    tiff) find $t/VignetteImagingTests/Fixtures/formats/tiff $t/VignetteImagingTests/Fixtures/color $t/VignetteImagingTests/Fixtures/scaled-tiff -name '*.tif*' ;;
    bmp) find $t/VignetteImagingTests/Fixtures/formats/bmp $t/VignetteImagingTests/Fixtures/formats/ico $t/VignetteImagingTests/Fixtures/formats/other-images \
        -name '*.bmp' -o -name '*.ico' -o -name '*.cur' -o -name '*.tga' -o -name '*.p?m' ;;
    psd) find $t/VignetteImagingTests/Fixtures/formats/other-images $t/VignetteImagingTests/Fixtures/color -name '*.psd' ;; # and Fuzz/seeds/psd: a small CMYK one with its profile
    heif) find $t/VignetteImagingTests/Fixtures/formats/other-images $t/VignetteImagingTests/Fixtures/color -name '*.avif' -o -name '*.hei?' ;;
    jxl) find $t/VignetteImagingTests/Fixtures/formats/other-images $t/VignetteImagingTests/Fixtures/color -name '*.jxl' ;;
    jp2) find $t/VignetteImagingTests/Fixtures/formats/other-images -name '*.jp2' -o -name '*.j2k' ;; # and Fuzz/seeds/jp2: tiled, 12-bit, subsampled, with a profile
    icns | xpm) ;; # Fuzz/seeds/icns (png2icns's old bitmaps and JPEG 2000, a PNG entry), Fuzz/seeds/xpm (XPM3, XPM2, XBM, X10)
    qoi) find $t/VignetteImagingTests/Fixtures/formats/other-images -name '*.qoi' -o -name '*.pfm' ;; # and Fuzz/seeds/qoi
    exr) find $t/VignetteImagingTests/Fixtures/formats/other-images -name '*.exr' ;; # and Fuzz/seeds/exr: FFmpeg's compressions, scanline and tiled by hand
    dds) ;; # Fuzz/seeds/dds: ImageMagick's DXT1/3/5 and uncompressed textures, BC4, BC5 and a DX10 header by hand
    legacy) ;; # Fuzz/seeds/legacy: PCX, SGI and Sun raster of every kind
    xcf) find $t/VignetteImagingTests/Fixtures/xcf -name '*.xcf' ;;
    hdr) ;; # Fuzz/seeds/hdr: ImageMagick's and libvips' run-length coded files, by hand: flat, old-style repeats, mixed, EXPOSURE, CRLF, two orientations (one X-major)
    fits) find $t/VignetteImagingTests/Fixtures/fits -name '*.fits' ;; # and Fuzz/seeds/fits: 64-bit integers, doubles with NaN and infinity, a table before the image, four axes, 8-bit with BZERO and BLANK, astropy's random groups
    dpx) ;; # Fuzz/seeds/dpx: ImageMagick's and FFmpeg's files of Samples/photo.jpg (10-, 12- and 16-bit, grey, RGBA, little-endian, 12-bit lines unpadded), by hand: log transfer with packing 2 turned, ABGR
    dicom) find $t/VignetteImagingTests/Fixtures/dicom -name '*.dcm' ;; # and Fuzz/seeds/dicom: dcmtk's implicit, big-endian, RLE, lossless (predictors 4 and 7, a point transform), JPEG-LS (line, planes near-lossless, 16-bit) and baseline files, GDCM's JPEG 2000
    jbig) find $t/VignetteImagingTests/Fixtures/formats/other-images -name '*.jbg' ;; # and Fuzz/seeds/jbig: pbmtojbg's sequential and progressive files
    metafile) find $t/VignetteImagingTests/Fixtures/formats/other-images -name '*.wmf' -o -name '*.emf' ;; # and Fuzz/seeds/metafile: LibreOffice's WMF and EMF, by hand: map modes, a DIB, 65535 handles, huge coordinates, clip rectangles, paths and regions
    raw) find $t/VignetteImagingTests/Fixtures/raw -type f ! -name '*.md' ;;
    icc) ;; # Fuzz/seeds/icc: profiles from Debian's icc-profiles-free
    image-header) find $t/VignetteImagingTests/Fixtures/pngsuite -name 'bas*.png'
        find $t/VignetteImagingTests/Fixtures/jpeg/libjpeg-turbo -name '*.jpg'
        find $t/VignetteImagingTests/Fixtures -name '*.gif' -o -name '*.bmp' -o -name '*.tif*' -o -name '*.webp' -o -name '*.ico'
        find $t/VignetteImagingTests/Fixtures -name '*.avif' -o -name '*.hei?' -o -name '*.jxl' -o -name '*.jp2' -o -name '*.j2k'
        find $t/VignetteImagingTests/Fixtures/headers -type f ! -name '*.md' ;;
    stream) ;; # made below: each compressed fixture behind its selector byte
    zip) find $t/VignetteCoreTests/Fixtures/containers $g/archives -name '*.zip' -o -name '*.jar'; ls Samples/archive.zip ;;
    tar) find $g/archives -name '*.tar*' -o -name '*.gz' -o -name '*.deb' -o -name '*.a'; ls Samples/*.tar.* ;;
    office) find $g/documents $t/VignetteCoreTests/Fixtures/containers -type f ! -name '*.md'; ls Samples/*.docx Samples/*.odt Samples/*.epub ;;
    types) find Samples -maxdepth 1 -type f; find $t/VignetteCoreTests/Fixtures/containers -type f; ls Fuzz/seeds/office/*.doc Fuzz/seeds/office/*.xls ;;
    mime-package) ;; # Fuzz/seeds/mime-package: small packages in the freedesktop schema
    type-cache) ;; # Fuzz/seeds/type-cache: edits of the harness's own whole cache
    declarations) ls Generators/*.json Examples/*/*.json; find $t/VignetteCoreTests/Fixtures -name '*.json' -size -64k ;;
    text) find $t/Fixtures/text -type f ! -name '*.md'; ls Samples/*.txt ;;
    fallback) ls Samples/unknown.bin Samples/logo.png Samples/archive.zip $g/system/* $g/executables/* ;;
    font) find $g/fonts -name '*.ttf' -o -name '*.otf'; ls Samples/*.ttf ;;
    json) ls Samples/*.json ;;
    csv) ls Samples/*.csv Samples/*.tsv ;;
    markdown) ls Samples/*.md ;;
    xml) ls Samples/*.xml Samples/*.html Samples/*.svg ;;
    plist) ls Samples/*.plist Samples/*.yaml Samples/*.toml ;;
    imaginary) ;; # Fuzz/seeds/imaginary: the operations Nextcloud's provider sends
    image-metadata) find $g/exif -name '*.jpg'; ls Samples/logo.png; find $t/VignetteImagingTests/Fixtures/webp -name '*.webp' | head -5 ;;
    pdf) find $g/pdf -name '*.pdf' ;; # and Fuzz/seeds/pdf: encryption dictionaries of every version
    rtf) ;; # Fuzz/seeds/rtf: RTF as LibreOffice, WordPad and TextEdit write it, and Outlook's compressed bodies
    mail) ls Samples/*.eml Samples/*.ics Samples/*.vcf $g/outlook/outer.msg ;;
    esac
    [ -d "Fuzz/seeds/$1" ] && find "Fuzz/seeds/$1" -type f
    [ -d "Tests/Fixtures/fuzz/$1" ] && find "Tests/Fixtures/fuzz/$1" -type f ! -name README.md
    return 0
}

fill_corpus() { # harness, folder
    local name=$1 dir=$2 f
    mkdir -p "$dir"
    while IFS= read -r f; do
        [ -f "$f" ] && [ "$(stat -c %s "$f")" -le 262144 ] && cp -n "$f" "$dir/$(echo "$f" | tr / _)"
    done < <(seeds "$name" 2>/dev/null)
    if [ "$name" = stream ]; then
        # The first byte picks the format (byte % 6: deflate, gzip, bzip2, xz, lzma, zstd).
        local g=Tests/VignetteGeneratorsTests/Fixtures/archives
        { printf '\001'; cat $g/listing.tar.gz; } >"$dir/gzip"
        { printf '\002'; cat $g/listing.tar.bz2; } >"$dir/bzip2"
        { printf '\003'; cat $g/listing.tar.xz; } >"$dir/xz"
        { printf '\004'; cat $g/listing.tar.lzma; } >"$dir/lzma"
        { printf '\005'; cat $g/listing.tar.zst; } >"$dir/zstd"
        { printf '\000'; python3 -c 'import sys,zlib; c=zlib.compressobj(9,zlib.DEFLATED,-15); sys.stdout.buffer.write(c.compress(b"vignette "*200)+c.flush())'; } >"$dir/deflate"
    fi
}

# ---- run ----------------------------------------------------------------------------------
report=$(mktemp)
trap 'rm -f "$report"' EXIT
run_one() { # harness:group:kind
    local name group kind
    IFS=: read -r name group kind <<<"$1"
    local secs=$seconds corpus bin log
    [ -z "$secs" ] && secs=$(((group_seconds + $(group_size "$group") - 1) / $(group_size "$group")))
    if [ $smoke = 1 ]; then
        secs=${seconds:-3}
        corpus=$(mktemp -d)
    else
        corpus=$out/corpus/$name
    fi
    fill_corpus "$name" "$corpus"
    local findings=$out/findings/$name
    mkdir -p "$findings"
    log=$out/logs/$name.log
    mkdir -p "$out/logs"
    local env=() opts=(-timeout=10 -rss_limit_mb=2560 -print_final_stats=1 -artifact_prefix="$findings/")
    if [ "$kind" = c ]; then
        bin=$out/c/fuzz_${name//-/_}
        env=(LSAN_OPTIONS=suppressions=$root/Fuzz/lsan.supp)
        opts+=(-max_len=262144)
    else
        bin=$out/swift/release/VignetteFuzz
        env=(VIGNETTE_FUZZ_HARNESS="$name" ASAN_OPTIONS=detect_leaks=0)
        # Swift's runtime keeps caches for the life of the process: leaks are not findings here.
        # Their inputs are cut at 64 KiB: past that a mutation only costs time.
        opts+=(-detect_leaks=0 -max_len=65536)
    fi
    local rc=0
    env "${env[@]}" "$bin" "${opts[@]}" -max_total_time="$secs" "$corpus" >"$log" 2>&1 || rc=$?
    local runs execs units
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    execs=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    units=$(find "$corpus" -type f | wc -l)
    [ $smoke = 1 ] && rm -rf "$corpus"
    local result=ok
    if [ $rc -ne 0 ]; then
        local found
        found=$(grep -o "Test unit written to .*" "$log" | tail -1 | sed 's/Test unit written to //')
        result="FAILED (exit $rc): ${found:-see $log}"
        grep -m1 -E "ERROR: (AddressSanitizer|libFuzzer)|SUMMARY" "$log" >&2 || true
    fi
    printf '| %-13s | %-15s | %5s s | %10s | %7s | %6s | %s |\n' "$name" "$group" "$secs" "${runs:-?}" "${execs:-?}" "$units" "$result" >>"$report"
    [ $rc -eq 0 ]
}

echo "| harness       | group           | time    | runs       | exec/s  | corpus | result |"
echo "| ------------- | --------------- | ------- | ---------- | ------- | ------ | ------ |"
failed=0
pids=()
for h in "${selected[@]}"; do
    run_one "$h" &
    pids+=($!)
    if [ ${#pids[@]} -ge "$jobs" ]; then
        wait "${pids[0]}" || failed=1
        pids=("${pids[@]:1}")
    fi
done
for p in "${pids[@]}"; do wait "$p" || failed=1; done
cat "$report"
if [ $failed = 1 ]; then
    echo "fuzz.sh: a harness found a problem; reproduce with the harness binary and the input named above (logs in $out/logs/)" >&2
    exit 1
fi
