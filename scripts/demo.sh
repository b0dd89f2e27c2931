#!/usr/bin/env bash
# The demo: runs the main job that exists on Samples/ and says where the output is.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
bin="$top/.build/release/vignette"
out="$top/out/demo"
rm -rf "$out"
mkdir -p "$out"
cd "$top"
find Samples -type f ! -name '*.md' | sort > "$out/files.txt"
status=0
xargs -d '\n' "$bin" type --explain < "$out/files.txt" > "$out/types.txt" 2> "$out/errors.txt" || status=$?
cat "$out/types.txt"
if [[ -s "$out/errors.txt" ]]; then cat "$out/errors.txt" >&2; fi
echo
echo "identified $(wc -l < "$out/files.txt") sample files; output in $out/types.txt"
echo
# Thumbnails of every sample into a folder (the user's thumbnail cache is left alone), with a
# contact sheet; nothing is opened.
# batch ends with "contact sheet: PATH".
"$bin" batch --out "$out/thumbnails" --contact-sheet "$out/contact-sheet.html" Samples || status=$?
exit $status
