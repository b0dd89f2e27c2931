#!/usr/bin/env bash
# Builds the held-out "Debian" corpus for content-type (MIME) identification:
# 353 real files taken from 78 Debian 12 (bookworm, amd64) packages, labelled by hand in
# bench/typeid-debian-truth.tsv (what libmagic and shared-mime-info say is in
# bench/typeid-debian-reference.tsv, made by bench/typeid-debian-reference.sh).
#
#   bench/typeid-corpus.sh [OUT_DIR]
#       OUT_DIR   default bench/corpus/typeid-debian (bench/corpus/ is gitignored)
#       TYPEID_DEB_CACHE   where the .debs are kept (default OUT_DIR/../typeid-debian-debs)
#
# For every package below: `apt-get download PKG` into the cache (skipped when a PKG_*.deb is
# already there), `dpkg-deb -x` (data) and `dpkg-deb -e` (the control archive: DEBIAN/postinst,
# control, ...) into a scratch folder, then the listed package-relative files are copied to
#
#   OUT_DIR/<package>/<directory with every / turned into __>/<original file name>
#
# e.g. usr/include/libpng16/png.h of libpng-dev -> OUT_DIR/libpng-dev/usr__include__libpng16/png.h,
# so each file keeps its real name (globs such as README*, Makefile.*, *.so.[0-9]*, *.tar.xz and
# meson.build still apply) and no two files collide.  The truth and reference TSVs name files as
# typeid-debian/<package>/<dir>/<name>.
#
# Deterministic and idempotent: the output is rebuilt from the fixed list on every run (into a
# temporary folder that then replaces OUT_DIR; files keep the modes and mtimes the .deb gives
# them); downloads are skipped when present.  OUT_DIR may only hold a previous run's package
# folders (anything else: the script refuses to replace it).  Nothing is pinned: the versions
# used for the labels are in the comments below, and a different version is reported (the
# labels may then need a look).  No root needed (apt-get download writes to the
# cache folder; run `apt-get update` once on a fresh machine).  About 53 MB of .debs, 35 MB out.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/corpus/typeid-debian}
out=$(mkdir -p "$out" && cd "$out" && pwd)
case $out in /|"") echo "refusing OUT_DIR=$out" >&2; exit 1;; esac
cache=${TYPEID_DEB_CACHE:-$(dirname "$out")/typeid-debian-debs}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
for t in apt-get dpkg-deb; do command -v "$t" >/dev/null || { echo "missing $t" >&2; exit 1; }; done

# package, and (comment) the version the labels were made from (Debian 12 as updated when labelled)
packages=(
  alsa-utils                   # 1.2.8-1
  apache2-data                 # 2.4.71-1~deb12u1
  autopoint                    # 0.21-12
  bash-completion              # 1:2.11-6
  ca-certificates              # 20250419~deb12u2
  cron                         # 3.0pl1-162
  cups-common                  # 2.4.2-3+deb12u9
  cups-filters                 # 1.28.17-3+deb12u2
  debconf                      # 1.5.82
  debian-archive-keyring       # 2023.3+deb12u2
  distro-info-data             # 0.58+deb12u7
  dmz-cursor-theme             # 0.4.5
  e2fsprogs                    # 1.47.0-2+b2
  elpa-dash                    # 2.19.1+git20220608.1.0ac1ecf+dfsg-1
  fontconfig-config            # 2.14.1-4
  fonts-cantarell              # 0.303.1-1
  fonts-dejavu-core            # 2.37-6
  gdal-data                    # 3.6.2+dfsg-1
  gettext                      # 0.21-12
  gir1.2-glib-2.0              # 1.74.0-3
  groff-base                   # 1.22.4-10
  gsettings-desktop-schemas    # 43.0-1
  gtk-doc-tools                # 1.33.2-1
  ibus-table-latex             # 1.3.15+ds-1
  icewm-common                 # 3.3.1-1
  libc6                        # 2.36-9+deb12u14
  libc6-dev                    # 2.36-9+deb12u14
  libexpat1-dev                # 2.5.0-1+deb12u5
  libgirepository1.0-dev       # 1.74.0-3
  libglib2.0-dev               # 2.74.6-2+deb12u9
  libglib2.0-tests             # 2.74.6-2+deb12u9
  libgs10-common               # 10.0.0~dfsg-11+deb12u9
  libhamcrest-java             # 2.2-1
  libjs-jquery                 # 3.6.1+dfsg+~3.5.14-1
  libjson-perl                 # 4.10000-1
  libjsr305-java               # 0.1~+svn49-11
  liblua5.4-dev                # 5.4.4-3+deb12u1
  libmagic-mgc                 # 1:5.44-3
  libpng-dev                   # 1.6.39-2+deb12u6
  libpng16-16                  # 1.6.39-2+deb12u6
  libpython3.11-dev            # 3.11.2-6+deb12u9
  libpython3.11-testsuite      # 3.11.2-6+deb12u9
  librust-cfg-if-dev           # 1.0.0-1
  librust-serde-dev            # 1.0.152-2
  libsdl2-tests                # 2.26.5+dfsg-1
  libtcl8.6                    # 8.6.13+dfsg-2
  libtk8.6                     # 8.6.13-2
  locales                      # 2.36-9+deb12u14
  lua-ldoc                     # 1.4.6-2
  lua-penlight                 # 1.13.1-3
  mkdocs                       # 1.4.2+dfsg-2
  nano                         # 7.2-1+deb12u1
  ncurses-base                 # 6.4-4
  ncurses-term                 # 6.4-4
  node-semver                  # 7.3.5+~7.3.9-2
  publicsuffix                 # 20230209.2326-1
  python-matplotlib-data       # 3.6.3-1
  python3-apt                  # 2.6.0
  python3-certifi              # 2022.9.24-1
  python3-docutils             # 0.19+dfsg-6
  python3-icalendar            # 4.0.3-5
  python3-lxml                 # 4.9.2-1+deb12u1
  python3-pip-whl              # 23.0.1+dfsg-1
  python3-yaml                 # 6.0-3+b2
  quilt                        # 0.67+really0.66-1
  rake                         # 13.0.6-3
  rsync                        # 3.5.0+ds1-0+deb12u1
  shared-mime-info             # 2.2-1
  sound-theme-freedesktop      # 0.8-2
  sphinx-rtd-theme-common      # 1.2.0+dfsg-1
  tzdata                       # 2026f-0+deb12u1
  xbitmaps                     # 1.1.1-2.2
  xfonts-encodings             # 1:1.0.4-2.2
  xfonts-scalable              # 1:1.0.3-1.3
  xfonts-terminus              # 4.48-3.1
  xterm                        # 379-1
  yamllint                     # 1.29.0-1
  zlib1g-dev                   # 1:1.2.13.dfsg-1
)

