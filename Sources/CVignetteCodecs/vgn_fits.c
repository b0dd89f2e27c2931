/* vgn_fits.c - FITS images (Flexible Image Transport System, FITS Standard 4.0: .fits, .fit, .fts).
 * See vgn_decoder.h.
 *
 * A FITS file is a run of header-data units, each a header of 80-character ASCII cards ("KEYWORD =
 * value / comment") up to an END card, then its data, both padded to 2880-byte blocks. The picture
 * shown is the first unit holding an image of at least two axes: the primary one, else the first
 * IMAGE extension (Hubble and most observatory pipelines leave the primary unit empty). Units in
 * between are stepped over by the size their header gives (|BITPIX| / 8 x GCOUNT x (PCOUNT + the
 * axes' product)), at most VGN_FITS_MAX_UNITS of them. Tile-compressed images (fpack: a BINTABLE with
 * ZIMAGE = T) are refused by name, as are files with tables only.
 *
 * The data are big-endian: BITPIX 8 (unsigned), 16, 32, 64 (two's complement), -32, -64 (IEEE
 * floats); the value meant is BZERO + BSCALE x the stored one. NAXIS1 runs along a row, NAXIS2 up the
 * picture: the first row stored is the bottom one, as ds9, ImageMagick and libvips show it. A cube of
 * three planes (NAXIS3 = 3, as Siril and PixInsight write colour) is shown as RGB, any other the
 * first plane only. The integer null (BLANK) and non-finite floats are shown black.
 *
 * How values become grey levels:
 *   - 8-bit data without BZERO/BSCALE is display data already: shown as stored;
 *   - otherwise the values are spread over their range (floats within 0-1 keep 0-1), and when the
 *     median lies in the lowest quarter of it (a sky background: an astronomical frame shown
 *     linearly is black but for its stars) they are stretched as PixInsight's and Siril's automatic
 *     screen stretch does: shadows clipped at the median less 2.8 normalised MADs, then the
 *     midtones transfer function that puts the median at a quarter grey. Colour planes are stretched
 *     alike (linked), so their balance stays.
 * The median and MAD come from a grid of at most 256 x 256 values a plane (base.working), the range
 * from all of them, at the first read. 8- and 16-bit data go through a
 * table of every stored value. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vgn_internal.h"

#define VGN_FITS_BLOCK 2880
#define VGN_FITS_CARD 80
#define VGN_FITS_MAX_UNITS 256
#define VGN_FITS_MAX_AXES 999
#define VGN_FITS_GRID 256

/* What one unit's header says. */
typedef struct {
    int primary;          /* the first unit (SIMPLE), else an extension */
    char xtension[16];    /* the extension's type, trailing blanks gone */
    int zimage;           /* ZIMAGE = T: a tile-compressed image */
    int bitpix;
    int naxis;
    uint64_t axes[3];     /* NAXIS1..3 (1 where absent) */
    uint64_t elements;    /* the product of every axis (random groups: of all but NAXIS1) */
    uint64_t pcount, gcount;
    double bzero, bscale;
    int has_blank;
    int64_t blank;
    size_t data;          /* the data's first byte */
} vgn_fits_unit;

typedef struct {
    vgn_decoder base;
    const uint8_t *raster; /* the first plane's first (bottom) row */
    int bitpix, bytes;     /* bytes a value */
    int channels;          /* 1 or 3 */
    size_t plane;          /* bytes a plane */
    double bzero, bscale;
    int has_blank;
    int64_t blank;
    int ready;             /* the mapping below is known */
    int as_stored;         /* 8-bit display data */
    double low, half;      /* x = (v / 2 - low / 2) / half: half the range, which cannot overflow */
    int stretched;
    double c0, m;          /* shadows clip and midtones balance, when stretched */
    uint8_t *table;        /* 8/16-bit data: the grey level of every stored value */
    uint32_t next_row;
} vgn_fits;

static void vgn_fits_close(vgn_decoder *d)
{
    vgn_fits *f = (vgn_fits *)d;
    if (f == NULL) return;
    free(f->table);
    free(f);
}

