#!/usr/bin/env bash
# Exercises the Dockerfile's steps without a Docker engine (there is none on the build machines):
# the build stage's install script into a temporary prefix, the runtime stage's package list,
# then the installed binary's `serve` started the way the image's ENTRYPOINT starts it, probed
# with the image's HEALTHCHECK command and stopped with SIGTERM (it must exit 0).
#
#   scripts/image-check.sh            static Swift runtime, as in the image
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
pid=
scripts/docker-runtime-deps.sh --check
STATIC_STDLIB=1 scripts/install.sh "$work/opt/vignette" >/dev/null
bin="$work/opt/vignette/bin/vignette"
helper="$work/opt/vignette/libexec/vignette/vignette-decode"
echo "image-check: shared libraries of the installed binary:"
ldd "$bin" | awk '{print "  " $1}'
if ldd "$bin" "$helper" | grep -q 'libswift\|libFoundation'; then
  echo "image-check: the binary needs the Swift runtime, which the runtime stage does not have" >&2
  exit 1
fi
# Every shared library must come from a package the runtime stage gets: the listed ones, what
# apt installs with them, or what debian:bookworm-slim already has (libc6, libgcc-s1, libstdc++6).
mapfile -t runtime < <(scripts/docker-runtime-deps.sh --list)
allowed=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
  --no-enhances "${runtime[@]}" libc6 libgcc-s1 libstdc++6 2>/dev/null | grep -v '^ ' | grep -v '^<' | sort -u)
unlisted=()
while read -r lib; do
  owner=$(dpkg -S "*/$lib" 2>/dev/null | awk -F: '{print $1}' | head -1)
  [[ -n "$owner" ]] && grep -qx "$owner" <<<"$allowed" || unlisted+=("$lib (${owner:-no package})")