# package  package-relative path (regular files only; one a line)
read -r -d '' files <<'LIST' || true
# ---- C / C++ sources and headers
zlib1g-dev usr/include/zlib.h
zlib1g-dev usr/include/zconf.h
libpng-dev usr/include/libpng16/png.h
libexpat1-dev usr/include/expat.h
libc6-dev usr/include/x86_64-linux-gnu/bits/auxv.h
libgirepository1.0-dev usr/include/gobject-introspection-1.0/gitypes.h
libpython3.11-dev usr/include/python3.11/pyconfig.h
libglib2.0-dev usr/include/glib-2.0/glib/glib-autocleanups.h
liblua5.4-dev usr/include/lua5.4/lua.hpp
libpython3.11-dev usr/include/python3.11/graminit.h
zlib1g-dev usr/share/doc/zlib1g-dev/examples/gzlog.c
libpng-dev usr/share/doc/libpng-dev/examples/example.c
libglib2.0-dev usr/include/glib-2.0/gobject/gobjectnotifyqueue.c
libpython3.11-dev usr/lib/python3.11/config-3.11-x86_64-linux-gnu/config.c.in
libpython3.11-testsuite usr/lib/python3.11/test/_testcppext.cpp
libtcl8.6 usr/share/tcltk/tcl8.6/tclAppInit.c
cups-common usr/share/cups/drv/sample.drv
cups-filters usr/share/cups/ppdc/pcl.h
libc6-dev usr/include/x86_64-linux-gnu/bits/stab.def
# ---- Python
yamllint usr/bin/yamllint
gtk-doc-tools usr/bin/gtkdoc-mkdb
rsync usr/bin/rrsync
rsync usr/share/rsync/scripts/atomic-rsync
yamllint usr/lib/python3/dist-packages/yamllint/cli.py
python3-certifi usr/lib/python3/dist-packages/certifi/core.py
python3-docutils usr/lib/python3/dist-packages/docutils/languages/af.py
gtk-doc-tools usr/share/gtk-doc/python/gtkdoc/scangobj.py
libpython3.11-testsuite usr/lib/python3.11/test/test_print.py
python3-apt usr/lib/python3/dist-packages/apt_pkg-stubs/__init__.pyi
libc6-dev usr/share/gdb/auto-load/lib/x86_64-linux-gnu/libc.so.6-gdb.py
python3-lxml usr/lib/python3/dist-packages/lxml/etree.pyx
python3-lxml usr/lib/python3/dist-packages/lxml/apihelpers.pxi
libpython3.11-testsuite usr/lib/python3.11/test/tokenize_tests-utf8-coding-cookie-and-no-utf8-bom-sig.txt
bash-completion usr/share/bash-completion/completions/btdownloadheadless.py
# ---- Perl
debconf usr/bin/debconf-show
debconf usr/share/perl5/Debconf/Db.pm
libjson-perl usr/share/perl5/JSON.pm
libjson-perl usr/share/doc/libjson-perl/examples/bench_decode.pl
cron usr/share/doc/cron/examples/crontab2english.pl
mkdocs usr/share/perl5/Debian/Debhelper/Sequence/mkdocs.pm
# ---- Ruby
rake usr/bin/rake
rake usr/share/rubygems-integration/all/gems/rake-13.0.6/lib/rake.rb
rake usr/share/rubygems-integration/all/gems/rake-13.0.6/doc/jamis.rb
# ---- shell
cron etc/init.d/cron
cron DEBIAN/postinst
libpng-dev usr/bin/libpng16-config
gettext usr/bin/gettextize
debconf usr/share/debconf/confmodule.sh
bash-completion etc/profile.d/bash_completion.sh
alsa-utils usr/share/alsa/utils.sh
gettext usr/share/gettext/projects/GNOME/team-address
libpython3.11-dev usr/lib/python3.11/config-3.11-x86_64-linux-gnu/install-sh
bash-completion usr/share/bash-completion/completions/update-rc.d
libglib2.0-tests usr/libexec/installed-tests/glib/x-content/unix-software/autorun.sh
libglib2.0-tests usr/libexec/installed-tests/glib/echo-script.bat
# ---- Tcl / Lua / JS / TS / Emacs Lisp
libtcl8.6 usr/share/tcltk/tcl8.6/clock.tcl
libtk8.6 usr/lib/tcltk/x86_64-linux-gnu/tk8.6/pkgIndex.tcl
gettext usr/share/gettext/msgunfmt.tcl
libtk8.6 usr/share/tcltk/tk8.6/msgs/el.msg
lua-ldoc usr/bin/ldoc
lua-penlight usr/share/lua/5.1/pl/Map.lua
lua-penlight usr/share/lua/5.1/pl/strict.lua
lua-ldoc usr/share/lua/5.1/ldoc/html/ldoc_css.lua
python-matplotlib-data usr/share/matplotlib/mpl-data/kpsewhich.lua
libjs-jquery usr/share/javascript/jquery/jquery.js
node-semver usr/share/nodejs/semver/bin/semver.js
mkdocs usr/lib/python3/dist-packages/mkdocs/contrib/search/prebuild-index.js
sphinx-rtd-theme-common usr/share/sphinx_rtd_theme/static/js/theme.js
node-semver usr/share/nodejs/@types/semver/index.d.ts
elpa-dash usr/share/emacs/site-lisp/elpa-src/dash-2.19.1/dash.el
gtk-doc-tools usr/share/emacs/site-lisp/gtk-doc-tools/gtk-doc.el
# ---- Rust / Markdown / TOML / YAML / JSON
librust-cfg-if-dev usr/share/cargo/registry/cfg-if-1.0.0/src/lib.rs
librust-serde-dev usr/share/cargo/registry/serde-1.0.152/build.rs
librust-serde-dev usr/share/cargo/registry/serde-1.0.152/src/de/format.rs
librust-cfg-if-dev usr/share/cargo/registry/cfg-if-1.0.0/Cargo.toml
librust-serde-dev usr/share/cargo/registry/serde-1.0.152/Cargo.toml
librust-cfg-if-dev usr/share/cargo/registry/cfg-if-1.0.0/README.md
librust-serde-dev usr/share/cargo/registry/serde-1.0.152/README.md
fonts-dejavu-core usr/share/doc/fonts-dejavu-core/README.md
librust-cfg-if-dev usr/share/cargo/registry/cfg-if-1.0.0/.cargo_vcs_info.json
librust-serde-dev usr/share/cargo/registry/serde-1.0.152/.cargo-checksum.json
node-semver usr/share/nodejs/semver/package.json
gdal-data usr/share/gdal/gdalmdiminfo_output.schema.json
libjs-jquery usr/share/javascript/jquery/jquery.min.map
libpython3.11-testsuite usr/lib/python3.11/test/test_zoneinfo/data/zoneinfo_data.json
yamllint usr/lib/python3/dist-packages/yamllint/conf/default.yaml
librust-cfg-if-dev usr/share/cargo/registry/cfg-if-1.0.0/.github/workflows/main.yml
mkdocs usr/lib/python3/dist-packages/mkdocs/themes/mkdocs/mkdocs_theme.yml
python3-yaml usr/share/doc/python3-yaml/examples/yaml-highlight/yaml_hl.cfg
# ---- CSS / HTML / XML family
gtk-doc-tools usr/share/gtk-doc/data/style.css
sphinx-rtd-theme-common usr/share/sphinx_rtd_theme/static/css/badge_only.css
mkdocs usr/lib/python3/dist-packages/mkdocs/themes/readthedocs/css/theme_extra.css
lua-ldoc usr/share/doc/lua-ldoc/html/ldoc_pale.css
zlib1g-dev usr/share/doc/zlib1g-dev/examples/zlib_how.html
quilt usr/share/doc/quilt/quilt.html
nano usr/share/doc/nano/faq.html
shared-mime-info usr/share/doc/shared-mime-info/shared-mime-info-spec.html/index.html
apache2-data usr/share/apache2/default-site/index.html
apache2-data usr/share/apache2/error/include/spacer.html
apache2-data usr/share/apache2/error/HTTP_NOT_FOUND.html.var
mkdocs usr/lib/python3/dist-packages/mkdocs/themes/mkdocs/404.html
sphinx-rtd-theme-common usr/share/sphinx_rtd_theme/search.html
icewm-common usr/share/doc/icewm-common/html/icesh.1.html
libexpat1-dev usr/share/doc/libexpat1-dev/expat.html/reference.html
lua-ldoc usr/share/doc/lua-ldoc/html/index.html
fontconfig-config etc/fonts/fonts.conf
fonts-cantarell usr/share/metainfo/org.gnome.cantarell.metainfo.xml
gdal-data usr/share/gdal/gml_registry.xml
gdal-data usr/share/gdal/gdalvrt.xsd
mkdocs usr/lib/python3/dist-packages/mkdocs/templates/sitemap.xml
libhamcrest-java usr/share/maven-repo/org/hamcrest/hamcrest-all/debian/hamcrest-all-debian.pom
python3-lxml usr/lib/python3/dist-packages/lxml/isoschematron/resources/rng/iso-schematron.rng
libgirepository1.0-dev usr/share/gir-1.0/gir-1.2.rnc
shared-mime-info usr/share/mime/packages/freedesktop.org.xml
gtk-doc-tools usr/share/gtk-doc/data/devhelp2.xsl
python3-lxml usr/lib/python3/dist-packages/lxml/isoschematron/resources/xsl/RNG2Schtrn.xsl
libpython3.11-testsuite usr/lib/python3.11/test/xmltestdata/c14n-20/doc.xsl
fontconfig-config usr/share/xml/fontconfig/fonts.dtd
libglib2.0-dev usr/share/glib-2.0/schemas/gschema.dtd
gtk-doc-tools usr/share/help/C/gtk-doc-manual/index.docbook
gtk-doc-tools usr/share/help/C/gtk-doc-manual/fdl-appendix.xml
libglib2.0-tests usr/libexec/installed-tests/glib/bookmarks/valid-01.xbel
libgirepository1.0-dev usr/share/gir-1.0/DBus-1.0.gir
gsettings-desktop-schemas usr/share/glib-2.0/schemas/org.gnome.desktop.interface.gschema.xml
gsettings-desktop-schemas usr/share/glib-2.0/schemas/org.gnome.desktop.enums.xml
# ---- SVG
xterm usr/share/icons/hicolor/scalable/apps/xterm-color.svg
apache2-data usr/share/apache2/icons/apache_pb.svg
python-matplotlib-data usr/share/matplotlib/mpl-data/images/filesave.svg
gdal-data usr/share/gdal/GDALLogoColor.svg
ibus-table-latex usr/share/ibus-table/icons/latex.svg
# ---- config / ini / desktop / units / misc text formats
xterm usr/share/applications/debian-xterm.desktop
libglib2.0-tests usr/libexec/installed-tests/glib/desktop-files/usr/applications/invalid-desktop.desktop
dmz-cursor-theme usr/share/icons/DMZ-White/index.theme
sound-theme-freedesktop usr/share/sounds/freedesktop/index.theme
cron lib/systemd/system/cron.service
e2fsprogs lib/systemd/system/e2scrub_all.timer
e2fsprogs lib/systemd/system/e2scrub@.service
libglib2.0-tests usr/libexec/installed-tests/glib/services/org.freedesktop.portal.Documents.service
e2fsprogs etc/mke2fs.conf
xterm etc/X11/app-defaults/UXTerm
nano usr/share/nano/makefile.nanorc
gettext usr/share/gettext/projects/TP/teams.url
# ---- build files
libpython3.11-dev usr/lib/python3.11/config-3.11-x86_64-linux-gnu/Makefile
gettext usr/share/gettext/po/Makefile.in.in
quilt usr/share/quilt/quilt.debbuild.mk
ca-certificates usr/share/doc/ca-certificates/examples/ca-certificates-local/debian/rules
gtk-doc-tools usr/share/doc/gtk-doc-tools/examples/Makefile.am
libexpat1-dev usr/lib/x86_64-linux-gnu/cmake/expat-2.5.0/expat-config.cmake
gtk-doc-tools usr/lib/cmake/GtkDoc/GtkDocConfigVersion.cmake
bash-completion usr/share/cmake/bash-completion/bash-completion-config.cmake
gettext usr/share/aclocal/gettext.m4
libexpat1-dev usr/share/aclocal/expat.m4
libgirepository1.0-dev usr/share/doc/libgirepository1.0-dev/examples/girepository/meson.build
zlib1g-dev usr/lib/x86_64-linux-gnu/pkgconfig/zlib.pc
librust-cfg-if-dev usr/share/cargo/registry/cfg-if-1.0.0/debian/patches/drop-compiler-builtins.patch
# ---- troff / man / info / gettext
groff-base usr/share/groff/1.22.4/tmac/an.tmac
groff-base usr/share/groff/1.22.4/tmac/an-ext.tmac
groff-base usr/share/groff/1.22.4/tmac/www.tmac
groff-base etc/groff/man.local
rake usr/share/rubygems-integration/all/gems/rake-13.0.6/doc/rake.1
cron usr/share/man/man5/crontab.5.gz
e2fsprogs usr/share/man/man8/mke2fs.8.gz
libjson-perl usr/share/man/man3/JSON.3pm.gz
gettext usr/share/man/man1/msgfmt.1.gz
gettext usr/share/info/gettext.info.gz
gettext usr/share/locale/de/LC_MESSAGES/gettext-tools.mo
mkdocs usr/lib/python3/dist-packages/mkdocs/themes/mkdocs/locales/ja/LC_MESSAGES/messages.mo
icewm-common usr/share/locale/en/LC_MESSAGES/icewm.mo
cups-common usr/share/cups/locale/de/cups_de.po
cups-filters usr/share/cups/ppdc/fr-braille.po
# ---- documentation text
debconf usr/share/doc/debconf/copyright
cron usr/share/doc/cron/README
cron usr/share/doc/cron/TODO.Debian
ca-certificates usr/share/doc/ca-certificates/examples/ca-certificates-local/debian/changelog
libpython3.11-testsuite usr/lib/python3.11/test/test_email/data/msg_07.txt
libpython3.11-testsuite usr/lib/python3.11/test/test_email/data/msg_16.txt
publicsuffix usr/share/publicsuffix/public_suffix_list.dat
libpython3.11-testsuite usr/lib/python3.11/test/cfgparser.1
libpython3.11-testsuite usr/lib/python3.11/test/empty.vbs
gdal-data usr/share/gdal/esri_StatePlane_extra.wkt
libsdl2-tests usr/libexec/installed-tests/SDL2/utf8.txt
libpython3.11-testsuite usr/lib/python3.11/test/cjkencodings/iso2022_kr.txt
python-matplotlib-data usr/share/matplotlib/mpl-data/sample_data/membrane.dat
ncurses-base usr/share/tabset/vt100
mkdocs usr/lib/python3/dist-packages/mkdocs-1.4.2.dist-info/RECORD
# ---- Debian control data
debconf DEBIAN/control
e2fsprogs DEBIAN/preinst
# ---- CSV / calendars
distro-info-data usr/share/distro-info/debian.csv
python-matplotlib-data usr/share/matplotlib/mpl-data/sample_data/msft.csv
gdal-data usr/share/gdal/gt_datum.csv
python-matplotlib-data usr/share/matplotlib/mpl-data/sample_data/Stocks.csv
python3-icalendar usr/lib/python3/dist-packages/icalendar/tests/america_new_york.ics
python3-icalendar usr/lib/python3/dist-packages/icalendar/tests/time.ics
python3-icalendar usr/lib/python3/dist-packages/icalendar/tests/encoding.ics
# ---- ELF executables, shared objects, objects, static libs
cron usr/sbin/cron
xterm usr/bin/xterm
rsync usr/bin/rsync
e2fsprogs sbin/mke2fs
nano bin/nano
gettext usr/bin/msgfmt
libsdl2-tests usr/libexec/installed-tests/SDL2/checkkeys
libglib2.0-tests usr/libexec/installed-tests/glib/gvariant
libc6 lib/x86_64-linux-gnu/libc.so.6
libc6 lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
libpng16-16 usr/lib/x86_64-linux-gnu/libpng16.so.16.39.0
libtcl8.6 usr/lib/x86_64-linux-gnu/libtcl8.6.so
libc6 usr/lib/x86_64-linux-gnu/gconv/BIG5.so
python3-yaml usr/lib/python3/dist-packages/yaml/_yaml.cpython-311-x86_64-linux-gnu.so
libglib2.0-tests usr/libexec/installed-tests/glib/libresourceplugin.so
libc6-dev usr/lib/x86_64-linux-gnu/crt1.o
libc6-dev usr/lib/x86_64-linux-gnu/crti.o
libpython3.11-dev usr/lib/python3.11/config-3.11-x86_64-linux-gnu/python.o
zlib1g-dev usr/lib/x86_64-linux-gnu/libz.a
libpng-dev usr/lib/x86_64-linux-gnu/libpng16.a
libexpat1-dev usr/lib/x86_64-linux-gnu/libexpat.a
liblua5.4-dev usr/lib/x86_64-linux-gnu/liblua5.4-c++.a
libglib2.0-tests usr/libexec/installed-tests/glib/libgdbus-example-objectmanager.a
libc6-dev usr/lib/x86_64-linux-gnu/libmcheck.a
libc6-dev usr/lib/x86_64-linux-gnu/libpthread.a
libc6-dev usr/lib/x86_64-linux-gnu/libc.so
libc6-dev usr/lib/x86_64-linux-gnu/libm.a
# ---- Java
libhamcrest-java usr/share/java/hamcrest-2.2.jar
libjsr305-java usr/share/java/jsr305-0.1~+svn49.jar
gettext usr/share/gettext/javaversion.class
# ---- other binary data formats
gir1.2-glib-2.0 usr/lib/x86_64-linux-gnu/girepository-1.0/GLib-2.0.typelib
libglib2.0-tests usr/libexec/installed-tests/glib/test.gresource
libc6 usr/lib/x86_64-linux-gnu/gconv/gconv-modules.cache
libmagic-mgc usr/lib/file/magic.mgc
libglib2.0-tests usr/libexec/installed-tests/glib/4096-random-bytes
libjs-jquery usr/share/javascript/jquery/jquery.min.js.brotli
python-matplotlib-data usr/share/matplotlib/mpl-data/sample_data/axes_grid/bivariate_normal.npy
python-matplotlib-data usr/share/matplotlib/mpl-data/sample_data/eeg.dat
libsdl2-tests usr/libexec/installed-tests/SDL2/moose.dat
gdal-data usr/share/gdal/seed_2d.dgn
gdal-data usr/share/gdal/header.dxf
ibus-table-latex usr/share/ibus-table/tables/latex.db
ibus-table-latex usr/share/ibus-table/tables/mathwriter-ibus.db
libpython3.11-testsuite usr/lib/python3.11/test/pstats.pck
# ---- keys / certificates
debian-archive-keyring usr/share/keyrings/debian-archive-bookworm-automatic.gpg
debian-archive-keyring usr/share/keyrings/debian-archive-removed-keys.gpg
debian-archive-keyring etc/apt/trusted.gpg.d/debian-archive-bookworm-security-automatic.asc
ca-certificates usr/share/ca-certificates/mozilla/ISRG_Root_X1.crt
python3-certifi usr/lib/python3/dist-packages/certifi/cacert.pem
libpython3.11-testsuite usr/lib/python3.11/test/capath/ceff1710.0
libglib2.0-tests usr/libexec/installed-tests/glib/cert-tests/cert1.pem
libglib2.0-tests usr/libexec/installed-tests/glib/cert-tests/key.pem
libglib2.0-tests usr/libexec/installed-tests/glib/cert-tests/key-cert-password-123.p12
libpython3.11-testsuite usr/lib/python3.11/test/revocation.crl
# ---- terminfo / zoneinfo
ncurses-base lib/terminfo/l/linux
ncurses-base lib/terminfo/x/xterm-xfree86
ncurses-base lib/terminfo/s/screen-256color
ncurses-term usr/share/terminfo/l/linux2.6
ncurses-term usr/share/terminfo/s/st-0.8
ncurses-term usr/share/terminfo/t/terminology-1.8.1
ncurses-term usr/share/terminfo/a/ansi.sys
tzdata usr/share/zoneinfo/Europe/Paris
tzdata usr/share/zoneinfo/America/New_York
tzdata usr/share/zoneinfo/Etc/UTC
tzdata usr/share/zoneinfo/right/Europe/Paris
tzdata usr/share/zoneinfo/right/Asia/Tokyo
libglib2.0-tests usr/libexec/installed-tests/glib/time-zones/Amsterdam-fat
libglib2.0-tests usr/libexec/installed-tests/glib/time-zones/Amsterdam-slim
# ---- fonts
fonts-dejavu-core usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
python-matplotlib-data usr/share/matplotlib/mpl-data/fonts/ttf/DejaVuSerif-Italic.ttf
fonts-cantarell usr/share/fonts/opentype/cantarell/Cantarell-Bold.otf
fonts-cantarell usr/share/fonts/opentype/cantarell/Cantarell-Regular.otf
mkdocs usr/lib/python3/dist-packages/mkdocs/themes/readthedocs/css/fonts/Roboto-Slab-Bold.woff
mkdocs usr/lib/python3/dist-packages/mkdocs/themes/readthedocs/css/fonts/lato-normal.woff
sphinx-rtd-theme-common usr/share/sphinx_rtd_theme/static/fonts/Lato-Bold.woff2
mkdocs usr/lib/python3/dist-packages/mkdocs/themes/readthedocs/css/fonts/Roboto-Slab-Regular.woff2
xfonts-scalable usr/share/fonts/X11/Type1/c0419bt_.pfb
python-matplotlib-data usr/share/matplotlib/mpl-data/fonts/pdfcorefonts/Helvetica.afm
groff-base usr/share/groff/1.22.4/font/devps/freeeuro.pfa
xfonts-scalable usr/share/fonts/X11/Type1/c0582bt_.afm
python-matplotlib-data usr/share/matplotlib/mpl-data/fonts/afm/cmr10.afm
xfonts-terminus usr/share/fonts/X11/misc/ter-u12b_iso-8859-1.pcf.gz
icewm-common usr/share/icewm/themes/Infadel2/snap.pcf
# ---- images
libpng-dev usr/share/doc/libpng-dev/examples/pngtest.png
gtk-doc-tools usr/share/gtk-doc/data/home.png
xterm usr/share/icons/hicolor/48x48/apps/xterm-color.png
python-matplotlib-data usr/share/matplotlib/mpl-data/images/back_large.png
ibus-table-latex usr/share/ibus-table/icons/mathwriter.png
libglib2.0-tests usr/libexec/installed-tests/glib/thumbnails/valid.png
libglib2.0-tests usr/libexec/installed-tests/glib/thumbnails/bad-header.png
libglib2.0-tests usr/libexec/installed-tests/glib/thumbnails/header-only.png
libglib2.0-tests usr/libexec/installed-tests/glib/thumbnails/header-and-chunk-size.png
python-matplotlib-data usr/share/matplotlib/mpl-data/sample_data/grace_hopper.jpg
icewm-common usr/share/icewm/IceWM.jpg
icewm-common usr/share/icewm/themes/NanoBlue/eos.jpg
libtk8.6 usr/share/tcltk/tk8.6/images/logo100.gif
libtk8.6 usr/share/tcltk/tk8.6/images/tai-ku.gif
apache2-data usr/share/apache2/icons/alert.black.gif
libtk8.6 usr/share/tcltk/tk8.6/images/pwrdLogo.eps
xterm usr/share/pixmaps/xterm-color_48x48.xpm
icewm-common usr/share/icewm/icons/about_16x16.xpm
libgs10-common usr/share/ghostscript/10.00.0/lib/gs_l.xpm
libgs10-common usr/share/ghostscript/10.00.0/lib/gs_l.xbm
xbitmaps usr/include/X11/bitmaps/terminal
xbitmaps usr/include/X11/bitmaps/xlogo16
mkdocs usr/lib/python3/dist-packages/mkdocs/themes/mkdocs/img/favicon.ico
mkdocs usr/lib/python3/dist-packages/mkdocs/themes/readthedocs/img/favicon.ico
libsdl2-tests usr/libexec/installed-tests/SDL2/icon.bmp
libsdl2-tests usr/libexec/installed-tests/SDL2/sample.bmp
libsdl2-tests usr/libexec/installed-tests/SDL2/axis.bmp
dmz-cursor-theme usr/share/icons/DMZ-White/cursors/left_ptr
dmz-cursor-theme usr/share/icons/DMZ-Black/cursors/watch
dmz-cursor-theme usr/share/icons/DMZ-White/cursors/xterm
# ---- audio
sound-theme-freedesktop usr/share/sounds/freedesktop/stereo/message.oga
sound-theme-freedesktop usr/share/sounds/freedesktop/stereo/dialog-warning.oga
sound-theme-freedesktop usr/share/sounds/freedesktop/stereo/service-login.oga
alsa-utils usr/share/sounds/alsa/Front_Center.wav
alsa-utils usr/share/sounds/alsa/Noise.wav
libsdl2-tests usr/libexec/installed-tests/SDL2/sample.wav
libpython3.11-testsuite usr/lib/python3.11/test/Sine-1000Hz-300ms.aif
libpython3.11-testsuite usr/lib/python3.11/test/audiotest.au
libpython3.11-testsuite usr/lib/python3.11/test/audiodata/pluck-pcm24.aiff
libpython3.11-testsuite usr/lib/python3.11/test/sndhdrdata/sndhdr.hcom
# ---- documents: PDF / PostScript / PPD / ODF
cups-filters usr/share/cups/data/default-testpage.pdf
cups-filters usr/share/cups/data/classified.pdf
quilt usr/share/doc/quilt/quilt.pdf
python-matplotlib-data usr/share/matplotlib/mpl-data/images/home.pdf
groff-base usr/share/groff/1.22.4/font/devps/prologue
libgs10-common usr/share/ghostscript/10.00.0/lib/align.ps
libgs10-common usr/share/ghostscript/10.00.0/Resource/Init/gs_fonts.ps
libgs10-common usr/share/ghostscript/10.00.0/Resource/Init/gs_agl.ps
libgs10-common usr/share/ghostscript/10.00.0/Resource/CIDFont/ArtifexBullet
cups-filters usr/share/ppd/cupsfilters/Generic-PDF_Printer-PDF.ppd
libgs10-common usr/share/ghostscript/10.00.0/lib/cbjc600.ppd
cups-filters usr/share/cups/data/form_english_in.odt
# ---- compressed
cron usr/share/doc/cron/changelog.Debian.gz
zlib1g-dev usr/share/doc/zlib1g-dev/crc-doc.1.0.pdf.gz
locales usr/share/i18n/charmaps/UTF-8.gz
locales usr/share/i18n/charmaps/ISO-8859-15.gz
xfonts-encodings usr/share/fonts/X11/encodings/iso8859-13.enc.gz
xterm usr/share/doc/xterm/ctlseqs.ms.gz
python3-lxml usr/share/doc/python3-lxml/README.rst.gz
autopoint usr/share/gettext/archive.dir.tar.xz
# ---- archives
python3-pip-whl usr/share/python-wheels/pip-23.0.1-py3-none-any.whl
libpython3.11-testsuite usr/lib/python3.11/test/test_importlib/data/example-21.12-py3.6.egg
libpython3.11-testsuite usr/lib/python3.11/test/zipdir.zip
libpython3.11-testsuite usr/lib/python3.11/test/test_importlib/namespace_pkgs/nested_portion1.zip
python-matplotlib-data usr/share/matplotlib/mpl-data/sample_data/goog.npz
libpython3.11-testsuite usr/lib/python3.11/test/recursion.tar
libpython3.11-testsuite usr/lib/python3.11/test/testtar.tar
# ---- empty files
sphinx-rtd-theme-common usr/share/sphinx_rtd_theme/static/fonts/RobotoSlab-Bold.ttf
sphinx-rtd-theme-common usr/share/sphinx_rtd_theme/static/js/modernizr.min.js
libglib2.0-tests usr/libexec/installed-tests/glib/x-content/win32-software/autorun.exe
libglib2.0-tests usr/libexec/installed-tests/glib/x-content/image-dcf/DCIM/Camera/20130831_203925.jpg
libglib2.0-tests usr/libexec/installed-tests/glib/empty
mkdocs usr/lib/python3/dist-packages/mkdocs/py.typed
gtk-doc-tools usr/share/gtk-doc/python/gtkdoc/__init__.py
libpython3.11-testsuite usr/lib/python3.11/test/nullcert.pem
libglib2.0-tests usr/libexec/installed-tests/glib/bookmarks/fail-01.xbel
LIST

