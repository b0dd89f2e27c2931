/* vgn_bmp.c - BMP ("BM"), the DIBs inside ICO/CUR, and the ICO/CUR directory. See vgn_decoder.h.
 *
 * The whole file is in memory, so uncompressed rows are converted straight from the input into
 * the caller's rows (bottom-up files are read from the end of the pixel array): nothing is
 * allocated while reading. RLE4/RLE8 are scanned once at the first read_rows to record where each
 * row starts (stream offset + starting column, 12-16 bytes per row, reported in base.working), so
 * rows can then be decoded in any order with memory proportional to the height only.
 *
 * Truncation: read_rows returns VGN_E_TRUNCATED at the first output row that cannot be fully
 * decoded (rows returned before stay valid). For a bottom-up file that is usually the first row.
 * The DIB's AND mask is the exception: a missing (truncated) mask leaves those rows opaque.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vgn_internal.h"

#define BMP_RGB 0
#define BMP_RLE8 1
#define BMP_RLE4 2
#define BMP_BITFIELDS 3

typedef struct {
    size_t pos;  /* stream offset where the row's decoding resumes; SIZE_MAX: the row is empty */
    uint32_t x;  /* starting column (after a delta escape) */
} bmp_rowstart;

typedef struct {
    vgn_decoder base;
    const uint8_t *data;
    size_t size;
    uint32_t w, h;      /* output size (DIB: the real height) */
    int topdown;
    int bpp;
    int comp;           /* BMP_RGB, BMP_RLE8, BMP_RLE4, BMP_BITFIELDS */
    uint8_t pal[256][4];
    uint32_t mask[4];   /* r, g, b, a */
    int shift[4], bits[4];
    size_t pix_off;     /* pixel array offset in data */
    size_t stride;      /* bytes per stored row */
    /* DIB (ICO/CUR) */
    int is_dib;
    size_t mask_off, mask_stride;
    int use_alpha;      /* -1: not decided yet; 1: 32-bit alpha is used, AND mask ignored */
    int guess_alpha;    /* 32-bit BI_RGB: the fourth byte is alpha unless every one is zero */
    /* RLE */
    bmp_rowstart *rows;
    uint32_t rle_stop_y; /* stored row where the scan stopped */
    int rle_complete;    /* the scan ended on end-of-bitmap or after the last row */
    /* state */
    uint32_t next;
    int fail_code;
    char fail_msg[VGN_MSG_LEN];
    vgn_warnings warn;
} vgn_bmp;

static uint32_t rd16(const uint8_t *p) { return (uint32_t)p[0] | ((uint32_t)p[1] << 8); }
static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* Scales an n-bit value (n 1..32) to 8 bits, rounding. */
static uint8_t scale_bits(uint32_t v, int n)
{
    uint64_t max;
    if (n <= 0) return 0;
    if (n == 8) return (uint8_t)v;
    max = (n >= 32) ? 0xFFFFFFFFull : ((1ull << n) - 1);
    return (uint8_t)(((uint64_t)v * 255 + max / 2) / max);
}

static void set_mask(vgn_bmp *d, int i, uint32_t m)
{
    int s = 0, b = 0;
    d->mask[i] = m;
    if (m != 0) {
        while (!((m >> s) & 1)) s++;
        /* width = highest set bit - lowest set bit + 1 (holes in the mask are kept as value bits) */
        b = 32 - s;
        while (b > 0 && !((m >> (s + b - 1)) & 1)) b--;
    }
    d->shift[i] = s;
    d->bits[i] = b;
}

static void bmp_close(vgn_decoder *base)
{
    vgn_bmp *d = (vgn_bmp *)base;
    if (d == NULL) return;
    free(d->rows);
    free(d);
}

static int bmp_read_rows(vgn_decoder *base, uint8_t *dst, size_t stride, int max_rows, vgn_error *err);

/* Parses an info header at data[hoff..] (the part after BITMAPFILEHEADER, or a whole DIB).
 * file_off: bfOffBits (0 for a DIB: pixels follow the palette). */
