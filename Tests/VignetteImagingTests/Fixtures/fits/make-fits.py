#!/usr/bin/env python3
"""Writes the FITS fixtures made for this project (astropy 8.0.2 and numpy, from PyPI), and copies
astropy's own test files beside them. Run from this folder: python3 make-fits.py

Made here (the values the tests expect follow from these lines):
  ramp-u8.fits         BITPIX 8, 4 x 3: stored value 20 * (x + 4 * row), row 0 stored first (the bottom
                       row as FITS shows it): shown as stored.
  ramp-i32-blank.fits  BITPIX 32, 5 x 2, BSCALE 2, BZERO 100, BLANK -1: stored 0..9 along the rows with
                       the last one BLANK: physical 100..116 over its range (median at the middle: no
                       stretch), the BLANK black.
  rgb-cube-f32.fits    BITPIX -32, 6 x 2 x 3 (NAXIS3 = 3: R, G, B planes), values within 0-1: shown as
                       stored (x 255). Columns 0-1 red, 2-3 green, 4-5 blue at 0.8; the bottom row
                       (stored first) half as bright.
  starfield-i16.fits   BITPIX 16 with BZERO 32768 (unsigned 16-bit, as cameras write), 160 x 100: a sky
                       of 1000 with Gaussian noise (sigma 20, seed 7) and 25 Gaussian stars (peaks
                       2000-60000), one saturated; the median is in the lowest quarter: stretched.
  starfield-f32.fits   the same sky as 32-bit floats in an IMAGE extension behind an empty primary unit,
                       as observatory pipelines write.
"""
import os
import shutil

import astropy
import numpy as np
from astropy.io import fits

here = os.path.dirname(os.path.abspath(__file__))


def out(name):
    return os.path.join(here, name)


ramp = (20 * np.arange(12, dtype=np.uint8)).reshape(3, 4)
fits.PrimaryHDU(ramp).writeto(out("ramp-u8.fits"), overwrite=True)

stored = np.arange(10, dtype=np.int32).reshape(2, 5)
stored[1, 4] = -1
hdu = fits.PrimaryHDU(stored)
hdu.header["BSCALE"] = 2.0
hdu.header["BZERO"] = 100.0
hdu.header["BLANK"] = -1
hdu.writeto(out("ramp-i32-blank.fits"), overwrite=True, output_verify="silentfix")

cube = np.zeros((3, 2, 6), dtype=np.float32)
for plane in range(3):
    cube[plane, :, 2 * plane : 2 * plane + 2] = 0.8
cube[:, 0, :] *= 0.5
fits.PrimaryHDU(cube).writeto(out("rgb-cube-f32.fits"), overwrite=True)

rng = np.random.default_rng(7)
h, w = 100, 160
sky = 1000 + rng.normal(0, 20, (h, w))
yy, xx = np.mgrid[0:h, 0:w]
for i in range(25):
    cx, cy = rng.uniform(5, w - 5), rng.uniform(5, h - 5)
    peak = 60000 if i == 0 else rng.uniform(2000, 30000)
    sigma = rng.uniform(0.8, 2.0)
    sky += peak * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sigma**2))
counts = np.clip(np.rint(sky), 0, 65535).astype(np.uint16)
fits.PrimaryHDU(counts).writeto(out("starfield-i16.fits"), overwrite=True)
fits.HDUList([fits.PrimaryHDU(), fits.ImageHDU(sky.astype(np.float32), name="SCI")]).writeto(
    out("starfield-f32.fits"), overwrite=True
)

data = os.path.join(os.path.dirname(astropy.__file__), "io", "fits", "tests", "data")
for name in ["o4sp040b0_raw.fits", "scale.fits", "fixed-1890.fits", "comp.fits", "stddata.fits", "arange.fits"]:
    shutil.copyfile(os.path.join(data, name), out(name))
