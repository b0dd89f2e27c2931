#!/usr/bin/env bash
# Builds the second held-out "Debian" corpus for content-type (MIME) identification:
# 151 real files taken from 37 Debian 12 (bookworm, amd64) packages, none of which is used by
# the first Debian corpus (bench/typeid-corpus.sh), labelled by hand in
# bench/typeid-debian2-truth.tsv (what libmagic and shared-mime-info say is in
# bench/typeid-debian2-reference.tsv, made by bench/typeid-debian2-reference.sh).
#
#   bench/typeid-corpus2.sh [OUT_DIR]
#       OUT_DIR   default bench/corpus/typeid-debian2 (bench/corpus/ is gitignored)
#       TYPEID_DEB_CACHE   where the .debs are kept (default OUT_DIR/../typeid-debian2-debs)
#
# For every package below: `apt-get download PKG` into the cache (skipped when a PKG_*.deb is
# already there), `dpkg-deb -x` (data) and `dpkg-deb -e` (the control archive: DEBIAN/postinst,
# control, ...) into a scratch folder, then the listed package-relative files are copied to
#
#   OUT_DIR/<package>/<directory with every / turned into __>/<original file name>
#
# e.g. usr/include/bzlib.h of libbz2-dev -> OUT_DIR/libbz2-dev/usr__include/bzlib.h,
# so each file keeps its real name (globs such as README*, *.tar.gz, *.svgz still apply) and no
# two files collide.  The truth and reference TSVs name files as
# typeid-debian2/<package>/<dir>/<name>.
#
# Deterministic and idempotent: the output is rebuilt from the fixed list on every run (into a
# temporary folder that then replaces OUT_DIR; files keep the modes and mtimes the .deb gives
# them); downloads are skipped when present.  OUT_DIR may only hold a previous run's package
# folders (anything else: the script refuses to replace it).  Nothing is pinned: the versions
# used for the labels are in the comments below, and a different version is reported (the
# labels may then need a look).  No root needed (apt-get download writes to the
# cache folder; run `apt-get update` once on a fresh machine).  About 44 MB of .debs, 13 MB out.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/corpus/typeid-debian2}
out=$(mkdir -p "$out" && cd "$out" && pwd)
case $out in /|"") echo "refusing OUT_DIR=$out" >&2; exit 1;; esac
cache=${TYPEID_DEB_CACHE:-$(dirname "$out")/typeid-debian2-debs}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
for t in apt-get dpkg-deb; do command -v "$t" >/dev/null || { echo "missing $t" >&2; exit 1; }; done

# package, and (comment) the version the labels were made from (Debian 12 as updated when labelled)
packages=(
  adwaita-icon-theme           # 43-1
  bash-doc                     # 5.2.15-2
  colord-data                  # 1.4.6-2.2
  fonts-font-awesome           # 5.0.10+really4.7.0~dfsg-4.1
  fonts-liberation2            # 2.1.5-1
  fwupd-tests                  # 2.0.20-1~deb12u2
  gdk-pixbuf-tests             # 2.42.10+dfsg-1+deb12u4
  gjs-tests                    # 1.74.2-1+deb12u1
  hicolor-icon-theme           # 0.17-2
  icc-profiles-free            # 2.0.1+dfsg-1.1
  iso-codes                    # 4.15.0-1
  jq                           # 1.6-2.1+deb12u3
  kbd                          # 2.5.1-1+b1
  libbz2-dev                   # 1.0.8-5+b1
  libffi-dev                   # 3.4.4-1
  libgcab-tests                # 1.5-1
  libjs-mathjax                # 2.7.9+dfsg-1
  librsvg2-tests               # 2.54.7+dfsg-1~deb12u1
  libsdl2-image-tests          # 2.6.3+dfsg-1
  libsoup-3.0-tests            # 3.2.3-0+deb12u2
  libsqlite3-dev               # 3.40.1-2+deb12u2
  libtext-csv-perl             # 2.02-2
  libxml2-dev                  # 2.9.14+dfsg-1.3~deb12u6
  libxmlb-tests                # 0.3.22-1~deb12u1
  media-types                  # 10.0.0
  oxygen-sounds                # 4:5.27.5-2
  pango1.0-tests               # 1.50.12+ds-1
  perl-modules-5.36            # 5.36.0-7+deb12u4
  poppler-data                 # 0.4.12-1
  python3-jinja2               # 3.1.2-1+deb12u3
  python3-pygments             # 2.14.0+dfsg-1
  ruby-rack                    # 2.2.22-0+deb12u2
  sound-icons                  # 0.1-8
  tcl8.6-doc                   # 8.6.13+dfsg-2
  wamerican                    # 2020.12.07-2
  xkb-data                     # 2.35.1-1
  zstd                         # 1.5.4+dfsg2-5
)