static vgn_bmp *parse_dib(const uint8_t *data, size_t size, size_t hoff, size_t file_off, int is_dib,
                          vgn_image_info *info, vgn_error *err)
{
    const char *what = is_dib ? "icon bitmap" : "BMP";
    char msg[VGN_MSG_LEN];
    const uint8_t *h;
    uint32_t hsize, clr_used = 0, comp = 0, pal_n, pal_avail, i;
    int32_t sw, sh;
    uint64_t w, hh, stride64;
    int bpp, core = 0, os2 = 0, esize, has_alpha_mask = 0;
    size_t pal_off, masks_off = 0;
    vgn_bmp *d;

    if (size - hoff < 4) return vgn_err_null(err, VGN_E_TRUNCATED, is_dib ? "the icon bitmap header is truncated" : "the BMP header is truncated");
    h = data + hoff;
    hsize = rd32(h);
    if (hsize == 12) core = 1;
    else if (hsize == 40 || hsize == 52 || hsize == 56 || hsize == 108 || hsize == 124) os2 = 0;
    else if (hsize >= 16 && hsize <= 64 && hsize % 4 == 0) os2 = 1;
    else if (hsize > 40 && hsize <= 1024) os2 = 0; /* an unknown, larger Windows header: the known fields */
    else {
        snprintf(msg, sizeof msg, "the %s header size %u is not a known one", what, (unsigned)hsize);
        return vgn_err_null(err, VGN_E_INVALID, msg);
    }
    if (size - hoff < hsize) {
        snprintf(msg, sizeof msg, "the %s header is truncated", what);
        return vgn_err_null(err, VGN_E_TRUNCATED, msg);
    }
    if (core) {
        sw = (int32_t)rd16(h + 4);
        sh = (int32_t)rd16(h + 6);
        bpp = (int)rd16(h + 10);
    } else {
        sw = (int32_t)rd32(h + 4);
        sh = (int32_t)rd32(h + 8);
        bpp = (int)rd16(h + 14);
        if (hsize >= 20) comp = rd32(h + 16);
        if (hsize >= 36) clr_used = rd32(h + 32);
    }
    if (sw < 0) {
        snprintf(msg, sizeof msg, "the %s header gives a negative width", what);
        return vgn_err_null(err, VGN_E_INVALID, msg);
    }
    if (sw == 0 || sh == 0) {
        snprintf(msg, sizeof msg, "the %s header gives a zero %s", what, sw == 0 ? "width" : "height");
        return vgn_err_null(err, VGN_E_INVALID, msg);
    }
    if (sh == INT32_MIN) {
        snprintf(msg, sizeof msg, "the %s header gives an invalid height", what);
        return vgn_err_null(err, VGN_E_INVALID, msg);
    }
    if (comp == 4 || comp == 5) {
        if (os2 && comp == 4) return vgn_err_null(err, VGN_E_UNSUPPORTED, "OS/2 RLE24 BMP is not supported");
        if (is_dib) return vgn_err_null(err, VGN_E_UNSUPPORTED, "icon bitmap with embedded JPEG/PNG data is not supported");
        return vgn_err_null(err, VGN_E_UNSUPPORTED, "BMP with embedded JPEG/PNG data is not supported");
    }
    if (os2 && comp == 3) return vgn_err_null(err, VGN_E_UNSUPPORTED, "OS/2 Huffman-compressed BMP is not supported");
    if (comp == 6) comp = BMP_BITFIELDS, has_alpha_mask = 1; /* BI_ALPHABITFIELDS */
    if (comp > 3) {
        snprintf(msg, sizeof msg, "the %s compression %u is not a known one", what, (unsigned)comp);
        return vgn_err_null(err, VGN_E_INVALID, msg);
    }
    if (!(bpp == 1 || bpp == 2 || bpp == 4 || bpp == 8 || bpp == 16 || bpp == 24 || bpp == 32) ||
        (core && !(bpp == 1 || bpp == 4 || bpp == 8 || bpp == 24))) {
        snprintf(msg, sizeof msg, "the %s header gives an invalid bit count %d", what, bpp);
        return vgn_err_null(err, VGN_E_INVALID, msg);
    }
    if ((comp == BMP_RLE8 && bpp != 8) || (comp == BMP_RLE4 && bpp != 4) ||
        (comp == BMP_BITFIELDS && bpp != 16 && bpp != 32)) {
        snprintf(msg, sizeof msg, "the %s compression %u does not match its bit count %d", what, (unsigned)comp, bpp);
        return vgn_err_null(err, VGN_E_INVALID, msg);
    }
    if (is_dib && (comp == BMP_RLE8 || comp == BMP_RLE4))
        return vgn_err_null(err, VGN_E_UNSUPPORTED, "RLE-compressed icon bitmaps are not supported");
    if (sh < 0 && (comp == BMP_RLE8 || comp == BMP_RLE4)) {
        snprintf(msg, sizeof msg, "the %s is RLE-compressed but stored top-down", what);
        return vgn_err_null(err, VGN_E_INVALID, msg);
    }
    if (is_dib && sh < 0) return vgn_err_null(err, VGN_E_INVALID, "the icon bitmap header gives a negative height");

    d = (vgn_bmp *)calloc(1, sizeof *d);
    if (d == NULL) return vgn_err_null(err, VGN_E_NOMEM, "out of memory");
    d->data = data;
    d->size = size;
    d->bpp = bpp;
    d->comp = (int)comp;
    d->is_dib = is_dib;
    d->use_alpha = -1;
    w = (uint64_t)sw;
    hh = sh < 0 ? (uint64_t)(-(int64_t)sh) : (uint64_t)sh;
    d->topdown = sh < 0;
    if (is_dib) {
        hh /= 2;
        if (hh == 0) {
            free(d);
            return vgn_err_null(err, VGN_E_INVALID, "the icon bitmap header gives a zero height");
        }
    }
    d->w = (uint32_t)w;
    d->h = (uint32_t)hh;
    stride64 = ((w * (uint64_t)bpp + 31) / 32) * 4;
    if (stride64 > SIZE_MAX / 2) {
        free(d);
        return vgn_err_null(err, VGN_E_LIMIT, "the BMP rows are too large");
    }
    d->stride = (size_t)stride64;

    /* colour masks */
    pal_off = hoff + hsize;
    if (comp == BMP_BITFIELDS) {
        if (hsize == 40) { /* masks follow the header */
            masks_off = pal_off;
            pal_off += has_alpha_mask ? 16 : 12;
            if (pal_off > size) {
                free(d);
                snprintf(msg, sizeof msg, "the %s colour masks are truncated", what);
                return vgn_err_null(err, VGN_E_TRUNCATED, msg);
            }
        } else if (hsize >= 52) {
            masks_off = hoff + 40;
            has_alpha_mask = hsize >= 56;
        } else {
            free(d);
            snprintf(msg, sizeof msg, "the %s header has no room for its colour masks", what);
            return vgn_err_null(err, VGN_E_INVALID, msg);
        }
        set_mask(d, 0, rd32(data + masks_off));
        set_mask(d, 1, rd32(data + masks_off + 4));
        set_mask(d, 2, rd32(data + masks_off + 8));
        set_mask(d, 3, has_alpha_mask ? rd32(data + masks_off + 12) : 0);
        if ((d->mask[0] | d->mask[1] | d->mask[2] | d->mask[3]) == 0) {
            /* all-zero masks: fall back to the defaults */
            d->comp = BMP_RGB;
        }
    }
    if (d->comp != BMP_BITFIELDS) {
        if (bpp == 16) {
            set_mask(d, 0, 0x7C00); set_mask(d, 1, 0x03E0); set_mask(d, 2, 0x001F); set_mask(d, 3, 0);
        } else if (bpp == 32) {
            set_mask(d, 0, 0xFF0000); set_mask(d, 1, 0xFF00); set_mask(d, 2, 0xFF);
            /* 32-bit BI_RGB: the fourth byte is alpha only if some pixel's is non-zero (see
               use_alpha), as browsers read it: files written with it as padding stay opaque. */
            set_mask(d, 3, 0xFF000000u);
            d->guess_alpha = 1;
        }
    }

    /* palette (indices beyond it are black; entries beyond 256 are never used) */
    esize = core ? 3 : 4;
    pal_n = 0;
    if (bpp <= 8) {
        uint64_t declared = clr_used ? clr_used : (1u << bpp);
        size_t limit = size;
        if (declared > (uint64_t)(size - pal_off) / (uint64_t)esize && declared > (1u << bpp)) {
            free(d);
            snprintf(msg, sizeof msg, "the %s palette size %u does not fit in the file", what, (unsigned)clr_used);
            return vgn_err_null(err, VGN_E_INVALID, msg);
        }
        pal_n = declared > (1u << bpp) ? (1u << bpp) : (uint32_t)declared;
        if (!is_dib && file_off > pal_off && file_off < limit) limit = file_off;
        pal_avail = (uint32_t)((limit - pal_off) / (size_t)esize < pal_n ? (limit - pal_off) / (size_t)esize : pal_n);
        for (i = 0; i < pal_avail; i++) {
            const uint8_t *e = data + pal_off + (size_t)i * (size_t)esize;
            d->pal[i][0] = e[2];
            d->pal[i][1] = e[1];
            d->pal[i][2] = e[0];
            d->pal[i][3] = 255;
        }
        for (; i < 256; i++) {
            d->pal[i][0] = d->pal[i][1] = d->pal[i][2] = 0;
            d->pal[i][3] = 255;
        }
    } else if (clr_used > 0 && !is_dib) {
        /* a palette with true-colour pixels is only a display hint; skipped */
    }

    /* pixel array */
    if (is_dib) {
        size_t skip = (size_t)pal_n * (size_t)esize;
        if (bpp <= 8 && clr_used > (1u << bpp) && (uint64_t)clr_used * (uint64_t)esize <= (uint64_t)(size - pal_off))
            skip = (size_t)clr_used * (size_t)esize;
        d->pix_off = pal_off + skip <= size ? pal_off + skip : size;
        d->mask_stride = (size_t)(((w + 31) / 32) * 4);
        if (d->stride > 0 && (uint64_t)d->h > (uint64_t)(SIZE_MAX - d->pix_off) / d->stride)
            d->mask_off = SIZE_MAX;
        else
            d->mask_off = d->pix_off + d->stride * d->h;
    } else {
        if (file_off == 0 || file_off < pal_off) {
            /* no or bad bfOffBits: the pixels follow the palette */
            d->pix_off = pal_off + (size_t)pal_n * (size_t)esize;
            if (d->pix_off > size) d->pix_off = size;
        } else {
            d->pix_off = file_off;
        }
    }

    info->width = d->w;
    info->height = d->h;
    info->bit_depth = bpp <= 8 ? bpp : (bpp == 16 ? 5 : 8);
    if (bpp <= 8) {
        info->components = 1;
        info->bit_depth = bpp;
    } else if (d->comp == BMP_BITFIELDS && d->mask[3] != 0) {
        info->components = 4;
        info->has_alpha = 1;
    } else {
        info->components = 3;
    }
    if (d->comp == BMP_BITFIELDS) {
        int m = d->bits[0];
        for (i = 1; i < 4; i++) if (d->bits[i] > m) m = d->bits[i];
        info->bit_depth = m;
    } else if (bpp == 16) {
        info->bit_depth = 5;
    }
    if (is_dib) {
        info->has_alpha = 1; /* AND mask (or 32-bit alpha) */
        if (bpp == 32) info->components = 4;
    }
    info->orientation = 1;

    d->base.read_rows = bmp_read_rows;
    d->base.close = bmp_close;
    d->base.width = d->w;
    d->base.height = d->h;
    d->base.working = (d->comp == BMP_RLE8 || d->comp == BMP_RLE4) ? (size_t)d->h * sizeof(bmp_rowstart) : 0;
    return d;
}

