"""Runs vignette thumbnail/preview/which on every corpus file; prints a Markdown report."""
import collections, json, os, subprocess, sys, tempfile, time

binary, corpus = sys.argv[1], sys.argv[2]
files = sorted(
    os.path.join(d, f) for d, _, fs in os.walk(corpus) for f in fs
    if f not in ("MANIFEST.tsv", "SOURCES.md") and not f.endswith(".py"))
LIMIT = 2.0
out = tempfile.mkdtemp()
thumb_by, preview_by = collections.Counter(), collections.Counter()
slow, bad, worst = [], [], []
for i, path in enumerate(files):
    rel = os.path.relpath(path, corpus)
    for kind, args in (("thumbnail", ["thumbnail", "-s", "256", path, "-o", os.path.join(out, "t.png")]),
                       ("preview", ["preview", path])):
        start = time.monotonic()
        try:
            r = subprocess.run([binary] + args, capture_output=True, timeout=10, stdin=subprocess.DEVNULL)
            code = r.returncode
            err = r.stderr.decode(errors="replace").strip().splitlines()
        except subprocess.TimeoutExpired:
            code, err = "timeout", []
        took = time.monotonic() - start
        worst.append((took, kind, rel))
        if code != 0:
            bad.append((kind, rel, code, err[-1] if err else ""))
        if took > LIMIT:
            slow.append((kind, rel, took))
    r = subprocess.run([binary, "which", "--json", path], capture_output=True, timeout=30, stdin=subprocess.DEVNULL)
    try:
        w = json.loads(r.stdout)
        thumb_by[w["thumbnail"]["chosen"] or "(none)"] += 1
        preview_by[w["preview"]["chosen"] or "(none)"] += 1
    except Exception:
        thumb_by["(which failed)"] += 1
        preview_by["(which failed)"] += 1

print(f"{len(files)} files, {2 * len(files)} runs; non-zero exits: {len(bad)}; over {LIMIT} s: {len(slow)}")
for kind, rel, code, err in bad:
    print(f"- {kind} {rel}: exit {code}: {err}")
for kind, rel, took in slow:
    print(f"- {kind} {rel}: {took:.2f} s")
worst.sort(reverse=True)
print("\nslowest runs: " + ", ".join(f"{k} {r} {t:.2f} s" for t, k, r in worst[:3]))
print("\n| generator | thumbnails | previews |\n|---|---|---|")
for g in sorted(set(thumb_by) | set(preview_by), key=lambda g: (-(thumb_by[g] + preview_by[g]), g)):
    print(f"| {g} | {thumb_by[g]} | {preview_by[g]} |")