# package  package-relative path (regular files only; one a line)
read -r -d '' files <<'LIST' || true
# ---- C headers, m4, pkg-config, build helpers
libbz2-dev usr/include/bzlib.h
libsqlite3-dev usr/include/sqlite3ext.h
libffi-dev usr/include/x86_64-linux-gnu/ffitarget.h
libxml2-dev usr/include/libxml2/libxml/xmlversion.h
libxml2-dev usr/share/aclocal/libxml2.m4
libxml2-dev usr/lib/x86_64-linux-gnu/pkgconfig/libxml-2.0.pc
# ---- shell
libxml2-dev usr/bin/xml2-config
libxml2-dev usr/lib/x86_64-linux-gnu/xml2Conf.sh
fwupd-tests usr/share/installed-tests/fwupd/fwupdtool.sh
bash-doc usr/share/doc/bash/examples/misc/aliasconv.bash
bash-doc usr/share/doc/bash/examples/shellmath/runTests.sh
bash-doc usr/share/doc/bash/examples/functions/autoload.v4.t
# ---- Perl / Python / Ruby / JavaScript
libtext-csv-perl usr/share/perl5/Text/CSV.pm
perl-modules-5.36 usr/share/perl/5.36.0/ExtUtils/xsubpp
perl-modules-5.36 usr/share/perl/5.36.0/Locale/Maketext/TPJ13.pod
wamerican DEBIAN/config
python3-pygments usr/lib/python3/dist-packages/pygments/lexers/_mapping.py
python3-pygments usr/bin/pygmentize
fwupd-tests usr/share/installed-tests/fwupd/build-certs.py
ruby-rack usr/bin/rackup
ruby-rack usr/share/rubygems-integration/all/gems/rack-2.2.22/example/lobster.ru
ruby-rack usr/share/rubygems-integration/all/gems/rack-2.2.22/lib/rack/auth/abstract/handler.rb
gjs-tests usr/libexec/installed-tests/gjs/js/testself.js
gjs-tests usr/libexec/installed-tests/gjs/js/testGIMarshalling.js
gjs-tests usr/libexec/installed-tests/gjs/minijasmine
libjs-mathjax usr/share/javascript/mathjax/extensions/TeX/AMSmath.js
libjs-mathjax usr/share/javascript/mathjax/unpacked/extensions/TeX/mhchem3/mhchem.js
# ---- CSS / SCSS / LESS / HTML / XML
fonts-font-awesome usr/share/fonts-font-awesome/css/font-awesome.css
fonts-font-awesome usr/share/sass/font-awesome/_variables.scss
fonts-font-awesome usr/share/fonts-font-awesome/less/mixins.less
librsvg2-tests usr/libexec/installed-tests/RSVG/fixtures/reftests/css-import.css
bash-doc usr/share/doc/bash/bashref.html
libffi-dev usr/share/doc/libffi8/html/Closure-Example.html
libjs-mathjax usr/share/javascript/mathjax/test/sample-mml.html
iso-codes usr/share/xml/iso-codes/iso_15924.xml
fwupd-tests usr/share/installed-tests/fwupd/fakedevice124.metainfo.xml
fwupd-tests usr/share/installed-tests/fwupd/tests/uf2.builder.xml
gjs-tests usr/share/glib-2.0/schemas/org.gnome.GjsTest.gschema.xml
pango1.0-tests usr/libexec/installed-tests/pango/fonts/fonts.conf
libxmlb-tests usr/libexec/installed-tests/libxmlb/test.xml
pango1.0-tests usr/libexec/installed-tests/pango/markups/valid-13.markup
# ---- SVG
adwaita-icon-theme usr/share/icons/Adwaita/scalable/actions/bookmark-new-symbolic.svg
fonts-font-awesome usr/share/fonts-font-awesome/fonts/fontawesome-webfont.svg
libsdl2-image-tests usr/libexec/installed-tests/SDL2_image/svg.svg
librsvg2-tests usr/libexec/installed-tests/RSVG/fixtures/crash/335-non-svg-toplevel.svg
librsvg2-tests usr/libexec/installed-tests/RSVG/fixtures/crash/785276-short-file.svg
librsvg2-tests usr/libexec/installed-tests/RSVG/fixtures/crash/xml-pi-without-data.svg
librsvg2-tests usr/libexec/installed-tests/RSVG/fixtures/loading/gnome-cool.svgz
librsvg2-tests usr/libexec/installed-tests/RSVG/fixtures/errors/515-too-many-elements.svgz
# ---- JSON / keyfiles / config / data text
iso-codes usr/share/iso-codes/json/iso_4217.json
iso-codes usr/share/iso-codes/json/schema-639-2.json
fonts-font-awesome usr/share/fonts-font-awesome/css/font-awesome.css.map
librsvg2-tests usr/libexec/installed-tests/RSVG/fixtures/primitive_geometries/rect.svg.geom
librsvg2-tests usr/libexec/installed-tests/RSVG/fixtures/geometries/grid.svg.subs
hicolor-icon-theme usr/share/icons/hicolor/index.theme
adwaita-icon-theme usr/share/icons/Adwaita/cursor.theme
fwupd-tests usr/share/fwupd/remotes.d/fwupd-tests.conf
kbd usr/share/doc/kbd/examples/vcstime.service
media-types etc/mime.types
xkb-data usr/share/X11/xkb/keycodes/sgi_vndr/indy
xkb-data usr/share/X11/xkb/geometry/thinkpad
colord-data usr/share/colord/illuminant/CIE-D65.sp
pango1.0-tests usr/libexec/installed-tests/pango/all-unicode.txt
pango1.0-tests usr/libexec/installed-tests/pango/layouts/valid-12.layout
bash-doc usr/share/doc/bash/examples/shellmath/README.md
libjs-mathjax usr/share/doc/libjs-mathjax/README.md
zstd usr/share/doc/zstd/TESTING.md
jq usr/share/doc/jq/README
kbd usr/share/doc/kbd/charsets/iso8859.info
gdk-pixbuf-tests usr/libexec/installed-tests/gdk-pixbuf/test-images/gif-test-suite/test.xmp
# ---- PostScript / PDF
poppler-data usr/share/poppler/cMap/Adobe-Japan1/90ms-RKSJ-V
bash-doc usr/share/doc/bash/bash.pdf
# ---- compressed
tcl8.6-doc usr/share/man/man3/dict.3tcl.gz
libtext-csv-perl usr/share/man/man3/Text::CSV.3pm.gz
libffi-dev usr/share/info/libffi.info.gz
kbd usr/share/doc/kbd/font-formats/font-formats.sgml.gz
fwupd-tests usr/share/installed-tests/fwupd/fakedevice124.jcat
libxmlb-tests usr/libexec/installed-tests/libxmlb/test.xml.gz.gz.gz
libxmlb-tests usr/libexec/installed-tests/libxmlb/test.xml.xz
libxmlb-tests usr/libexec/installed-tests/libxmlb/test.xml.zst
bash-doc usr/share/doc/bash/examples/complete/bashcc-1.0.1.tar.gz
bash-doc usr/share/doc/bash/examples/bash-completion/bash-completion-2.5.tar.xz
libsoup-3.0-tests usr/libexec/installed-tests/libsoup-3.0/brotli-data/compressed.br
libsoup-3.0-tests usr/libexec/installed-tests/libsoup-3.0/brotli-data/corrupt.br
# ---- archives
libgcab-tests usr/libexec/installed-tests/libgcab-1.0/test-none.cab
libgcab-tests usr/libexec/installed-tests/libgcab-1.0/test-signed.cab
libgcab-tests usr/libexec/installed-tests/libgcab-1.0/CVE-2014-9732.cab
fwupd-tests usr/share/installed-tests/fwupd/fakedevice124.cab
fwupd-tests usr/share/installed-tests/fwupd/tests/firmware.zip
# ---- ELF / static libs / other binaries
zstd usr/bin/zstd
jq usr/bin/jq
kbd bin/loadkeys
gjs-tests usr/libexec/installed-tests/gjs/libregress.so
libbz2-dev usr/lib/x86_64-linux-gnu/libbz2.a
fwupd-tests usr/share/installed-tests/fwupd/fwupdx64.efi.signed
fwupd-tests usr/share/installed-tests/fwupd/tests/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c
fwupd-tests usr/share/installed-tests/fwupd/fakedevice124.bin
gjs-tests usr/libexec/installed-tests/gjs/Regress-1.0.typelib
libsoup-3.0-tests usr/libexec/installed-tests/libsoup-3.0/soup-tests.gresource
gdk-pixbuf-tests usr/libexec/installed-tests/gdk-pixbuf/bug775229.pixdata
gdk-pixbuf-tests usr/libexec/installed-tests/gdk-pixbuf/test-images/gif-test-suite/random-image.rgba
gdk-pixbuf-tests usr/libexec/installed-tests/gdk-pixbuf/test-images/gif-test-suite/checkerboard.rgba
# ---- colour profiles
colord-data usr/share/color/icc/colord/AdobeRGB1998.icc
icc-profiles-free usr/share/color/icc/sRGB.icc
# ---- fonts
fonts-liberation2 usr/share/fonts/truetype/liberation2/LiberationMono-Regular.ttf
fonts-font-awesome usr/share/fonts/truetype/font-awesome/fontawesome-webfont.ttf
fonts-font-awesome usr/share/fonts/opentype/font-awesome/FontAwesome.otf
pango1.0-tests usr/libexec/installed-tests/pango/fonts/noto-sans-cjk.ttf
pango1.0-tests usr/libexec/installed-tests/pango/fonts/Cantarell-VF.otf
fonts-font-awesome usr/share/fonts-font-awesome/fonts/fontawesome-webfont.eot
fonts-font-awesome usr/share/fonts-font-awesome/fonts/fontawesome-webfont.woff
fonts-font-awesome usr/share/fonts-font-awesome/fonts/fontawesome-webfont.woff2
# ---- images
libsdl2-image-tests usr/libexec/installed-tests/SDL2_image/sample.avif
libsdl2-image-tests usr/libexec/installed-tests/SDL2_image/sample.jxl
libsdl2-image-tests usr/libexec/installed-tests/SDL2_image/sample.qoi
libsdl2-image-tests usr/libexec/installed-tests/SDL2_image/sample.webp
libsdl2-image-tests usr/libexec/installed-tests/SDL2_image/sample.pcx
libsdl2-image-tests usr/libexec/installed-tests/SDL2_image/sample.xcf
libsdl2-image-tests usr/libexec/installed-tests/SDL2_image/sample.cur
libsdl2-image-tests usr/libexec/installed-tests/SDL2_image/sample.pnm
libsdl2-image-tests usr/libexec/installed-tests/SDL2_image/sample.tga
libsdl2-image-tests usr/libexec/installed-tests/SDL2_image/sample.xpm
libsdl2-image-tests usr/libexec/installed-tests/SDL2_image/svg.bmp
gdk-pixbuf-tests usr/libexec/installed-tests/gdk-pixbuf/test-animation.ani
gdk-pixbuf-tests usr/libexec/installed-tests/gdk-pixbuf/test-images/fail/invalid.3.ico
gdk-pixbuf-tests usr/libexec/installed-tests/gdk-pixbuf/test-images/fail/invalid.1.ico
gdk-pixbuf-tests usr/libexec/installed-tests/gdk-pixbuf/test-images/fail/bug779016-infinite.icns
gdk-pixbuf-tests usr/libexec/installed-tests/gdk-pixbuf/dpi.tiff
gdk-pixbuf-tests usr/libexec/installed-tests/gdk-pixbuf/test-images/fail/bug780269.tif
gdk-pixbuf-tests usr/libexec/installed-tests/gdk-pixbuf/test-images/fail/DoS.tga
gdk-pixbuf-tests usr/libexec/installed-tests/gdk-pixbuf/test-images/fail/invalid.1.ppm
gdk-pixbuf-tests usr/libexec/installed-tests/gdk-pixbuf/test-images/fail/invalid.8.ppm
gdk-pixbuf-tests usr/libexec/installed-tests/gdk-pixbuf/test-images/fail/issue-95-too-short.xpm
gdk-pixbuf-tests usr/libexec/installed-tests/gdk-pixbuf/test-images/fail/bug776694.bmp
gdk-pixbuf-tests usr/libexec/installed-tests/gdk-pixbuf/premature-end.jpg
gdk-pixbuf-tests usr/libexec/installed-tests/gdk-pixbuf/test-images/fail/CVE-2017-2862.jpg
gdk-pixbuf-tests usr/libexec/installed-tests/gdk-pixbuf/test-images/gif-test-suite/gif87a.gif
gdk-pixbuf-tests usr/libexec/installed-tests/gdk-pixbuf/test-images/reftests/bug696331.png.ref.png
adwaita-icon-theme usr/share/icons/Adwaita/16x16/actions/bookmark-new-symbolic.symbolic.png
adwaita-icon-theme usr/share/icons/Adwaita/cursors/watch
libjs-mathjax usr/share/javascript/mathjax/unpacked/jax/output/HTML-CSS/blank.gif
# ---- audio
oxygen-sounds usr/share/sounds/Oxygen-Im-Contact-In.ogg
libjs-mathjax usr/share/javascript/mathjax/unpacked/extensions/a11y/invalid_keypress.ogg
libjs-mathjax usr/share/javascript/mathjax/unpacked/extensions/a11y/invalid_keypress.mp3
sound-icons usr/share/sounds/sound-icons/cembalo-1.wav
# ---- empty files
python3-jinja2 usr/lib/python3/dist-packages/jinja2/py.typed
gdk-pixbuf-tests usr/libexec/installed-tests/gdk-pixbuf/test-images/fail/empty-file.tga
gdk-pixbuf-tests usr/libexec/installed-tests/gdk-pixbuf/test-images/gif-test-suite/empty.icc
librsvg2-tests usr/libexec/installed-tests/RSVG/fixtures/crash/785276-empty.svg
gjs-tests usr/libexec/installed-tests/gjs/js/modules/subA/subB/baz.js
fwupd-tests usr/share/installed-tests/fwupd/tests/America/New_York
LIST