vgn_decoder *vgn_bmp_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err)
{
    vgn_bmp *d;
    uint32_t off;
    if (data == NULL || info == NULL) return (vgn_decoder *)vgn_err_null(err, VGN_E_STATE, "no data");
    memset(info, 0, sizeof *info);
    if (size < 2 || data[0] != 'B' || data[1] != 'M') return (vgn_decoder *)vgn_err_null(err, VGN_E_INVALID, "not a BMP file");
    if (size < 18) return (vgn_decoder *)vgn_err_null(err, VGN_E_TRUNCATED, "the BMP header is truncated");
    off = rd32(data + 10);
    d = parse_dib(data, size, 14, off, 0, info, err);
    if (d == NULL) return NULL;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return &d->base;
}

vgn_decoder *vgn_dib_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err)
{
    vgn_bmp *d;
    if (data == NULL || info == NULL) return (vgn_decoder *)vgn_err_null(err, VGN_E_STATE, "no data");
    memset(info, 0, sizeof *info);
    d = parse_dib(data, size, 0, 0, 1, info, err);
    if (d == NULL) return NULL;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return &d->base;
}

/* ---- rows --------------------------------------------------------------------------------- */

static int bmp_fail(vgn_bmp *d, vgn_error *err, int code, const char *msg)
{
    d->fail_code = code;
    vgn_copy_message(d->fail_msg, msg);
    vgn_err_fill(err, code, msg, &d->warn);
    return code;
}

