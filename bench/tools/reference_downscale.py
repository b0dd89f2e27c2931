#!/usr/bin/env python3
"""High-quality reference downscale for bench/quality.sh (numpy only).

usage: reference_downscale.py IN.rgba WIDTH HEIGHT OUT_W OUT_H OUT.rgba

IN.rgba is the full decode as raw 8-bit RGBA (ImageMagick: `convert IN -auto-orient
-depth 8 RGBA:IN.rgba`). The image is resampled with a separable Lanczos-3 filter whose
support is stretched by the scale factor (a true low-pass, as in ImageMagick's -resize or
Pillow's LANCZOS), in float64, on premultiplied alpha, with pixel centres mapped exactly
((o + 0.5) * in/out - 0.5), then rounded to the nearest integer. Output is raw 8-bit RGBA (straight alpha). No shrink-on-load, no box
stage, no integer truncation: the reference the thumbnailers are judged against.
"""
import sys
import numpy as np

def weights(n_in, n_out):
    scale = n_in / n_out
    stretch = max(scale, 1.0)
    support = 3.0 * stretch
    w = np.zeros((n_out, n_in))
    for o in range(n_out):
        c = (o + 0.5) * scale - 0.5
        lo, hi = max(0, int(np.ceil(c - support))), min(n_in - 1, int(np.floor(c + support)))
        x = (np.arange(lo, hi + 1) - c) / stretch
        k = np.sinc(x) * np.sinc(x / 3.0)
        k[np.abs(x) >= 3] = 0
        w[o, lo:hi + 1] = k / k.sum()
    return w

src, width, height, ow, oh, out = sys.argv[1], *map(int, sys.argv[2:6]), sys.argv[6]
img = np.fromfile(src, dtype=np.uint8).reshape(height, width, 4).astype(np.float64) / 255.0
a = img[..., 3:4]
pre = np.concatenate([img[..., :3] * a, a], axis=2)
wx, wy = weights(width, ow), weights(height, oh)
tmp = np.einsum('xw,hwc->hxc', wx, pre, optimize=True)
res = np.einsum('yh,hxc->yxc', wy, tmp, optimize=True)
alpha = np.clip(res[..., 3:4], 0, 1)
rgb = np.where(alpha > 0, res[..., :3] / np.maximum(alpha, 1e-12), 0)
rgba = np.concatenate([rgb, alpha], axis=2)
np.clip(np.rint(rgba * 255), 0, 255).astype(np.uint8).tofile(out)