declare -A want_version=(
  [alsa-utils]='1.2.8-1'
  [apache2-data]='2.4.71-1~deb12u1'
  [autopoint]='0.21-12'
  [bash-completion]='1:2.11-6'
  [ca-certificates]='20250419~deb12u2'
  [cron]='3.0pl1-162'
  [cups-common]='2.4.2-3+deb12u9'
  [cups-filters]='1.28.17-3+deb12u2'
  [debconf]='1.5.82'
  [debian-archive-keyring]='2023.3+deb12u2'
  [distro-info-data]='0.58+deb12u7'
  [dmz-cursor-theme]='0.4.5'
  [e2fsprogs]='1.47.0-2+b2'
  [elpa-dash]='2.19.1+git20220608.1.0ac1ecf+dfsg-1'
  [fontconfig-config]='2.14.1-4'
  [fonts-cantarell]='0.303.1-1'
  [fonts-dejavu-core]='2.37-6'
  [gdal-data]='3.6.2+dfsg-1'
  [gettext]='0.21-12'
  [gir1.2-glib-2.0]='1.74.0-3'
  [groff-base]='1.22.4-10'
  [gsettings-desktop-schemas]='43.0-1'
  [gtk-doc-tools]='1.33.2-1'
  [ibus-table-latex]='1.3.15+ds-1'
  [icewm-common]='3.3.1-1'
  [libc6]='2.36-9+deb12u14'
  [libc6-dev]='2.36-9+deb12u14'
  [libexpat1-dev]='2.5.0-1+deb12u5'
  [libgirepository1.0-dev]='1.74.0-3'
  [libglib2.0-dev]='2.74.6-2+deb12u9'
  [libglib2.0-tests]='2.74.6-2+deb12u9'
  [libgs10-common]='10.0.0~dfsg-11+deb12u9'
  [libhamcrest-java]='2.2-1'
  [libjs-jquery]='3.6.1+dfsg+~3.5.14-1'
  [libjson-perl]='4.10000-1'
  [libjsr305-java]='0.1~+svn49-11'
  [liblua5.4-dev]='5.4.4-3+deb12u1'
  [libmagic-mgc]='1:5.44-3'
  [libpng-dev]='1.6.39-2+deb12u6'
  [libpng16-16]='1.6.39-2+deb12u6'
  [libpython3.11-dev]='3.11.2-6+deb12u9'
  [libpython3.11-testsuite]='3.11.2-6+deb12u9'
  [librust-cfg-if-dev]='1.0.0-1'
  [librust-serde-dev]='1.0.152-2'
  [libsdl2-tests]='2.26.5+dfsg-1'
  [libtcl8.6]='8.6.13+dfsg-2'
  [libtk8.6]='8.6.13-2'
  [locales]='2.36-9+deb12u14'
  [lua-ldoc]='1.4.6-2'
  [lua-penlight]='1.13.1-3'
  [mkdocs]='1.4.2+dfsg-2'
  [nano]='7.2-1+deb12u1'
  [ncurses-base]='6.4-4'
  [ncurses-term]='6.4-4'
  [node-semver]='7.3.5+~7.3.9-2'
  [publicsuffix]='20230209.2326-1'
  [python-matplotlib-data]='3.6.3-1'
  [python3-apt]='2.6.0'
  [python3-certifi]='2022.9.24-1'
  [python3-docutils]='0.19+dfsg-6'
  [python3-icalendar]='4.0.3-5'
  [python3-lxml]='4.9.2-1+deb12u1'
  [python3-pip-whl]='23.0.1+dfsg-1'
  [python3-yaml]='6.0-3+b2'
  [quilt]='0.67+really0.66-1'
  [rake]='13.0.6-3'
  [rsync]='3.5.0+ds1-0+deb12u1'
  [shared-mime-info]='2.2-1'
  [sound-theme-freedesktop]='0.8-2'
  [sphinx-rtd-theme-common]='1.2.0+dfsg-1'
  [tzdata]='2026f-0+deb12u1'
  [xbitmaps]='1.1.1-2.2'
  [xfonts-encodings]='1:1.0.4-2.2'
  [xfonts-scalable]='1:1.0.3-1.3'
  [xfonts-terminus]='4.48-3.1'
  [xterm]='379-1'
  [yamllint]='1.29.0-1'
  [zlib1g-dev]='1:1.2.13.dfsg-1'
)

corpus_name=typeid-corpus
source "$here/tools/typeid-corpus-build.sh"
