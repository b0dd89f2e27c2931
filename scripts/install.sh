#!/usr/bin/env bash
# Builds a release binary and installs it with its data under PREFIX.
#
#   scripts/install.sh PREFIX            e.g. /usr/local or /opt/vignette
#   STATIC_STDLIB=0 scripts/install.sh   link the Swift runtime dynamically (default: statically,
#                                        as `make release` and the Docker image do; it starts faster)
#
# Layout: PREFIX/bin/vignette, PREFIX/libexec/vignette/vignette-decode (the program the libheif
# and libjxl decoders run in, a fresh process rather than a fork), PREFIX/share/vignette/ (type declarations, shipped
# generators), PREFIX/share/thumbnailers/vignette.thumbnailer (for desktops) and the D-Bus
# activation files of `vignette thumbnailer-service` in PREFIX/share/dbus-1/services/.
# The binary finds its data at ../share/vignette relative to itself.
# `make install` and the Dockerfile both run this script, so its steps are exercised here.
set -euo pipefail
prefix=${1:?usage: scripts/install.sh PREFIX}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
flags=(-c release)
# With the runtime linked in, the Swift driver exports every symbol of the program (30,000) for
# plug-ins it does not have; not exporting them makes each start about 0.7 ms cheaper (the
# runtime's start-up dladdr and the loader walk a table of a few hundred instead).
[[ "${STATIC_STDLIB:-1}" == 1 ]] && flags+=(--static-swift-stdlib -Xlinker --no-export-dynamic)
# libdbus-1's headers without the library, which the D-Bus thumbnailer opens itself.
pkg_config_path=$(scripts/release-pkg-config.sh)
export PKG_CONFIG_PATH=$pkg_config_path
swift build "${flags[@]}" --product vignette
swift build "${flags[@]}" --product vignette-decode
bin=$(swift build "${flags[@]}" --show-bin-path)
install -d "$prefix/bin" "$prefix/libexec/vignette" "$prefix/share/vignette"
install -m 0755 "$bin/vignette" "$prefix/bin/vignette"
install -m 0755 "$bin/vignette-decode" "$prefix/libexec/vignette/vignette-decode"
install -m 0644 Sources/VignetteCore/Resources/UniformTypes.json "$prefix/share/vignette/UniformTypes.json"
if [[ -d Generators ]]; then
  rm -rf "$prefix/share/vignette/Generators"
  cp -R Generators "$prefix/share/vignette/"
  # Desktops (GNOME, Xfce) look for thumbnailers in $XDG_DATA_DIRS/thumbnailers.
  install -d "$prefix/share/thumbnailers"
  install -m 0644 Generators/vignette.thumbnailer "$prefix/share/thumbnailers/vignette.thumbnailer"
fi
# The session bus starts the thumbnailer on demand (org.freedesktop.thumbnails.Thumbnailer1
# and Cache1). A desktop with tumbler installed too gets whichever service file the bus reads
# first: see README, "The D-Bus thumbnailer".
install -d "$prefix/share/dbus-1/services"
for template in scripts/dbus-services/*.service.in; do
  name=$(basename "$template" .in)
  sed "s|@BINDIR@|$prefix/bin|" "$template" >"$prefix/share/dbus-1/services/$name"
  chmod 0644 "$prefix/share/dbus-1/services/$name"
done
echo "installed $prefix/bin/vignette"