/* Converts one stored uncompressed row (n pixels available) into RGBA. */
static void convert_row(const vgn_bmp *d, const uint8_t *src, uint8_t *out, uint32_t n)
{
    uint32_t x;
    int bpp = d->bpp;
    if (bpp <= 8) {
        int ppb = 8 / bpp, mask = (1 << bpp) - 1;
        for (x = 0; x < n; x++) {
            uint8_t byte = src[x / (uint32_t)ppb];
            int shift = 8 - bpp * (int)(x % (uint32_t)ppb + 1);
            memcpy(out + (size_t)x * 4, d->pal[(byte >> shift) & mask], 4);
        }
    } else if (bpp == 24) {
        for (x = 0; x < n; x++) {
            const uint8_t *s = src + (size_t)x * 3;
            uint8_t *o = out + (size_t)x * 4;
            o[0] = s[2]; o[1] = s[1]; o[2] = s[0]; o[3] = 255;
        }
    } else {
        int i;
        for (x = 0; x < n; x++) {
            uint32_t v = bpp == 16 ? rd16(src + (size_t)x * 2) : rd32(src + (size_t)x * 4);
            uint8_t *o = out + (size_t)x * 4;
            for (i = 0; i < 3; i++)
                o[i] = d->bits[i] ? scale_bits((v & d->mask[i]) >> d->shift[i], d->bits[i]) : 0;
            o[3] = (d->bits[3] && d->use_alpha != 0) ? scale_bits((v & d->mask[3]) >> d->shift[3], d->bits[3]) : 255;
        }
    }
}

