/* vgn_tiff_scaled.c - TIFF pages whose samples are floating point (16, 32 or 64 bits) or signed
 * integers (8, 16 or 32 bits): elevation models, scientific and medical images, which libtiff's
 * RGBA interface refuses ("Sorry, can not handle images with 32-bit samples") or reads as unsigned.
 *
 * The values are stretched to 0..255 over the range a first pass finds: floating-point values that
 * all lie within [0, 1] keep that range (the usual convention for float pictures); anything else
 * goes from the smallest to the largest value, so an elevation model from 212 to 1,388 m uses the
 * whole grey scale. NaN, infinities and GDAL's no-data value (tag 42113, GDALNoDataValue) become
 * transparent and count for nothing in the range. Grey (with alpha) and RGB(A) pages, strips read
 * a scanline at a time, tiles a row of tiles at a time; every value is decoded twice (the range,
 * then the rows), memory is one row of tiles plus one row of numbers, both in `working`. */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vgn_tiff_internal.h"

#define VGN_TIFFTAG_GDAL_NODATA 42113

static TIFFExtendProc vgn_tiff_parent_extender;

/* libtiff's tag extender: GDAL's no-data tag as an ASCII field, then whatever was there before. */
static void vgn_tiff_extender(TIFF *tif)
{
    static const TIFFFieldInfo fields[] = {
        {VGN_TIFFTAG_GDAL_NODATA, -1, -1, TIFF_ASCII, FIELD_CUSTOM, 1, 0, (char *)"GDALNoDataValue"},
    };
    TIFFMergeFieldInfo(tif, fields, sizeof fields / sizeof *fields);
    if (vgn_tiff_parent_extender != NULL)
        vgn_tiff_parent_extender(tif);
}

static void vgn_tiff_install_extender(void)
{
    vgn_tiff_parent_extender = TIFFSetTagExtender(vgn_tiff_extender);
}

void vgn_tiff_register_tags(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, vgn_tiff_install_extender);
}

/* Bytes of one sample. */
static unsigned vgn_scaled_bytes(const vgn_tiff *t)
{
    return t->p_bps / 8u;
}

/* Colour samples a pixel has (1 grey, 3 RGB); the one after them, if any, is alpha. */
static unsigned vgn_scaled_colors(const vgn_tiff *t)
{
    return t->p_spp >= 3 ? 3u : 1u;
}

int vgn_tiff_scaled_open(vgn_tiff *t, uint32_t w, uint32_t h, vgn_image_info *info)
{
    uint16_t spp = 1, bps = 1, photometric = 0, planar = PLANARCONFIG_CONTIG, format = SAMPLEFORMAT_UINT,
             orientation = ORIENTATION_TOPLEFT;
    uint64_t pixel, row_values, working;
    char *nodata = NULL;
    TIFFGetFieldDefaulted(t->tif, TIFFTAG_SAMPLESPERPIXEL, &spp);
    TIFFGetFieldDefaulted(t->tif, TIFFTAG_BITSPERSAMPLE, &bps);
    TIFFGetFieldDefaulted(t->tif, TIFFTAG_PLANARCONFIG, &planar);
    TIFFGetFieldDefaulted(t->tif, TIFFTAG_SAMPLEFORMAT, &format);
    TIFFGetFieldDefaulted(t->tif, TIFFTAG_ORIENTATION, &orientation);
    if (!((format == SAMPLEFORMAT_IEEEFP && (bps == 16 || bps == 32 || bps == 64)) ||
          (format == SAMPLEFORMAT_INT && (bps == 8 || bps == 16 || bps == 32))))
        return 0;
    if (planar != PLANARCONFIG_CONTIG && spp > 1)
        return 0;
    /* Without the tag, what TIFFRGBAImage assumes: grey for one or two samples, else RGB. */
    if (!TIFFGetField(t->tif, TIFFTAG_PHOTOMETRIC, &photometric))
        photometric = spp <= 2 ? PHOTOMETRIC_MINISBLACK : PHOTOMETRIC_RGB;
    if (!(((photometric == PHOTOMETRIC_MINISBLACK || photometric == PHOTOMETRIC_MINISWHITE) && (spp == 1 || spp == 2)) ||
          (photometric == PHOTOMETRIC_RGB && (spp == 3 || spp == 4))))
        return 0;
    pixel = (uint64_t)spp * (bps / 8);
    row_values = (uint64_t)w * spp * sizeof(double);
    if (TIFFIsTiled(t->tif)) {
        uint32_t tw = 0, th = 0;
        uint64_t across, tile, band;
        if (!TIFFGetField(t->tif, TIFFTAG_TILEWIDTH, &tw) || !TIFFGetField(t->tif, TIFFTAG_TILELENGTH, &th) || tw == 0 ||
            th == 0)
            return 0;
        tile = TIFFTileSize64(t->tif);
        across = ((uint64_t)w + tw - 1) / tw;
        if (tile != (uint64_t)tw * th * pixel)
            return 0;
        band = across * tw * pixel * th;
        working = band + tile + row_values;
        t->s_tw = tw;
        t->s_th = th;
        t->base.working = working > (uint64_t)SIZE_MAX ? SIZE_MAX : (size_t)working;
    } else {
        tmsize_t line = TIFFScanlineSize(t->tif);
        if (line <= 0 || (uint64_t)line < (uint64_t)w * pixel)
            return 0;
        working = (uint64_t)line + row_values;
        t->base.working = working > (uint64_t)SIZE_MAX ? SIZE_MAX : (size_t)working;
    }
    if (TIFFGetField(t->tif, VGN_TIFFTAG_GDAL_NODATA, &nodata) && nodata != NULL) {
        char *end = NULL;
        double value = strtod(nodata, &end);
        /* "nan" needs nothing more: NaN is no data already */
        if (end != nodata && !isnan(value)) {
            t->s_has_nodata = 1;
            t->s_nodata = value;
        }
    }
    t->first_err[0] = '\0';
    t->scaled = 1;
    t->s_format = format;
    t->s_band_y0 = UINT32_MAX;
    t->p_spp = spp;
    t->p_bps = bps;
    t->p_photometric = photometric;
    t->base.width = w;
    t->base.height = h;
    /* NaN, no data and alpha make pixels transparent */
    t->base.opaque = format == SAMPLEFORMAT_INT && !t->s_has_nodata && spp != 2 && spp != 4;
    info->orientation = orientation >= 1 && orientation <= 8 ? orientation : 1;
    t->state = VGN_TST_OPENED;
    return 1;
}