declare -A want_version=(
  [adwaita-icon-theme]='43-1'
  [bash-doc]='5.2.15-2'
  [colord-data]='1.4.6-2.2'
  [fonts-font-awesome]='5.0.10+really4.7.0~dfsg-4.1'
  [fonts-liberation2]='2.1.5-1'
  [fwupd-tests]='2.0.20-1~deb12u2'
  [gdk-pixbuf-tests]='2.42.10+dfsg-1+deb12u4'
  [gjs-tests]='1.74.2-1+deb12u1'
  [hicolor-icon-theme]='0.17-2'
  [icc-profiles-free]='2.0.1+dfsg-1.1'
  [iso-codes]='4.15.0-1'
  [jq]='1.6-2.1+deb12u3'
  [kbd]='2.5.1-1+b1'
  [libbz2-dev]='1.0.8-5+b1'
  [libffi-dev]='3.4.4-1'
  [libgcab-tests]='1.5-1'
  [libjs-mathjax]='2.7.9+dfsg-1'
  [librsvg2-tests]='2.54.7+dfsg-1~deb12u1'
  [libsdl2-image-tests]='2.6.3+dfsg-1'
  [libsoup-3.0-tests]='3.2.3-0+deb12u2'
  [libsqlite3-dev]='3.40.1-2+deb12u2'
  [libtext-csv-perl]='2.02-2'
  [libxml2-dev]='2.9.14+dfsg-1.3~deb12u6'
  [libxmlb-tests]='0.3.22-1~deb12u1'
  [media-types]='10.0.0'
  [oxygen-sounds]='4:5.27.5-2'
  [pango1.0-tests]='1.50.12+ds-1'
  [perl-modules-5.36]='5.36.0-7+deb12u4'
  [poppler-data]='0.4.12-1'
  [python3-jinja2]='3.1.2-1+deb12u3'
  [python3-pygments]='2.14.0+dfsg-1'
  [ruby-rack]='2.2.22-0+deb12u2'
  [sound-icons]='0.1-8'
  [tcl8.6-doc]='8.6.13+dfsg-2'
  [wamerican]='2020.12.07-2'
  [xkb-data]='2.35.1-1'
  [zstd]='1.5.4+dfsg2-5'
)

corpus_name=typeid-corpus2
source "$here/tools/typeid-corpus-build.sh"
