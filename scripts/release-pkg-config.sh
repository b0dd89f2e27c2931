#!/usr/bin/env bash
# Prints the PKG_CONFIG_PATH of release builds: `PKG_CONFIG_PATH=$(scripts/release-pkg-config.sh) swift build -c release ...`.
#
# It puts first a dbus-1.pc with the real one's Cflags and no Libs. Package.swift takes
# libdbus-1's headers from pkg-config (they are not in the standard paths, and SwiftPM allows no
# -I flag of ours), which adds -ldbus-1, and the library is opened on first use instead
# (Sources/CVignetteDBus/vgn_dbus_lib.h). Linked, libdbus-1 and the five libraries it loads
# cost every process about 0.7 ms. `-Xlinker --as-needed` cannot drop it: the Swift driver puts
# every -Xlinker flag after the -l flags.
set -euo pipefail
dir=$(cd "$(dirname "$0")/.." && pwd)/.build/pkgconfig-release
mkdir -p "$dir"
cflags=$(pkg-config --cflags dbus-1)
version=$(pkg-config --modversion dbus-1)
printf 'Name: dbus-1\nDescription: libdbus-1 headers only (scripts/release-pkg-config.sh)\nVersion: %s\nCflags: %s\n' \
  "$version" "$cflags" >"$dir/dbus-1.pc.$$"
mv "$dir/dbus-1.pc.$$" "$dir/dbus-1.pc"
echo "$dir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
