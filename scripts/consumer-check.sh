#!/usr/bin/env bash
# Proves Vignette can be depended on by version: clones the committed HEAD of this repository
# into a temporary folder, tags the clone with the release number, and builds and runs
# Examples/ThumbnailSize (a package that names Vignette by URL and `from:` version, declares a
# type and registers an in-process generator) against that clone. Fails with a clear message,
# leaves nothing behind. Used by `make consumer-check` and `make test`.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
JOBS=${JOBS:-$(nproc)}
VERSION=$(sed -n 's/.*static let string = "\(.*\)".*/\1/p' "$ROOT/Sources/VignetteCore/Support/VignetteVersion.swift")
[[ -n $VERSION ]] || { echo "consumer-check: no version in Sources/VignetteCore/Support/VignetteVersion.swift" >&2; exit 1; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/vignette-consumer.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# The package's identity comes from the last path component: the clone must be named "vignette".
git clone --quiet --no-hardlinks "$ROOT" "$WORK/vignette"
git -C "$WORK/vignette" tag --force "$VERSION" >/dev/null
cp -R "$ROOT/Examples/ThumbnailSize" "$WORK/consumer"
cd "$WORK/consumer"
echo "consumer-check: building Examples/ThumbnailSize against vignette $VERSION (a tagged clone of $(git -C "$ROOT" rev-parse --short HEAD))"
if ! VIGNETTE_PACKAGE_URL="$WORK/vignette" swift build --scratch-path "$WORK/build" -j "$JOBS" >"$WORK/build.log" 2>&1; then
  tail -n 40 "$WORK/build.log" >&2
  echo "consumer-check: FAILED: Examples/ThumbnailSize does not build against vignette $VERSION (log above)" >&2
  exit 1
fi
if grep -q "unsafeFlags\|unsafe build flags" "$WORK/build.log"; then
  echo "consumer-check: FAILED: SwiftPM refused unsafe flags in the dependency" >&2
  exit 1
fi
# Runs ThumbnailSize on FILE under strace (its execs into $WORK/execs), prints its line and checks
# that the line starts with EXPECTED.
thumbnail() {
  local file=$1 expected=$2 out
  out=$(strace -f -e trace=execve -o "$WORK/execs" "$WORK/build/debug/ThumbnailSize" swatch-types.json "$file") || {
    echo "consumer-check: FAILED: ThumbnailSize exited non-zero on $(basename "$file"): $out" >&2
    exit 1
  }
  echo "$out"
  if [[ $out != "$expected"* ]]; then
    echo "consumer-check: FAILED: expected a line starting \"$expected\"" >&2
    exit 1
  fi
}
thumbnail sunrise.swatch "thumbnail: 256 × 26 from generator com.example.swatch for com.example.swatch"
# An AVIF decodes in a child process. The package ships no vignette-decode, so the child must start
# as ThumbnailSize itself (the shim answers for the helper before main), not as a fork of it.
[[ ! -e $WORK/build/debug/vignette-decode ]] || { echo "consumer-check: FAILED: vignette-decode was built for the package" >&2; exit 1; }
thumbnail "$WORK/vignette/Tests/VignetteImagingTests/Fixtures/formats/other-images/hopper.avif" \
  "thumbnail: 128 × 128 from generator image for public.avif"
if ! grep -q 'execve("/proc/self/exe", \["vignette-decode (started as the ' "$WORK/execs"; then
  echo "consumer-check: FAILED: the AVIF's decoder did not start as ThumbnailSize itself; the program's execs:" >&2
  grep execve "$WORK/execs" >&2
  exit 1
fi
echo "consumer-check: ok: a package depending on vignette from: \"$VERSION\" built, registered its generator and made a thumbnail; its AVIF decoder started as the program itself"
