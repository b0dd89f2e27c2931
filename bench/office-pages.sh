#!/usr/bin/env bash
# Office pages drawn from their text (`office-page`) against LibreOffice drawing the same files.
#
#   bench/office-pages.sh [RUNS]     default 5 interleaved runs of each; needs LibreOffice
#
# Writes a report (HTML), a workbook (CSV) and a two-slide deck (flat ODP) and has LibreOffice
# convert them to DOCX, XLSX, PPTX, ODT, ODS, ODP, DOC, XLS, PPT and RTF; the ODF files' embedded
# Thumbnails/thumbnail.png is deleted so both sides draw from the content. Then, interleaved:
# `vignette thumbnail -s 256 -o DIR` on the ten files (one process), and `soffice --headless
# --convert-to png` on the same ten (one process, profile warmed up first) -- what a Nextcloud
# or a file manager without Vignette runs for a document without an embedded preview. Prints
# median wall times, their ratio and each side's peak memory (/usr/bin/time's maximum RSS).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
runs=${1:-5}
bin=${VIGNETTE_BIN:-$here/../.build/release/vignette}
[[ -x $bin ]] || (cd "$here/.." && swift build -c release >/dev/null)
office=$(command -v soffice || command -v libreoffice || true)
[[ -n $office ]] || { echo "office-pages.sh: LibreOffice is not installed (make test-deps installs it)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$work/docs"
cat > "$work/src/report.html" <<'EOF'
<html><head><title>Report for the board</title></head><body>
<h1>Quarterly Report</h1>
<p>Revenue grew &amp; costs fell. The second quarter closed ahead of plan in every region, and the
new product line carried a third of the growth on its own.</p>
<h2>Highlights</h2>
<ul><li>First bullet</li><li>Second bullet</li></ul>
<ol><li>Step one</li><li>Step two</li></ol>
<table border="1"><tr><td>Region</td><td>Sales</td></tr><tr><td>North</td><td>120</td></tr><tr><td>South</td><td>95</td></tr></table>
</body></html>
EOF
python3 - "$work/src/budget.csv" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("Item,Q1,Q2,When\n")
    for i in range(40):
        f.write(f"Line {i},{i * 10.5},{i * 3},2024-03-{i % 28 + 1:02d}\n")
PY
cat > "$work/src/deck.fodp" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.presentation">
<office:body><office:presentation>
<draw:page draw:name="page1"><draw:frame presentation:class="title" svg:x="2cm" svg:y="1cm" svg:width="20cm" svg:height="3cm"><draw:text-box><text:p>Welcome Deck</text:p></draw:text-box></draw:frame>
<draw:frame presentation:class="outline" svg:x="2cm" svg:y="5cm" svg:width="20cm" svg:height="3cm"><draw:text-box><text:p>Opening remarks</text:p></draw:text-box></draw:frame></draw:page>
<draw:page draw:name="page2"><draw:frame presentation:class="title" svg:x="2cm" svg:y="1cm" svg:width="20cm" svg:height="3cm"><draw:text-box><text:p>Second Slide</text:p></draw:text-box></draw:frame></draw:page>
</office:presentation></office:body></office:document>
EOF
profile="-env:UserInstallation=file://$work/profile"
convert() { "$office" "$profile" --headless --norestore --convert-to "$1" --outdir "$work/docs" "$2" > /dev/null 2>&1; }
for job in "docx:MS Word 2007 XML|report.html" "odt|report.html" "doc:MS Word 97|report.html" \
    "xlsx|budget.csv" "ods|budget.csv" "xls|budget.csv" "pptx|deck.fodp" "odp|deck.fodp" "ppt|deck.fodp" \
    "rtf:Rich Text Format|report.html"; do
    convert "${job%%|*}" "$work/src/${job##*|}"
done
for f in "$work"/docs/*.od?; do zip -q -d "$f" Thumbnails/thumbnail.png > /dev/null 2>&1 || true; done
# Names of their own: soffice names each picture after the document's stem, so budget.xls and
# budget.xlsx would both write budget.png.
for f in "$work"/docs/*; do mv "$f" "${f%.*}-${f##*.}.${f##*.}"; done
files=("$work"/docs/*)
[[ ${#files[@]} -eq 10 ]] || { echo "office-pages.sh: LibreOffice wrote ${#files[@]} of the 10 documents" >&2; exit 1; }
# What draws each file: every one should be office-page, or the comparison is not like for like.
for f in "${files[@]}"; do
    printf '%-12s %s\n' "$(basename "$f")" "$("$bin" which "$f" | sed -n 's/^thumbnail: \(.*\) answers$/\1/p')"
done
python3 - "$here/tools" "$bin" "$office" "$profile" "$work" "$runs" "${files[@]}" <<'PY'
import os, shutil, subprocess, sys, time
tools, binary, office, profile, work, runs, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6]), sys.argv[7:]
def timed(argv):
    out = f"{work}/out"
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    argv = [a.replace("OUT", out) for a in argv]
    start = time.perf_counter()
    r = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if r.returncode != 0:
        sys.exit(f"office-pages.sh: {argv[0]} failed: {r.stderr.strip()}")
    pngs = [n for n in os.listdir(out) if n.endswith(".png")]
    if len(pngs) != len(files):
        sys.exit(f"office-pages.sh: {argv[0]} wrote {len(pngs)} of {len(files)} pictures")
    return elapsed, int(r.stderr.strip().splitlines()[-1])
sides = {
    "vignette thumbnail -s 256": [binary, "thumbnail", "-s", "256", "-o", "OUT/"] + files,
    "soffice --convert-to png": [office, profile, "--headless", "--norestore", "--convert-to", "png", "--outdir", "OUT"] + files,
}
sys.path.insert(0, tools)
from interleaved import report
report({name: (lambda argv=argv: timed(argv)) for name, argv in sides.items()}, runs, f"{len(files)} documents")
PY
