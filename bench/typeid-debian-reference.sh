#!/usr/bin/env bash
# What libmagic and shared-mime-info say about every file of a Debian type-id corpus
# (made by bench/typeid-corpus.sh, or bench/typeid-corpus2.sh with TYPEID_CORPUS=typeid-debian2),
# in the columns of shared/corpora/typeid-reference.tsv:
#
#   path  libmagic  shared_mime_info  smi_magic_only  size  relation
#
#   [TYPEID_CORPUS=typeid-debian2] bench/typeid-debian-reference.sh [CORPUS_ROOT [OUT_TSV]]
#       TYPEID_CORPUS  the corpus folder's name (default typeid-debian)
#       CORPUS_ROOT    folder holding it (default bench/corpus)
#       OUT_TSV        default bench/$TYPEID_CORPUS-reference.tsv
#
# Columns:
#   libmagic          `file --mime-type -b FILE` (file 5.44, Debian 12's magic.mgc)
#   shared_mime_info  `gio info -a standard::content-type FILE` on the real file, real name
#                     (shared-mime-info 2.2 via GLib 2.74: globs first, then magic)
#   smi_magic_only    the same `gio info` on a byte-identical copy named `x` (no extension,
#                     no glob can match) in a scratch folder: shared-mime-info by content only
#   size              bytes
#   relation          libmagic vs shared_mime_info, as in typeid-reference.tsv:
#                     same | alias (an smi alias of the other) | naming (the same type
#                     spelt differently across the two vocabularies) | subclass (one is an
#                     ancestor of the other in smi's subclass graph, text/* under
#                     text/plain, everything under application/octet-stream) | empty
#                     (zero-byte file) | differ
#
# Needs: file, gio (libglib2.0-bin), shared-mime-info, python3. Run as any user.
# Missing tools: apt-get install file libglib2.0-bin shared-mime-info
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=${1:-$here/corpus}
name=${TYPEID_CORPUS:-typeid-debian}
out=${2:-$here/$name-reference.tsv}
for t in file gio python3; do
  command -v "$t" >/dev/null || { echo "missing $t (apt-get install file libglib2.0-bin shared-mime-info)" >&2; exit 1; }
done
maker=typeid-corpus.sh
[[ $name == typeid-debian2 ]] && maker=typeid-corpus2.sh
[[ -d $root/$name ]] || { echo "no $root/$name: run bench/$maker first" >&2; exit 1; }
export LC_ALL=C

python3 - "$root" "$out" "$name" <<'PY'
import os, shutil, subprocess, sys, tempfile

root, out, name = sys.argv[1], sys.argv[2], sys.argv[3]
rels = []
for d, _, fs in os.walk(os.path.join(root, name)):
    for f in fs:
        rels.append(os.path.relpath(os.path.join(d, f), root))
rels.sort()

def libmagic(paths):
    res = []
    for i in range(0, len(paths), 200):
        chunk = paths[i:i + 200]
        o = subprocess.run(["file", "--mime-type", "-b", "--"] + chunk,
                           capture_output=True, text=True, check=True).stdout.splitlines()
        assert len(o) == len(chunk), "file printed %d lines for %d files" % (len(o), len(chunk))
        res += [x.strip() for x in o]
    return res

def smi(paths):
    res = {}
    for i in range(0, len(paths), 200):
        chunk = paths[i:i + 200]
        o = subprocess.run(["gio", "info", "-a", "standard::content-type"] + chunk,
                           capture_output=True, text=True).stdout
        cur = None
        for line in o.splitlines():
            if line.startswith("local path: "):
                cur = line[len("local path: "):]
            elif line.strip().startswith("standard::content-type:") and cur is not None:
                res[cur] = line.split(":", 3)[-1].strip()
    return [res.get(p, "") for p in paths]

absps = [os.path.abspath(os.path.join(root, r)) for r in rels]
lm = libmagic(absps)
sm = smi(absps)
tmp = tempfile.mkdtemp(prefix="typeid-smi-")
try:
    copies = []
    for n, p in enumerate(absps):
        d = os.path.join(tmp, str(n))
        os.mkdir(d)
        shutil.copyfile(p, os.path.join(d, "x"))
        copies.append(os.path.join(d, "x"))
    mo = smi(copies)
finally:
    shutil.rmtree(tmp)

# --- relation between the libmagic and the smi answer
MIME = "/usr/share/mime"
alias = {}
for line in open(os.path.join(MIME, "aliases")):
    a, c = line.split()
    alias[a] = c
parents = {}
for line in open(os.path.join(MIME, "subclasses")):
    c, p = line.split()
    parents.setdefault(c, set()).add(p)
# the same thing under another vocabulary's name (not smi aliases)
NAMING = {
    "text/x-shellscript": "application/x-shellscript",
    "text/x-script.python": "text/x-python", "text/x-python3": "text/x-python",
    "font/sfnt": "font/ttf", "application/vnd.ms-opentype": "font/otf",
    "image/x-portable-greymap": "image/x-portable-graymap",
    "video/x-flc": "video/x-flic",
    "application/vnd.microsoft.portable-executable": "application/x-ms-dos-executable",
    "text/x-ruby": "application/x-ruby", "text/x-m4": "application/x-m4",
    "text/x-lua": "text/x-lua", "application/x-pie-executable": "application/x-executable",
    "font/x-postscript-pfb": "application/x-font-type1",
    "application/x-java-applet": "application/x-java",
    "image/x-ms-bmp": "image/bmp",
}

def ca(t):
    return alias.get(t, t)

def cn(t):
    t = ca(t)
    return ca(NAMING.get(t, t))

def ancestors(t):
    seen, todo = set(), [ca(t)]
    while todo:
        x = todo.pop()
        for p in parents.get(x, ()):
            p = ca(p)
            if p not in seen:
                seen.add(p)
                todo.append(p)
    if t.startswith("text/") or "text/plain" in seen:
        seen.add("text/plain")
    if not t.startswith("inode/"):
        seen.add("application/octet-stream")
    seen.discard(ca(t))
    return seen

def relation(a, b, size):
    if size == 0:
        return "empty"
    if a == b:
        return "same"
    if ca(a) == ca(b):
        return "alias"
    if cn(a) == cn(b):
        return "naming"
    A, B = cn(a), cn(b)
    if A in {cn(x) for x in ancestors(B)} or B in {cn(x) for x in ancestors(A)}:
        return "subclass"
    return "differ"

with open(out, "w") as f:
    f.write("path\tlibmagic\tshared_mime_info\tsmi_magic_only\tsize\trelation\n")
    for r, p, a, b, c in zip(rels, absps, lm, sm, mo):
        size = os.path.getsize(p)
        f.write("\t".join([r, a, b, c, str(size), relation(a, b, size)]) + "\n")
print("wrote %s (%d files)" % (out, len(rels)), file=sys.stderr)
PY
