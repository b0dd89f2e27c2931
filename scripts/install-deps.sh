#!/usr/bin/env bash
# Installs the Debian packages Vignette needs, or names the missing ones and stops.
#
#   scripts/install-deps.sh            build + run-time packages (what `make demo` needs)
#   scripts/install-deps.sh --test     also what the test suite uses (real consumers and tools)
#
# pkg-config: Package.swift finds the C libraries through it (.systemLibrary targets).
# Nothing is installed when everything is present. Without root or apt-get, the script
# prints the exact `apt-get install` line to run and exits 1.
set -euo pipefail

runtime=(pkg-config bubblewrap libpng-dev libjpeg62-turbo-dev libwebp-dev libgif-dev libtiff-dev libheif-dev libdav1d-dev libjxl-dev libopenjp2-7-dev libcharls-dev libopenexr-dev libjbig-dev libraw-dev liblcms2-dev libfreetype-dev zlib1g-dev libbz2-dev liblzma-dev libzstd-dev libdeflate-dev libdbus-1-dev libfontconfig-dev fonts-dejavu-core fonts-wqy-microhei libpoppler-glib8 libpoppler-cpp0v5 libavformat-dev libavcodec-dev libswscale-dev libavutil-dev)
testing=(shared-mime-info libjpeg-turbo-progs libpng-tools libglib2.0-bin file util-linux chromium libgdk-pixbuf2.0-bin poppler-utils librsvg2-bin libvips-tools webp libheif-examples libjxl-tools libopenjp2-tools icnsutils openexr jbigkit-bin libavif-bin gifsicle libtiff-tools imagemagick libimage-exiftool-perl liblcms2-utils icc-profiles-free libgs-common netpbm libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui dbus-daemon ffmpeg ghostscript strace dcmtk libgdcm-tools)

want=("${runtime[@]}")
if [[ "${1:-}" == "--test" ]]; then want+=("${testing[@]}"); fi

missing=()
for p in "${want[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
((${#missing[@]} == 0)) && exit 0

if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  exit 0
fi
echo "vignette needs these Debian packages: ${missing[*]}" >&2
echo "install them with:  sudo apt-get install ${missing[*]}" >&2
exit 1