/* Bytes of one row of tiles, as rows of whole tiles across the page. */
static size_t vgn_scaled_band_bytes(const vgn_tiff *t)
{
    return (((size_t)t->base.width + t->s_tw - 1) / t->s_tw) * t->s_tw * t->p_spp * vgn_scaled_bytes(t) * t->s_th;
}

/* Row `y`'s samples as numbers, in t->s_values (libtiff has put them in native byte order). */
static int vgn_scaled_row(vgn_tiff *t, uint32_t y)
{
    const uint8_t *raw;
    size_t i, count = (size_t)t->base.width * t->p_spp;
    unsigned bytes = vgn_scaled_bytes(t);
    t->first_err[0] = '\0';
    if (t->s_tw > 0) {
        uint32_t y0 = y - y % t->s_th;
        size_t pixel = (size_t)t->p_spp * bytes;
        size_t row_bytes = (((size_t)t->base.width + t->s_tw - 1) / t->s_tw) * t->s_tw * pixel;
        if (t->s_band_y0 != y0) {
            uint32_t x, r;
            t->s_band_y0 = UINT32_MAX;
            for (x = 0; x < t->base.width; x += t->s_tw) {
                if (TIFFReadTile(t->tif, t->s_tile, x, y0, 0, 0) < 0)
                    return 0;
                for (r = 0; r < t->s_th; r++)
                    memcpy(t->s_band + r * row_bytes + (size_t)x * pixel, t->s_tile + (size_t)r * t->s_tw * pixel,
                           (size_t)t->s_tw * pixel);
            }
            t->s_band_y0 = y0;
        }
        raw = t->s_band + (size_t)(y - y0) * row_bytes;
    } else {
        if (TIFFReadScanline(t->tif, t->scanline, y, 0) < 0)
            return 0;
        raw = t->scanline;
    }
    for (i = 0; i < count; i++) {
        const uint8_t *p = raw + i * bytes;
        double v;
        if (t->s_format == SAMPLEFORMAT_IEEEFP) {
            if (bytes == 2) {
                uint16_t h;
                memcpy(&h, p, 2);
                v = vgn_half(h);
            } else if (bytes == 4) {
                float f;
                memcpy(&f, p, 4);
                v = f;
            } else {
                memcpy(&v, p, 8);
            }
        } else if (bytes == 1) {
            v = (int8_t)p[0];
        } else if (bytes == 2) {
            int16_t s;
            memcpy(&s, p, 2);
            v = s;
        } else {
            int32_t s;
            memcpy(&s, p, 4);
            v = s;
        }
        t->s_values[i] = v;
    }
    return 1;
}

/* Whether `v` is a value to draw (not NaN, an infinity or the no-data value). */
static int vgn_scaled_is_data(const vgn_tiff *t, double v)
{
    return isfinite(v) && !(t->s_has_nodata && v == t->s_nodata);
}