/* The stored value at p as a double; *null set when it is BLANK or not finite. */
static double vgn_fits_raw(const vgn_fits *f, const uint8_t *p, int *null)
{
    uint64_t u = 0;
    int i;
    *null = 0;
    for (i = 0; i < f->bytes; i++) u = u << 8 | p[i];
    switch (f->bitpix) {
    case 8:
        if (f->has_blank && (int64_t)u == f->blank) *null = 1;
        return (double)u;
    case 16: {
        int64_t v = (int16_t)(uint16_t)u;
        if (f->has_blank && v == f->blank) *null = 1;
        return (double)v;
    }
    case 32: {
        int64_t v = (int32_t)(uint32_t)u;
        if (f->has_blank && v == f->blank) *null = 1;
        return (double)v;
    }
    case 64: {
        int64_t v = (int64_t)u;
        if (f->has_blank && v == f->blank) *null = 1;
        return (double)v;
    }
    case -32: {
        uint32_t b = (uint32_t)u;
        float v;
        memcpy(&v, &b, sizeof v);
        if (!isfinite(v)) *null = 1;
        return (double)v;
    }
    default: {
        double v;
        memcpy(&v, &u, sizeof v);
        if (!isfinite(v)) *null = 1;
        return v;
    }
    }
}

/* The physical value at p (BZERO + BSCALE x stored); *null as vgn_fits_raw, or when it overflows. */
static double vgn_fits_value(const vgn_fits *f, const uint8_t *p, int *null)
{
    double v = f->bzero + f->bscale * vgn_fits_raw(f, p, null);
    if (!*null && !isfinite(v)) *null = 1;
    return v;
}

/* PixInsight's midtones transfer function: 0 -> 0, m -> 1/2, 1 -> 1. */
static double vgn_fits_mtf(double m, double x)
{
    if (x <= 0.0) return 0.0;
    if (x >= 1.0) return 1.0;
    if (x == m) return 0.5;
    return (m - 1.0) * x / ((2.0 * m - 1.0) * x - m);
}

/* The grey level of a physical value under the mapping found. */
static uint8_t vgn_fits_level(const vgn_fits *f, double v, int null)
{
    double x;
    if (null) return 0;
    if (f->as_stored) return (uint8_t)(v <= 0.0 ? 0 : v >= 255.0 ? 255 : (int)v);
    if (f->half <= 0.0) return 128;
    x = (0.5 * v - 0.5 * f->low) / f->half;
    if (f->stretched) x = vgn_fits_mtf(f->m, (x - f->c0) / (1.0 - f->c0));
    x *= 255.0;
    if (!(x > 0.0)) return 0;
    return (uint8_t)(x >= 255.0 ? 255 : (int)(x + 0.5));
}

/* The values compared are finite or infinite, never NaN: qsort gets a consistent order. */
static int vgn_fits_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of n values (reordered). */
static double vgn_fits_median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, vgn_fits_cmp);
    return n % 2 ? v[n / 2] : 0.5 * v[n / 2 - 1] + 0.5 * v[n / 2];
}

/* The grid the median and MAD are taken over: every sx-th value of every sy-th row of each plane, at
 * most VGN_FITS_GRID x VGN_FITS_GRID a plane. */
static void vgn_fits_grid(const vgn_fits *f, uint32_t *sx, uint32_t *sy, size_t *count)
{
    *sx = f->base.width / VGN_FITS_GRID + (f->base.width % VGN_FITS_GRID != 0);
    *sy = f->base.height / VGN_FITS_GRID + (f->base.height % VGN_FITS_GRID != 0);
    *count = (size_t)((f->base.width + *sx - 1) / *sx) * ((f->base.height + *sy - 1) / *sy) * (size_t)f->channels;
}

/* Finds the mapping (see the top of the file): the range over every value, the median and MAD over
 * the grid's. */