/* Does any 32-bit pixel have a non-zero alpha? (time over the data, no memory) */
static int any_alpha(const vgn_bmp *d)
{
    uint32_t y, x;
    for (y = 0; y < d->h; y++) {
        size_t off;
        if ((uint64_t)y * d->stride > (uint64_t)(d->size - d->pix_off)) break;
        off = d->pix_off + (size_t)y * d->stride;
        for (x = 0; x < d->w; x++) {
            if (off + (size_t)x * 4 + 4 > d->size) return 0;
            if (d->data[off + (size_t)x * 4 + 3] != 0) return 1;
        }
    }
    return 0;
}

/* RLE pass: walks the stream. With rows != NULL records each row's start; with out != NULL decodes
 * file row `target` into out (already cleared) and stops when leaving it. Returns the number of
 * file rows fully reached (for the scan) or 1 if the target row completed, 0 if the data ended. */
static uint32_t rle_walk(vgn_bmp *d, size_t pos, uint32_t x, uint32_t y, bmp_rowstart *rows, uint8_t *out,
                         int *complete)
{
    const uint8_t *p = d->data;
    size_t size = d->size;
    int rle4 = d->comp == BMP_RLE4;
    uint32_t w = d->w, h = d->h;
    *complete = 0;
    if (rows != NULL) {
        uint32_t i;
        for (i = 0; i < h; i++) rows[i].pos = SIZE_MAX, rows[i].x = 0;
        rows[0].pos = pos;
        rows[0].x = 0;
    }
    while (y < h) {
        uint32_t n, c, i;
        if (pos + 2 > size) return y; /* data ended inside row y */
        n = p[pos];
        c = p[pos + 1];
        pos += 2;
        if (n > 0) { /* encoded run */
            if (out != NULL) {
                for (i = 0; i < n && x < w; i++, x++) {
                    uint32_t idx = rle4 ? ((i & 1) ? (c & 15) : (c >> 4)) : c;
                    memcpy(out + (size_t)x * 4, d->pal[idx], 4);
                }
            } else {
                x = (n > w - (x < w ? x : w)) ? w : x + n;
            }
            continue;
        }
        if (c == 0 || c == 1) { /* end of line / end of bitmap */
            if (c == 1) {
                *complete = 1;
                return h;
            }
            if (out != NULL) {
                *complete = 1;
                return 1;
            }
            y++;
            x = 0;
            if (rows != NULL && y < h) rows[y].pos = pos, rows[y].x = 0;
            continue;
        }
        if (c == 2) { /* delta */
            uint32_t dx, dy;
            if (pos + 2 > size) return y;
            dx = p[pos];
            dy = p[pos + 1];
            pos += 2;
            x = x + dx > w ? w : x + dx;
            if (dy > 0) {
                if (out != NULL) {
                    *complete = 1;
                    return 1;
                }
                y = y + dy > h ? h : y + dy;
                if (rows != NULL && y < h) rows[y].pos = pos, rows[y].x = x;
            }
            continue;
        }
        /* absolute run of c pixels, padded to 16 bits */
        {
            size_t nbytes = rle4 ? ((size_t)c + 1) / 2 : (size_t)c;
            size_t padded = (nbytes + 1) & ~(size_t)1;
            if (pos + nbytes > size) return y;
            if (out != NULL) {
                for (i = 0; i < c && x < w; i++, x++) {
                    uint32_t idx = rle4 ? ((i & 1) ? (p[pos + i / 2] & 15) : (p[pos + i / 2] >> 4)) : p[pos + i];
                    memcpy(out + (size_t)x * 4, d->pal[idx], 4);
                }
            } else {
                x = (c > w - (x < w ? x : w)) ? w : x + c;
            }
            pos = pos + padded > size ? size : pos + padded;
        }
    }
    *complete = 1;
    return h;
}