/* Records a failed read: libtiff's first error, or a message naming the row. */
static int vgn_scaled_fail(vgn_tiff *t, uint32_t y, vgn_error *err)
{
    char m[VGN_MSG_LEN];
    if (t->first_err[0] != '\0')
        vgn_copy_message(m, t->first_err);
    else
        snprintf(m, sizeof m, "tiff: cannot read row %u", y);
    t->state = VGN_TST_FAILED;
    t->fail_code = vgn_tiff_classify(m, VGN_E_INVALID);
    vgn_copy_message(t->fail_msg, m);
    vgn_err_fill(err, t->fail_code, t->fail_msg, &t->warn);
    return t->fail_code;
}

/* The first pass: the smallest and largest colour value drawn. */
static int vgn_scaled_range(vgn_tiff *t, vgn_error *err)
{
    uint32_t y, x, c, colors = vgn_scaled_colors(t);
    double lo = INFINITY, hi = -INFINITY;
    for (y = 0; y < t->base.height; y++) {
        if (!vgn_scaled_row(t, y))
            return vgn_scaled_fail(t, y, err);
        for (x = 0; x < t->base.width; x++) {
            for (c = 0; c < colors; c++) {
                double v = t->s_values[(size_t)x * t->p_spp + c];
                if (!vgn_scaled_is_data(t, v))
                    continue;
                if (v < lo) lo = v;
                if (v > hi) hi = v;
            }
        }
    }
    if (lo > hi || (t->s_format == SAMPLEFORMAT_IEEEFP && lo >= 0 && hi <= 1)) {
        lo = 0;
        hi = 1;
    }
    if (!(hi > lo)) hi = lo + 1;
    t->s_lo = lo;
    t->s_hi = hi;
    t->s_ranged = 1;
    return VGN_OK;
}

int vgn_tiff_scaled_rows(vgn_tiff *t, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    int n = 0;
    uint32_t x, c, colors = vgn_scaled_colors(t);
    double scale, alpha_max;
    if (t->s_values == NULL) {
        if ((t->s_values = (double *)malloc((size_t)t->base.width * t->p_spp * sizeof(double))) == NULL ||
            (t->s_tw == 0 && (t->scanline = (uint8_t *)malloc((size_t)TIFFScanlineSize(t->tif))) == NULL) ||
            (t->s_tw > 0 && ((t->s_tile = (uint8_t *)malloc((size_t)TIFFTileSize64(t->tif))) == NULL ||
                             (t->s_band = (uint8_t *)malloc(vgn_scaled_band_bytes(t))) == NULL))) {
            vgn_err_fill(err, VGN_E_NOMEM, "out of memory for TIFF rows", &t->warn);
            return VGN_E_NOMEM;
        }
    }
    if (!t->s_ranged && vgn_scaled_range(t, err) != VGN_OK)
        return t->fail_code;
    scale = 255.0 / (t->s_hi - t->s_lo);
    alpha_max = t->s_format == SAMPLEFORMAT_IEEEFP ? 1.0 : (double)((1u << (t->p_bps - 1)) - 1u);
    while (n < max_rows && t->row < t->base.height) {
        uint8_t *o = dst + (size_t)n * stride;
        if (!vgn_scaled_row(t, t->row)) {
            if (n > 0) {
                vgn_scaled_fail(t, t->row, err);
                break;
            }
            return vgn_scaled_fail(t, t->row, err);
        }
        for (x = 0; x < t->base.width; x++, o += 4) {
            const double *v = t->s_values + (size_t)x * t->p_spp;
            double level[3] = {0, 0, 0}, a = 255;
            int drawn = 1;
            for (c = 0; c < colors; c++) {
                if (!vgn_scaled_is_data(t, v[c])) {
                    drawn = 0;
                    break;
                }
                level[c] = (v[c] - t->s_lo) * scale;
                level[c] = level[c] < 0 ? 0 : level[c] > 255 ? 255 : level[c];
                if (t->p_photometric == PHOTOMETRIC_MINISWHITE) level[c] = 255 - level[c];
            }
            if (t->p_spp > colors) {
                a = isfinite(v[colors]) ? v[colors] / alpha_max * 255 : 0;
                a = a < 0 ? 0 : a > 255 ? 255 : a;
            }
            if (!drawn) {
                o[0] = o[1] = o[2] = o[3] = 0;
                continue;
            }
            o[0] = (uint8_t)lrint(level[0]);
            o[1] = (uint8_t)lrint(colors == 3 ? level[1] : level[0]);
            o[2] = (uint8_t)lrint(colors == 3 ? level[2] : level[0]);
            o[3] = (uint8_t)lrint(a);
        }
        t->row++;
        n++;
    }
    if (t->row >= t->base.height && t->state != VGN_TST_FAILED) t->state = VGN_TST_DONE;
    if (n > 0 || t->state != VGN_TST_FAILED) vgn_err_fill(err, VGN_OK, NULL, &t->warn);
    return n;
}

void vgn_tiff_scaled_free(vgn_tiff *t)
{
    free(t->s_values);
    free(t->s_tile);
    free(t->s_band);
    t->s_values = NULL;
    t->s_tile = NULL;
    t->s_band = NULL;
}
