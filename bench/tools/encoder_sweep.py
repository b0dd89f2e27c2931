"""bench/encoder-sweep.sh's sweep: argv = vignette binary, work directory (with the built tools), ImageMagick, variants
JSON, photos. A variant: {"tool": "avif_sweep" | "webp_sweep" | "avifenc", "args": [...]}; the first variant of each
format is the base of the paired and time columns."""
import json, math, os, statistics, subprocess, sys, time
from multiprocessing import Pool

import numpy as np
from scipy.ndimage import correlate1d

binary, work, IM, variants_file = sys.argv[1:5]
photos = sys.argv[5:]
if os.environ.get("PHOTOS"):
    photos = photos[: int(os.environ["PHOTOS"])]
variants = json.load(open(variants_file))
if os.environ.get("ONLY"):
    variants = {k: v for k, v in variants.items() if os.environ["ONLY"] in k}
ROUNDS = int(os.environ.get("ROUNDS", 2))


def luma(path, tmp):
    """bench/output-formats.sh's luma: decoded with dwebp / avifdec, flattened on white, BT.601 weights."""
    if path.endswith(".webp"):
        subprocess.run(["dwebp", "-quiet", path, "-ppm", "-o", f"{tmp}/d.ppm"], check=True)
        path = f"{tmp}/d.ppm"
    elif path.endswith(".avif"):
        subprocess.run(["avifdec", path, f"{tmp}/d.png"], check=True, stdout=subprocess.DEVNULL)
        path = f"{tmp}/d.png"
    w, h = map(int, subprocess.run([IM, path, "-format", "%w %h", "info:"], check=True, capture_output=True, text=True).stdout.split())
    raw = subprocess.run([IM, path, "-background", "white", "-flatten", "-depth", "8", "RGB:-"], check=True, capture_output=True).stdout
    return np.frombuffer(raw, dtype=np.uint8).reshape(h, w, 3).astype(np.float64) @ np.array([0.299, 0.587, 0.114])


x = np.arange(11) - 5
KERNEL = np.exp(-(x**2) / (2 * 1.5**2))
KERNEL /= KERNEL.sum()


def blur(a):
    """output-formats.sh's blur (reflect padding, separable 11-tap Gaussian), vectorised."""
    a = np.pad(a, 5, mode="reflect")
    a = correlate1d(a, KERNEL, axis=1)[:, 5:-5]
    return correlate1d(a, KERNEL, axis=0)[5:-5, :]


def ssim(a, b):
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    ma, mb = blur(a), blur(b)
    va, vb, cov = blur(a * a) - ma * ma, blur(b * b) - mb * mb, blur(a * b) - ma * mb
    return float((((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2))).mean())


def command(v, i, out, q):
    ref = f"{work}/{i:02d}"
    w, h = open(f"{ref}.size").read().split()
    if v["tool"] == "avifenc":
        cq = ((100 - q) * 63 + 50) // 100
        return ["avifenc", "-j", "1", "--min", "0", "--max", "63", "-a", "end-usage=q", "-a", f"cq-level={cq}"] + v["args"] + [f"{ref}.png", out]
    return [f"{work}/{v['tool']}", f"{ref}.rgb", w, h, out, str(q)] + v["args"]


def prepare(i):
    src, ref = photos[i], f"{work}/{i:02d}"
    for fmt, extra in (("png", []), ("jpeg", ["-q", "80"])):
        subprocess.run([binary, "thumbnail", *extra, "-s", "256", "-f", fmt, "-o", f"{ref}.{fmt}", src], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([IM, f"{ref}.png", "-depth", "8", f"RGB:{ref}.rgb"], check=True)
    with open(f"{ref}.size", "w") as f:
        f.write(subprocess.run([IM, f"{ref}.png", "-format", "%w %h", "info:"], check=True, capture_output=True, text=True).stdout)
    tmp = f"{work}/p{i}"
    os.makedirs(tmp, exist_ok=True)
    reference = luma(f"{ref}.png", tmp)
    np.save(f"{ref}.npy", reference)
    return os.path.getsize(f"{ref}.jpeg"), ssim(reference, luma(f"{ref}.jpeg", tmp))


def matched(job):
    name, i, target = job
    v = variants[name]
    tmp = f"{work}/m{i}_{abs(hash(name))}"
    os.makedirs(tmp, exist_ok=True)
    reference = np.load(f"{work}/{i:02d}.npy")
    out = f"{tmp}/t." + ("webp" if v["tool"] == "webp_sweep" else "avif")
    lo, hi, best = 1, 100, None
    while lo <= hi:
        q = (lo + hi) // 2
        subprocess.run(command(v, i, out, q), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        size, s = os.path.getsize(out), ssim(reference, luma(out, tmp))
        if s >= target:
            best, hi = (q, size, s), q - 1
        else:
            lo = q + 1
    if best is None:
        subprocess.run(command(v, i, out, 100), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        best = (100, os.path.getsize(out), ssim(reference, luma(out, tmp)))
    return name, i, best


def encode_ms(v, i, q):
    if v["tool"] == "avifenc":
        start = time.perf_counter()
        subprocess.run(command(v, i, f"{work}/t.avif", q), check=True, capture_output=True)
        return (time.perf_counter() - start) * 1e3
    reps = "3" if v["tool"] == "avif_sweep" else "10"
    return float(subprocess.run(command(v, i, "/dev/null", q), env=dict(os.environ, REPS=reps), check=True, capture_output=True, text=True).stdout)


with Pool(2) as pool:
    jpeg = pool.map(prepare, range(len(photos)))
    results = {name: {} for name in variants}
    jobs = [(name, i, jpeg[i][1]) for name in variants for i in range(len(photos))]
    for name, i, best in pool.imap_unordered(matched, jobs):
        results[name][i] = best

fmt_of = lambda v: "webp" if v["tool"] == "webp_sweep" else "avif"
base = {}
for name, v in variants.items():
    base.setdefault(fmt_of(v), name)
    base.setdefault(v["tool"], name)
times = {name: [] for name in variants}
order = list(variants)
for r in range(ROUNDS):
    total = dict.fromkeys(variants, 0.0)
    for i in range(len(photos)):
        for name in order if (r + i) % 2 == 0 else order[::-1]:
            total[name] += encode_ms(variants[name], i, results[name][i][0])
    for name in variants:
        times[name].append(total[name])

n = len(photos)
print(f"{n} photos, 256 px; {ROUNDS} timing rounds")
print("| variant | median × JPEG | mean × JPEG | under the bar | SSIM no lower | paired (geomean × base) | encode time × base |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for name, v in variants.items():
    ratios = [results[name][i][1] / jpeg[i][0] for i in range(n)]
    bar = 0.6 if fmt_of(v) == "webp" else 0.5
    b = base[fmt_of(v)]
    paired = math.exp(statistics.mean(math.log(results[name][i][1] / results[b][i][1]) for i in range(n)))
    tb = base[v["tool"]]
    t = statistics.median(a / c for a, c in zip(times[name], times[tb]))
    print(f"| {name} | {statistics.median(ratios):.3f} | {statistics.mean(ratios):.3f} | {sum(x <= bar for x in ratios)}/{n} | "
          f"{sum(results[name][i][2] >= jpeg[i][1] for i in range(n))}/{n} | {paired:.3f} | {t:.2f}{'' if tb == b else ' (vs ' + tb + ')'} |")