static int bmp_read_rows(vgn_decoder *base, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_bmp *d = (vgn_bmp *)base;
    int n = 0;
    char msg[VGN_MSG_LEN];
    if (d->fail_code != 0) {
        vgn_err_fill(err, d->fail_code, d->fail_msg, &d->warn);
        return d->fail_code;
    }
    if ((d->comp == BMP_RLE8 || d->comp == BMP_RLE4) && d->rows == NULL && d->next < d->h) {
        int complete;
        d->rows = (bmp_rowstart *)malloc((size_t)d->h * sizeof(bmp_rowstart));
        if (d->rows == NULL) return bmp_fail(d, err, VGN_E_NOMEM, "out of memory");
        d->rle_stop_y = rle_walk(d, d->pix_off, 0, 0, d->rows, NULL, &complete);
        d->rle_complete = complete;
    }
    if (d->use_alpha < 0)
        d->use_alpha = d->bpp == 32 && (d->is_dib || d->guess_alpha) ? any_alpha(d) : !d->is_dib;

    while (n < max_rows && d->next < d->h) {
        uint32_t fy = d->topdown ? d->next : d->h - 1 - d->next; /* stored row */
        uint8_t *out = dst + (size_t)n * stride;
        size_t w4 = (size_t)d->w * 4;
        if (d->comp == BMP_RLE8 || d->comp == BMP_RLE4) {
            bmp_rowstart rs = d->rows[fy];
            memset(out, 0, w4);
            if (rs.pos != SIZE_MAX) {
                int complete;
                rle_walk(d, rs.pos, rs.x, fy, NULL, out, &complete);
                if (!complete) {
                    snprintf(msg, sizeof msg, "the BMP RLE data is truncated (row %u of %u)", (unsigned)(d->next + 1), (unsigned)d->h);
                    return n > 0 ? (bmp_fail(d, NULL, VGN_E_TRUNCATED, msg), vgn_err_fill(err, VGN_OK, NULL, &d->warn), n)
                                 : bmp_fail(d, err, VGN_E_TRUNCATED, msg);
                }
            } else if (!d->rle_complete && fy >= d->rle_stop_y) {
                /* never reached: the stream ended before this row */
                snprintf(msg, sizeof msg, "the BMP RLE data is truncated (row %u of %u)", (unsigned)(d->next + 1), (unsigned)d->h);
                return n > 0 ? (bmp_fail(d, NULL, VGN_E_TRUNCATED, msg), vgn_err_fill(err, VGN_OK, NULL, &d->warn), n)
                             : bmp_fail(d, err, VGN_E_TRUNCATED, msg);
            } /* else: skipped by a delta or after end-of-bitmap: transparent */
        } else {
            size_t need = ((size_t)d->w * (size_t)d->bpp + 7) / 8;
            size_t off;
            int ok = (uint64_t)fy * d->stride <= (uint64_t)(d->size - (d->pix_off <= d->size ? d->pix_off : d->size));
            if (ok) {
                off = d->pix_off + (size_t)fy * d->stride;
                ok = off <= d->size && d->size - off >= need;
            }
            if (!ok) {
                snprintf(msg, sizeof msg, "the %s pixel data is truncated (row %u of %u)", d->is_dib ? "icon bitmap" : "BMP",
                         (unsigned)(d->next + 1), (unsigned)d->h);
                if (n > 0) {
                    bmp_fail(d, NULL, VGN_E_TRUNCATED, msg);
                    vgn_err_fill(err, VGN_OK, NULL, &d->warn);
                    return n;
                }
                return bmp_fail(d, err, VGN_E_TRUNCATED, msg);
            }
            convert_row(d, d->data + off, out, d->w);
            if (d->is_dib && !d->use_alpha) {
                /* AND mask: bit 1 = transparent; a missing mask row leaves the row opaque */
                uint64_t moff = (uint64_t)d->mask_off + (uint64_t)fy * d->mask_stride;
                if (d->mask_off != SIZE_MAX && moff + d->mask_stride <= d->size) {
                    const uint8_t *m = d->data + (size_t)moff;
                    uint32_t x;
                    for (x = 0; x < d->w; x++)
                        if ((m[x >> 3] >> (7 - (x & 7))) & 1) memset(out + (size_t)x * 4, 0, 4);
                }
            }
        }
        n++;
        d->next++;
    }
    vgn_err_fill(err, VGN_OK, NULL, &d->warn);
    return n;
}