done < <(ldd "$bin" "$helper" | awk '$1 ~ /\.so/ && $1 !~ /^linux-vdso/ {n = split($1, p, "/"); print p[n]}' | sort -u)
if ((${#unlisted[@]})); then
  echo "image-check: libraries the runtime stage would not have (add their packages to scripts/docker-runtime-deps.sh): ${unlisted[*]}" >&2
  exit 1
fi
echo "image-check: every library comes from a runtime package or what apt installs with them"
# poppler is loaded with dlopen (ldd cannot see it): a PDF's preview proves it is there.
if ! "$bin" preview Samples/report.pdf | grep -q '^Title: Quarterly thumbnail report$'; then
  echo "image-check: the PDF sample did not preview (is libpoppler-glib8 installed?)" >&2
  exit 1
fi
echo "image-check: PDFs preview through poppler (dlopen'd in vignette-decode)"
# FFmpeg's libraries likewise: the WAV sample's preview proves they are there.
if ! "$bin" preview Samples/chime.wav | grep -q '^Title: Chime$'; then
  echo "image-check: the audio sample did not preview (are libavformat59 and libavcodec59 installed?)" >&2
  exit 1
fi
echo "image-check: audio and video preview through FFmpeg's libraries (dlopen'd in vignette-decode)"
# libheif, libjxl and OpenJPEG decode in the installed helper program (libexec/vignette/vignette-decode).
"$helper" 2>"$work/helper.err" && { echo "image-check: vignette-decode ran without its pipes" >&2; exit 1; }
grep -q 'run by vignette' "$work/helper.err" || { echo "image-check: $helper did not start" >&2; exit 1; }
for f in hopper.avif cropped_traffic_light.jxl test-card-lossless.jp2; do
  if ! "$bin" thumbnail --no-system-thumbnailers -s 64 -o "$work/$f.png" "Tests/VignetteImagingTests/Fixtures/formats/other-images/$f" >/dev/null; then
    echo "image-check: $f did not thumbnail through $helper" >&2
    exit 1
  fi
done
echo "image-check: AVIF, JPEG XL and JPEG 2000 thumbnail through libexec/vignette/vignette-decode"
# libtiff, LittleCMS and libwebp are loaded with dlopen on first use too: a TIFF, a WebP and a
# JPEG with a colour profile (and WebP output) prove they are there.
fx=Tests/VignetteImagingTests/Fixtures
for f in formats/tiff/blue-purple-pink.lzwcompressed.tiff formats/webp/blue-purple-pink.lossless.webp color/prophoto.jpg; do
  if ! "$bin" thumbnail --no-system-thumbnailers --no-fallback -s 64 -f webp -o "$work/codec.webp" "$fx/$f" >/dev/null; then
    echo "image-check: $f did not thumbnail to WebP (are libtiff6, liblcms2-2 and libwebp7 installed?)" >&2
    exit 1
  fi
done
echo "image-check: TIFF, WebP and colour profiles through libtiff, libwebp and LittleCMS (dlopen'd)"
# OpenEXRCore likewise, in the helper program too.
if ! "$bin" thumbnail --no-system-thumbnailers --no-fallback -s 64 -o "$work/exr.png" "$fx/formats/other-images/python.exr" >/dev/null; then
  echo "image-check: python.exr did not thumbnail (is libopenexr-3-1-30 installed?)" >&2
  exit 1
fi
echo "image-check: OpenEXR through OpenEXRCore (dlopen'd in vignette-decode)"
if ! "$bin" thumbnail --no-system-thumbnailers --no-fallback -s 64 -o "$work/jbig.png" "$fx/formats/other-images/ccitt1.jbg" >/dev/null; then
  echo "image-check: ccitt1.jbg did not thumbnail (is libjbig0 installed?)" >&2
  exit 1
fi
echo "image-check: JBIG through libjbig (dlopen'd in vignette-decode)"
if ! "$bin" thumbnail --no-system-thumbnailers --no-fallback -s 64 -o "$work/wmf.png" Tests/VignetteGeneratorsTests/Fixtures/documents/window.wmf >/dev/null; then
  echo "image-check: window.wmf did not thumbnail (is libcairo2 installed?)" >&2
  exit 1
fi
echo "image-check: WMF through cairo (dlopen'd in vignette-decode)"
if ! "$bin" thumbnail --no-system-thumbnailers --no-fallback -s 64 -o "$work/jpegls.png" "$fx/dicom/MR_small_jpeg_ls_lossless.dcm" >/dev/null; then
  echo "image-check: a JPEG-LS DICOM file did not thumbnail (is libcharls2 installed?)" >&2
  exit 1
fi
echo "image-check: JPEG-LS DICOM through CharLS (dlopen'd in vignette-decode)"
# fontconfig is opened on first need too, for the characters DejaVu lacks: a Chinese line must
# come out in a font that has it, not as the boxes that private-use characters get.
printf '中文文本预览\n' >"$work/zh.txt"
printf '\xee\x80\x80\xee\x80\x80\xee\x80\x80\xee\x80\x80\xee\x80\x80\xee\x80\x80\n' >"$work/boxes.txt"
"$bin" thumbnail -s 256 -o "$work/zh.png" "$work/zh.txt" >/dev/null
"$bin" thumbnail -s 256 -o "$work/boxes.png" "$work/boxes.txt" >/dev/null
if cmp -s "$work/zh.png" "$work/boxes.png"; then
  echo "image-check: Chinese text was drawn as boxes (are libfontconfig1 and fonts-wqy-microhei installed?)" >&2
  exit 1
fi
echo "image-check: Chinese text is drawn in the font fontconfig finds (dlopen'd)"
# libdbus-1 is opened by `thumbnailer-service` alone (vgn_dbus_lib.h). With an unloadable
# libdbus-1.so.3 first on the library path, other commands still start, and the service fails
# with a message (not a crash); with the real one, it loads and libdbus refuses the address
# no bus listens on. The address keeps a regression from serving on a real session bus.
mkdir "$work/bad-dbus"
: >"$work/bad-dbus/libdbus-1.so.3"
if ! LD_LIBRARY_PATH="$work/bad-dbus" "$bin" --version >/dev/null 2>&1; then
  echo "image-check: the binary loads libdbus-1 at start (it should be opened on first use)" >&2
  exit 1
fi
# service_refuses MESSAGE [ENV...]: the service exits 1-127 (not killed by a signal) saying MESSAGE.
service_refuses() {
  local expected=$1 status=0
  shift
  env "$@" "$bin" thumbnailer-service --address "unix:path=$work/no-bus" 2>"$work/dbus.err" || status=$?
  if ((status == 0 || status >= 128)) || ! grep -q "$expected" "$work/dbus.err"; then
    echo "image-check: thumbnailer-service $* exited $status without '$expected':" >&2
    cat "$work/dbus.err" >&2
    exit 1
  fi
}
service_refuses 'libdbus-1 cannot be loaded' LD_LIBRARY_PATH="$work/bad-dbus"
service_refuses 'cannot connect to the bus at unix:path='
echo "image-check: libdbus-1 is opened by thumbnailer-service alone (dlopen'd)"
mkdir -p "$work/data"
cp Samples/* "$work/data/" 2>/dev/null || true
port=$((20000 + RANDOM % 20000))
"$bin" serve --host 127.0.0.1 --port "$port" --root "$work/data" >"$work/out" 2>"$work/log" &
pid=$!
for _ in $(seq 100); do
  grep -q listening "$work/out" 2>/dev/null && break
  sleep 0.1
done
"$bin" healthcheck --port "$port"
echo "image-check: healthcheck passed on port $port"
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
pid=
if [[ $status -ne 0 ]]; then echo "image-check: serve exited $status after SIGTERM" >&2; exit 1; fi
echo "image-check: serve stopped cleanly on SIGTERM"