static int vgn_fits_prepare(vgn_fits *f, vgn_error *err)
{
    size_t count = (size_t)f->base.width * f->base.height * (size_t)f->channels, i, n = 0, grid;
    double lo = INFINITY, hi = -INFINITY;
    uint32_t sx, sy, x, y;
    double *sample;
    int null, c;
    f->ready = 1;
    if (f->as_stored) return 0;
    vgn_fits_grid(f, &sx, &sy, &grid);
    sample = (double *)malloc(grid * sizeof *sample);
    if (sample == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return VGN_E_NOMEM;
    }
    for (i = 0; i < count; i++) {
        double v = vgn_fits_value(f, f->raster + i * (size_t)f->bytes, &null);
        if (null) continue;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    for (c = 0; c < f->channels; c++)
        for (y = 0; y < f->base.height; y += sy)
            for (x = 0; x < f->base.width; x += sx) {
                double v = vgn_fits_value(
                    f, f->raster + (size_t)c * f->plane + ((size_t)y * f->base.width + x) * (size_t)f->bytes, &null);
                if (!null) sample[n++] = v;
            }
    f->low = 0.0;
    f->half = 0.0;
    if (n > 0 && lo < hi) {
        double median, mad;
        f->low = lo;
        f->half = 0.5 * hi - 0.5 * lo;
        if (f->bitpix < 0 && lo >= 0.0 && hi <= 1.0) {
            f->low = 0.0;
            f->half = 0.5;
        }
        median = vgn_fits_median(sample, n);
        for (i = 0; i < n; i++) sample[i] = fabs(sample[i] - median);
        mad = vgn_fits_median(sample, n);
        median = (0.5 * median - 0.5 * f->low) / f->half;
        mad = 1.4826 * (0.5 * mad) / f->half;
        if (median < 0.25 && mad > 0.0) {
            double c0 = median - 2.8 * mad;
            f->c0 = c0 > 0.0 ? c0 : 0.0;
            if (f->c0 < 1.0 && median > f->c0) {
                f->m = vgn_fits_mtf(0.25, (median - f->c0) / (1.0 - f->c0));
                f->stretched = 1;
            }
        }
    } else if (n > 0) {
        f->low = lo;
    }
    free(sample);
    if (f->bytes <= 2 && !f->as_stored) {
        size_t entries = (size_t)1 << (8 * f->bytes), e;
        uint8_t stored[2];
        f->table = (uint8_t *)malloc(entries);
        if (f->table == NULL) {
            vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
            return VGN_E_NOMEM;
        }
        for (e = 0; e < entries; e++) {
            double v;
            stored[0] = (uint8_t)(f->bytes == 2 ? e >> 8 : e);
            stored[1] = (uint8_t)e;
            v = vgn_fits_value(f, stored, &null);
            f->table[e] = vgn_fits_level(f, v, null);
        }
    }
    return 0;
}

static uint8_t vgn_fits_pixel(const vgn_fits *f, const uint8_t *p)
{
    int null;
    double v;
    if (f->table != NULL) return f->table[f->bytes == 2 ? (size_t)p[0] << 8 | p[1] : p[0]];
    v = vgn_fits_value(f, p, &null);
    return vgn_fits_level(f, v, null);
}

static int vgn_fits_read_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_fits *f = (vgn_fits *)d;
    size_t row_bytes = (size_t)f->base.width * (size_t)f->bytes;
    int n = 0;
    if (!f->ready) {
        int status = vgn_fits_prepare(f, err);
        if (status != 0) return status;
    }
    while (n < max_rows && f->next_row < f->base.height) {
        const uint8_t *row = f->raster + (size_t)(f->base.height - 1 - f->next_row) * row_bytes;
        uint8_t *out = dst + (size_t)n * stride;
        uint32_t x;
        for (x = 0; x < f->base.width; x++, out += 4) {
            const uint8_t *p = row + (size_t)x * (size_t)f->bytes;
            out[0] = vgn_fits_pixel(f, p);
            out[1] = f->channels == 3 ? vgn_fits_pixel(f, p + f->plane) : out[0];
            out[2] = f->channels == 3 ? vgn_fits_pixel(f, p + 2 * f->plane) : out[0];
            out[3] = 255;
        }
        n++;
        f->next_row++;
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return n;
}

/* The card's keyword (columns 1-8, trailing blanks gone) into k[9]. */
static void vgn_fits_keyword(const uint8_t *card, char *k)
{
    int n = 8;
    memcpy(k, card, 8);
    while (n > 0 && k[n - 1] == ' ') n--;
    k[n] = '\0';
}

/* The card's value field (after "= ") as text: a quoted string without its quotes (doubled quotes
 * made one, trailing blanks gone), else the token before any comment. 0 when the card has none. */
static int vgn_fits_text(const uint8_t *card, char *out, size_t size)
{
    size_t i = 10, k = 0;
    if (card[8] != '=' || card[9] != ' ') return 0;
    while (i < VGN_FITS_CARD && card[i] == ' ') i++;
    if (i < VGN_FITS_CARD && card[i] == '\'') {
        for (i++; i < VGN_FITS_CARD; i++) {
            if (card[i] == '\'') {
                if (i + 1 < VGN_FITS_CARD && card[i + 1] == '\'') i++;
                else break;
            }
            if (k + 1 < size) out[k++] = (char)card[i];
        }
        while (k > 0 && out[k - 1] == ' ') k--;
    } else {
        for (; i < VGN_FITS_CARD && card[i] != ' ' && card[i] != '/'; i++)
            if (k + 1 < size) out[k++] = (char)card[i];
    }
    out[k] = '\0';
    return 1;
}

/* The card's value as an integer; 0 when it is none. */
static int vgn_fits_integer(const uint8_t *card, int64_t *v)
{
    char t[72], *end;
    long long x;
    if (!vgn_fits_text(card, t, sizeof t) || t[0] == '\0') return 0;
    x = strtoll(t, &end, 10);
    if (*end != '\0') return 0;
    *v = (int64_t)x;
    return 1;
}

/* The card's value as a real number (Fortran's D exponent read as E); 0 when it is none. */
static int vgn_fits_real(const uint8_t *card, double *v)
{
    char t[72], *end, *e;
    if (!vgn_fits_text(card, t, sizeof t) || t[0] == '\0') return 0;
    for (e = t; *e; e++)
        if (*e == 'D' || *e == 'd') *e = 'E';
    *v = strtod(t, &end);
    return *end == '\0' && isfinite(*v);
}

/* Reads the header starting at `at` into u; 0, or a vgn_status with err filled. */
static int vgn_fits_header(const uint8_t *data, size_t size, size_t at, int primary, vgn_fits_unit *u, vgn_error *err)
{
    size_t pos = at;
    int seen_naxis = 0, given = 0;
    char m[VGN_MSG_LEN];
    memset(u, 0, sizeof *u);
    u->primary = primary;
    u->axes[0] = u->axes[1] = u->axes[2] = 1;
    u->gcount = 1;
    u->bscale = 1.0;
    for (;; pos += VGN_FITS_CARD) {
        const uint8_t *card;
        char k[9];
        int64_t iv;
        if (size - pos < VGN_FITS_CARD) {
            vgn_err_fill(err, VGN_E_TRUNCATED, "a header ends before its END card", NULL);
            return VGN_E_TRUNCATED;
        }
        card = data + pos;
        vgn_fits_keyword(card, k);
        if (pos == at) {
            char t[72];
            if (primary ? strcmp(k, "SIMPLE") != 0 : strcmp(k, "XTENSION") != 0) {
                vgn_err_fill(err, VGN_E_INVALID, primary ? "no \"SIMPLE\" card first" : "a unit without an \"XTENSION\" card",
                             NULL);
                return VGN_E_INVALID;
            }
            if (!primary && vgn_fits_text(card, t, sizeof t)) snprintf(u->xtension, sizeof u->xtension, "%s", t);
            continue;
        }
        if (strcmp(k, "END") == 0) break;
        if (strcmp(k, "BITPIX") == 0 && vgn_fits_integer(card, &iv)) {
            u->bitpix = iv == 8 || iv == 16 || iv == 32 || iv == 64 || iv == -32 || iv == -64 ? (int)iv : 0;
            if (u->bitpix == 0) {
                snprintf(m, sizeof m, "BITPIX is %lld (8, 16, 32, 64, -32 or -64 are meant)", (long long)iv);
                vgn_err_fill(err, VGN_E_INVALID, m, NULL);
                return VGN_E_INVALID;
            }
        } else if (strcmp(k, "NAXIS") == 0 && vgn_fits_integer(card, &iv)) {
            if (iv < 0 || iv > VGN_FITS_MAX_AXES) {
                vgn_err_fill(err, VGN_E_INVALID, "NAXIS is outside 0-999", NULL);
                return VGN_E_INVALID;
            }
            u->naxis = (int)iv;
            seen_naxis = 1;
            u->elements = iv > 0 ? 1 : 0;
        } else if (strncmp(k, "NAXIS", 5) == 0 && k[5] >= '1' && k[5] <= '9' && vgn_fits_integer(card, &iv)) {
            char *end;
            long axis = strtol(k + 5, &end, 10);
            if (*end != '\0' || !seen_naxis || axis > u->naxis) continue;
            if (iv < 0 || (uint64_t)iv > UINT32_MAX) {
                snprintf(m, sizeof m, "%s is %lld", k, (long long)iv);
                vgn_err_fill(err, VGN_E_INVALID, m, NULL);
                return VGN_E_INVALID;
            }
            if (axis <= 3) u->axes[axis - 1] = (uint64_t)iv;
            if (axis == given + 1) given++;
            /* Random groups (NAXIS1 = 0) count every axis but the first. */
            if (axis == 1 && iv == 0 && u->naxis > 1) continue;
            if (u->elements != 0 && (uint64_t)iv > UINT64_MAX / u->elements) {
                vgn_err_fill(err, VGN_E_INVALID, "the axes' sizes overflow", NULL);
                return VGN_E_INVALID;
            }
            u->elements *= (uint64_t)iv;
        } else if (strcmp(k, "PCOUNT") == 0 && vgn_fits_integer(card, &iv)) {
            if (iv < 0) {
                vgn_err_fill(err, VGN_E_INVALID, "PCOUNT is negative", NULL);
                return VGN_E_INVALID;
            }
            u->pcount = (uint64_t)iv;
        } else if (strcmp(k, "GCOUNT") == 0 && vgn_fits_integer(card, &iv)) {
            if (iv < 0) {
                vgn_err_fill(err, VGN_E_INVALID, "GCOUNT is negative", NULL);
                return VGN_E_INVALID;
            }
            u->gcount = (uint64_t)iv;
        } else if (strcmp(k, "BZERO") == 0) {
            vgn_fits_real(card, &u->bzero);
        } else if (strcmp(k, "BSCALE") == 0) {
            double s;
            if (vgn_fits_real(card, &s) && s != 0.0) u->bscale = s;
        } else if (strcmp(k, "BLANK") == 0 && vgn_fits_integer(card, &iv)) {
            u->has_blank = 1;
            u->blank = iv;
        } else if (strcmp(k, "ZIMAGE") == 0) {
            char t[8];
            u->zimage = vgn_fits_text(card, t, sizeof t) && strcmp(t, "T") == 0;
        }
    }
    if (u->bitpix == 0 || !seen_naxis) {
        vgn_err_fill(err, VGN_E_INVALID, "a header without BITPIX or NAXIS", NULL);
        return VGN_E_INVALID;
    }
    if (given < u->naxis) {
        snprintf(m, sizeof m, "NAXIS is %d but NAXIS%d is missing", u->naxis, given + 1);
        vgn_err_fill(err, VGN_E_INVALID, m, NULL);
        return VGN_E_INVALID;
    }
    pos += VGN_FITS_CARD;
    u->data = pos + (VGN_FITS_BLOCK - pos % VGN_FITS_BLOCK) % VGN_FITS_BLOCK;
    if (u->data > size) u->data = size;
    return 0;
}

/* The bytes of the unit's data, padded to whole blocks; 0 with *overflow set when it cannot be. */
static uint64_t vgn_fits_data_bytes(const vgn_fits_unit *u, int *overflow)
{
    uint64_t bits = (uint64_t)(u->bitpix < 0 ? -u->bitpix : u->bitpix), values;
    *overflow = 0;
    if (u->naxis == 0) return 0;
    if (u->elements > UINT64_MAX - u->pcount) goto over;
    values = u->elements + u->pcount;
    if (u->gcount != 0 && values > UINT64_MAX / u->gcount) goto over;
    values *= u->gcount;
    if (values > UINT64_MAX / bits) goto over;
    values = values * bits / 8;
    if (values > UINT64_MAX - VGN_FITS_BLOCK) goto over;
    return (values + VGN_FITS_BLOCK - 1) / VGN_FITS_BLOCK * VGN_FITS_BLOCK;
over:
    *overflow = 1;
    return 0;
}

/* Gives up on a file without a plain image: naming a tile-compressed one when it was met. */
static void *vgn_fits_unread(vgn_error *err, int compressed, int code, const char *msg)
{
    return compressed ? vgn_err_null(err, VGN_E_UNSUPPORTED, "the image is tile-compressed (fpack, ZIMAGE), which is not read")
                      : vgn_err_null(err, code, msg);
}

static int vgn_fits_is_image(const vgn_fits_unit *u)
{
    return (u->primary || strcmp(u->xtension, "IMAGE") == 0) && u->naxis >= 2 && u->axes[0] > 0 && u->axes[1] > 0;
}

vgn_decoder *vgn_fits_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err)
{
    vgn_fits_unit u;
    vgn_fits *f;
    size_t at = 0;
    int units, compressed = 0, status, overflow, bytes, channels;
    uint64_t plane;
    if (data == NULL || info == NULL) return vgn_err_null(err, VGN_E_STATE, "no data");
    memset(info, 0, sizeof *info);
    for (units = 0;; units++) {
        uint64_t skip;
        if (units == VGN_FITS_MAX_UNITS)
            return vgn_err_null(err, VGN_E_LIMIT, "no image among the first 256 header-data units");
        if (units > 0 && size - at < VGN_FITS_CARD)
            return vgn_fits_unread(err, compressed, VGN_E_UNSUPPORTED, "no image in the file (tables or headers only)");
        status = vgn_fits_header(data, size, at, units == 0, &u, err);
        if (status != 0) return NULL;
        if (vgn_fits_is_image(&u)) break;
        if (strcmp(u.xtension, "BINTABLE") == 0 && u.zimage) compressed = 1;
        skip = vgn_fits_data_bytes(&u, &overflow);
        if (overflow || skip > size - u.data)
            return vgn_fits_unread(err, compressed, VGN_E_TRUNCATED, "the file ends before a unit's data does");
        at = u.data + (size_t)skip;
    }
    if (u.axes[0] > UINT32_MAX || u.axes[1] > UINT32_MAX || u.axes[0] * u.axes[1] > SIZE_MAX / 24)
        return vgn_err_null(err, VGN_E_INVALID, "the image's sides are too large");
    bytes = (u.bitpix < 0 ? -u.bitpix : u.bitpix) / 8;
    channels = u.naxis >= 3 && u.axes[2] == 3 ? 3 : 1;
    plane = u.axes[0] * u.axes[1] * (uint64_t)bytes;
    if (plane * (uint64_t)channels > size - u.data) return vgn_err_null(err, VGN_E_TRUNCATED, "the file is too short for the pixels its header gives");
    f = (vgn_fits *)calloc(1, sizeof *f);
    if (f == NULL) return vgn_err_null(err, VGN_E_NOMEM, "out of memory");
    f->base.read_rows = vgn_fits_read_rows;
    f->base.close = vgn_fits_close;
    f->base.width = info->width = (uint32_t)u.axes[0];
    f->base.height = info->height = (uint32_t)u.axes[1];
    f->base.opaque = 1;
    f->raster = data + u.data;
    f->bitpix = u.bitpix;
    f->bytes = bytes;
    f->channels = channels;
    f->plane = (size_t)plane;
    f->bzero = u.bzero;
    f->bscale = u.bscale;
    f->has_blank = u.has_blank;
    f->blank = u.blank;
    f->as_stored = u.bitpix == 8 && u.bzero == 0.0 && u.bscale == 1.0;
    if (!f->as_stored) {
        uint32_t sx, sy;
        size_t grid;
        vgn_fits_grid(f, &sx, &sy, &grid);
        f->base.working = grid * sizeof(double) + (f->bytes <= 2 ? 65536 : 0);
    }
    info->components = f->channels;
    info->bit_depth = f->bytes * 8;
    info->orientation = 1;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return &f->base;
}