/* ---- ICO / CUR directory ------------------------------------------------------------------- */

static const uint8_t png_sig[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};

/* The real size and bits per pixel of the entry at data[off..off+len): 0 if unreadable. */
static int ico_entry_probe(const uint8_t *data, size_t off, size_t len, uint32_t *w, uint32_t *h, int *bpp, int *is_png)
{
    const uint8_t *p = data + off;
    *is_png = 0;
    if (len >= 8 && memcmp(p, png_sig, 8) == 0) {
        *is_png = 1;
        if (len < 8 + 8 + 13 || memcmp(p + 12, "IHDR", 4) != 0) return 0;
        *w = ((uint32_t)p[16] << 24) | ((uint32_t)p[17] << 16) | ((uint32_t)p[18] << 8) | p[19];
        *h = ((uint32_t)p[20] << 24) | ((uint32_t)p[21] << 16) | ((uint32_t)p[22] << 8) | p[23];
        {
            int depth = p[24], ct = p[25];
            int ch = ct == 2 ? 3 : ct == 4 ? 2 : ct == 6 ? 4 : 1;
            *bpp = ct == 3 ? depth : depth * ch;
        }
        return *w > 0 && *h > 0 && *w <= 0x7FFFFFFF && *h <= 0x7FFFFFFF;
    }
    if (len >= 16 && rd32(p) >= 12) {
        uint32_t hs = rd32(p);
        if (hs == 12) {
            *w = rd16(p + 4);
            *h = rd16(p + 6) / 2;
            *bpp = (int)rd16(p + 10);
        } else {
            int32_t sw = (int32_t)rd32(p + 4), sh = (int32_t)rd32(p + 8);
            if (sw <= 0 || sh <= 0) return 0;
            *w = (uint32_t)sw;
            *h = (uint32_t)sh / 2;
            *bpp = (int)rd16(p + 14);
        }
        return *w > 0 && *h > 0;
    }
    return 0;
}

