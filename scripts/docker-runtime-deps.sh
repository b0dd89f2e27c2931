#!/usr/bin/env bash
# The Debian packages the vignette binary needs at run time (the container's runtime stage),
# one place for both the Dockerfile and `make image-check`.
#
#   scripts/docker-runtime-deps.sh --list      print them, one a line
#   scripts/docker-runtime-deps.sh --install   apt-get install them (the Dockerfile runs this)
#   scripts/docker-runtime-deps.sh --check     exit 1 naming any that is not installed
set -euo pipefail
# libheif1, libdav1d6, libjxl0.7, libopenjp2-7, libcharls2, libopenexr-3-1-30, libjbig0, libcairo2, libraw20: opened on first use (dlopen), so ldd does not list them
# (libdav1d6 decodes the AV1 of AVIF files for thumbnails itself, vgn_av1.c; libheif needs it too).
# libdbus-1-3: the D-Bus thumbnailer (`vignette thumbnailer-service`), which opens it (dlopen).
# libfontconfig1, fonts-wqy-microhei: text pages draw what DejaVu lacks in the font fontconfig
# finds (dlopen on first need); WenQuanYi Micro Hei has Chinese, Japanese kana and Korean.
# shared-mime-info: the system MIME database Vignette reads besides its own types (851 more).
# libpoppler-glib8, libpoppler-cpp0v5: PDFs (glib: facts and page 1; cpp: pdftotext's text), loaded
# with dlopen in the PDF reader's child process (ldd does not show them; image-check previews a PDF).
# libavformat59 libavcodec59 libswscale6 libavutil57: audio and video, loaded the same way by the
# media reader's child (image-check previews Samples/chime.wav).
packages=(libjpeg62-turbo libpng16-16 libwebp7 libwebpdemux2 libgif7 libtiff6 libheif1 libdav1d6 libjxl0.7 libopenjp2-7 libcharls2 libopenexr-3-1-30 libjbig0 libcairo2 libraw20 liblcms2-2 libfreetype6 zlib1g libbz2-1.0 liblzma5 libzstd1 libdeflate0 libdbus-1-3 libfontconfig1 fonts-dejavu-core fonts-wqy-microhei shared-mime-info libpoppler-glib8 libpoppler-cpp0v5 libavformat59 libavcodec59 libswscale6 libavutil57)

case "${1:---list}" in
  --list) printf '%s\n' "${packages[@]}" ;;
  --install)
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${packages[@]}"
    rm -rf /var/lib/apt/lists/* ;;
  --check)
    missing=()
    for p in "${packages[@]}"; do
      status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
      [[ "$status" == "install ok installed" ]] || missing+=("$p")
    done
    if ((${#missing[@]})); then echo "missing runtime packages: ${missing[*]}" >&2; exit 1; fi ;;
  *) echo "usage: $0 --list|--install|--check" >&2; exit 2 ;;
esac