int vgn_ico_select(const uint8_t *data, size_t size, uint32_t target, size_t *offset, size_t *length, int *is_png,
                   vgn_image_info *info, vgn_error *err)
{
    uint32_t type, count, i;
    int best = -1;
    uint32_t best_side = 0, best_w = 0, best_h = 0;
    int best_bpp = 0, best_png = 0;
    size_t best_off = 0, best_len = 0;
    int usable = 0;
    char msg[VGN_MSG_LEN];

    if (data == NULL || offset == NULL || length == NULL || is_png == NULL || info == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "no data", NULL);
        return VGN_E_STATE;
    }
    memset(info, 0, sizeof *info);
    *offset = *length = 0;
    *is_png = 0;
    if (size < 6 || rd16(data) != 0 || ((type = rd16(data + 2)) != 1 && type != 2)) {
        vgn_err_fill(err, VGN_E_INVALID, "not an ICO/CUR file", NULL);
        return VGN_E_INVALID;
    }
    count = rd16(data + 4);
    if (count == 0) {
        vgn_err_fill(err, VGN_E_INVALID, "the icon directory has no entries", NULL);
        return VGN_E_INVALID;
    }
    if ((size - 6) / 16 < count) {
        snprintf(msg, sizeof msg, "the icon directory is truncated (%u entries declared)", (unsigned)count);
        vgn_err_fill(err, VGN_E_TRUNCATED, msg, NULL);
        return VGN_E_TRUNCATED;
    }
    for (i = 0; i < count; i++) {
        const uint8_t *e = data + 6 + (size_t)i * 16;
        uint32_t len = rd32(e + 8), off = rd32(e + 12);
        uint32_t w, h, side;
        int bpp, png;
        size_t avail;
        if (off < 6 || off >= size) continue; /* entry outside the file */
        avail = size - off;
        /* a declared size running past the end is clamped to the file (truncated last entry) */
        if (len == 0 || len > avail) len = (uint32_t)(avail > 0xFFFFFFFFu ? 0xFFFFFFFFu : avail);
        if (len < 40 && avail >= 40 && !(avail >= 8 && memcmp(data + off, png_sig, 8) == 0))
            len = 40; /* room to read a DIB header; the real size is computed below */
        if (!ico_entry_probe(data, off, len, &w, &h, &bpp, &png)) continue;
        if (!png) {
            /* a DIB's real extent (header, palette, XOR bitmap, AND mask) when the directory
             * understates it, limited to the file */
            uint64_t hs = rd32(data + off), ncol = 0, need;
            if (bpp > 0 && bpp <= 8) {
                uint32_t used = (hs >= 36 && len >= 36) ? rd32(data + off + 32) : 0;
                ncol = (used > 0 && used <= 256) ? used : (1u << bpp);
            }
            need = hs + ncol * (hs == 12 ? 3 : 4) + (((uint64_t)w * (uint64_t)(bpp > 0 ? bpp : 1) + 31) / 32) * 4 * h +
                   (((uint64_t)w + 31) / 32) * 4 * h;
            if (need > len) len = need > avail ? (uint32_t)(avail > 0xFFFFFFFFu ? 0xFFFFFFFFu : avail) : (uint32_t)need;
        }
        if (!png && (e[6] | (e[7] << 8)) != 0 && type == 1 && bpp == 0) bpp = (int)rd16(e + 6);
        usable++;
        side = w > h ? w : h;
        {
            int better;
            if (best < 0) better = 1;
            else {
                int cov = target > 0 && side >= target, bcov = target > 0 && best_side >= target;
                if (target > 0 && cov != bcov) better = cov;
                else if (side != best_side) better = (target > 0 && cov) ? side < best_side : side > best_side;
                else better = bpp > best_bpp;
            }
            if (better) {
                best = (int)i;
                best_side = side;
                best_w = w;
                best_h = h;
                best_bpp = bpp;
                best_png = png;
                best_off = off;
                best_len = len;
            }
        }
    }
    if (best < 0) {
        vgn_err_fill(err, VGN_E_INVALID, "the icon has no readable image", NULL);
        return VGN_E_INVALID;
    }
    (void)usable;
    *offset = best_off;
    *length = best_len;
    *is_png = best_png;
    info->width = best_w;
    info->height = best_h;
    info->bit_depth = best_bpp >= 24 ? 8 : best_bpp;
    info->components = best_bpp >= 32 ? 4 : best_bpp == 24 ? 3 : 1;
    info->has_alpha = 1;
    info->orientation = 1;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return VGN_OK;
}
