/* vgn_tga.c - Truevision TGA: colour-mapped (1/9), true-colour (2/10), grey (3/11); raw or RLE; any
 * origin. See vgn_decoder.h.
 *
 * The file is in memory: raw rows are converted straight from the input (bottom-up files read from
 * the end). RLE packets may cross rows, so the first read_rows scans the packet stream once and
 * records where each stored row starts (offset + what is left of the packet in progress, 16 bytes
 * per row, reported in base.working); rows are then decoded in any order. Colour-map entries are
 * converted from the input on the fly (no table is built).
 *
 * Alpha: 32-bit pixels and 16-bit pixels use their alpha only when the descriptor's attribute-bit
 * count is non-zero (8 resp. 1 in practice); otherwise they are opaque. 16-bit grey is grey+alpha.
 *
 * Truncation: read_rows returns VGN_E_TRUNCATED at the first output row that cannot be fully
 * decoded (rows before stay valid).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vgn_internal.h"

typedef struct {
    size_t pos;    /* run: offset of the run's pixel value; raw: offset of the next pixel; 0 rem: next header */
    uint32_t rem;  /* pixels left in the packet in progress */
    uint32_t run;  /* the packet in progress is a run */
} tga_rowstart;

typedef struct {
    vgn_decoder base;
    const uint8_t *data;
    size_t size;
    uint32_t w, h;
    int type;        /* 1, 2, 3 (without the RLE bit) */
    int rle;
    int depth;       /* bits per stored pixel */
    int bpp;         /* bytes per stored pixel */
    int use_alpha;   /* 16/32-bit: alpha from the attribute bits */
    int top, right;  /* origin */
    size_t cmap_off; /* colour map */
    uint32_t cmap_first, cmap_len;
    int cmap_depth, cmap_bpp;
    size_t pix_off;
    size_t row_bytes; /* raw rows */
    tga_rowstart *rows;
    uint32_t rows_reached; /* RLE: stored rows whose start the scan reached */
    uint32_t next;
    int fail_code;
    char fail_msg[VGN_MSG_LEN];
} vgn_tga;

static uint32_t rd16(const uint8_t *p) { return (uint32_t)p[0] | ((uint32_t)p[1] << 8); }

static void tga_close(vgn_decoder *base)
{
    vgn_tga *d = (vgn_tga *)base;
    if (d == NULL) return;
    free(d->rows);
    free(d);
}

static int tga_read_rows(vgn_decoder *base, uint8_t *dst, size_t stride, int max_rows, vgn_error *err);

vgn_decoder *vgn_tga_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err)
{
    char msg[VGN_MSG_LEN];
    int idlen, cmtype, type, depth, desc, abits;
    uint32_t cmfirst, cmlen, w, h;
    int cmdepth;
    size_t off;
    vgn_tga *d;

    if (data == NULL || info == NULL) return vgn_err_null(err, VGN_E_STATE, "no data");
    memset(info, 0, sizeof *info);
    if (size < 18) return vgn_err_null(err, VGN_E_INVALID, "the file is too short for a TGA header");
    idlen = data[0];
    cmtype = data[1];
    type = data[2];
    cmfirst = rd16(data + 3);
    cmlen = rd16(data + 5);
    cmdepth = data[7];
    w = rd16(data + 12);
    h = rd16(data + 14);
    depth = data[16];
    desc = data[17];
    abits = desc & 15;

    if (!(type == 1 || type == 2 || type == 3 || type == 9 || type == 10 || type == 11)) {
        snprintf(msg, sizeof msg, "the TGA image type %d is not a known one", type);
        return vgn_err_null(err, VGN_E_INVALID, msg);
    }
    if (cmtype > 1) {
        snprintf(msg, sizeof msg, "the TGA colour map type %d is not a known one", cmtype);
        return vgn_err_null(err, VGN_E_INVALID, msg);
    }
    if (w == 0 || h == 0) return vgn_err_null(err, VGN_E_INVALID, "the TGA header gives a zero size");
    if ((desc & 0xC0) != 0)
        return vgn_err_null(err, VGN_E_INVALID, "the TGA header asks for interleaved rows (not a TGA file?)");
    if ((type & 7) == 1) {
        if (cmtype != 1 || cmlen == 0) return vgn_err_null(err, VGN_E_INVALID, "the colour-mapped TGA has no colour map");
        if (depth != 8 && depth != 16) {
            snprintf(msg, sizeof msg, "the colour-mapped TGA has an invalid index size of %d bits", depth);
            return vgn_err_null(err, VGN_E_INVALID, msg);
        }
    } else if ((type & 7) == 2) {
        if (depth != 15 && depth != 16 && depth != 24 && depth != 32) {
            snprintf(msg, sizeof msg, "the true-colour TGA has an invalid depth of %d bits", depth);
            return vgn_err_null(err, VGN_E_INVALID, msg);
        }
    } else {
        if (depth != 8 && depth != 16) {
            snprintf(msg, sizeof msg, "the greyscale TGA has an invalid depth of %d bits", depth);
            return vgn_err_null(err, VGN_E_INVALID, msg);
        }
    }
    if (cmtype == 1 && !(cmdepth == 15 || cmdepth == 16 || cmdepth == 24 || cmdepth == 32)) {
        if ((type & 7) == 1 || cmlen > 0) {
            snprintf(msg, sizeof msg, "the TGA colour map has an invalid entry size of %d bits", cmdepth);
            return vgn_err_null(err, VGN_E_INVALID, msg);
        }
    }

    off = 18 + (size_t)idlen;
    d = (vgn_tga *)calloc(1, sizeof *d);
    if (d == NULL) return vgn_err_null(err, VGN_E_NOMEM, "out of memory");
    d->data = data;
    d->size = size;
    d->w = w;
    d->h = h;
    d->type = type & 7;
    d->rle = (type & 8) != 0;
    d->depth = depth;
    d->bpp = (depth + 7) / 8;
    d->top = (desc & 0x20) != 0;
    d->right = (desc & 0x10) != 0;
    d->use_alpha = ((d->type == 2 && (depth == 32 || depth == 16)) && abits > 0) || (d->type == 3 && depth == 16);
    if (cmtype == 1) {
        int cbpp = (cmdepth + 7) / 8;
        size_t cbytes = (size_t)cmlen * (size_t)(cbpp > 0 ? cbpp : 0);
        d->cmap_off = off;
        d->cmap_first = cmfirst;
        d->cmap_len = cmlen;
        d->cmap_depth = cmdepth;
        d->cmap_bpp = cbpp;
        if (off > size || size - off < cbytes) {
            free(d);
            return vgn_err_null(err, VGN_E_TRUNCATED, "the TGA colour map is truncated");
        }
        off += cbytes;
    }
    if (off > size) {
        free(d);
        return vgn_err_null(err, VGN_E_TRUNCATED, "the TGA header is truncated");
    }
    d->pix_off = off;
    d->row_bytes = (size_t)w * (size_t)d->bpp; /* w <= 65535, bpp <= 4 */

    info->width = w;
    info->height = h;
    if (d->type == 1) {
        info->components = 1;
        info->bit_depth = depth;
        info->has_alpha = cmdepth == 32 && abits > 0;
    } else if (d->type == 2) {
        info->components = d->use_alpha ? 4 : 3;
        info->bit_depth = depth <= 16 ? 5 : 8;
        info->has_alpha = d->use_alpha;
    } else {
        info->components = depth == 16 ? 2 : 1;
        info->bit_depth = 8;
        info->has_alpha = depth == 16;
    }
    info->orientation = 1;
    /* colour-mapped entries of 32 bits: alpha when the attribute bits say so */
    d->base.read_rows = tga_read_rows;
    d->base.close = tga_close;
    d->base.width = w;
    d->base.height = h;
    d->base.working = d->rle ? (size_t)h * sizeof(tga_rowstart) : 0;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return &d->base;
}

/* A true-colour value of `depth` bits at p to RGBA (alpha: whether to honour the alpha bits). */
static void tga_colour(const uint8_t *p, int depth, int alpha, uint8_t *o)
{
    if (depth == 15 || depth == 16) {
        uint32_t v = rd16(p);
        uint32_t r = (v >> 10) & 31, g = (v >> 5) & 31, b = v & 31;
        o[0] = (uint8_t)((r << 3) | (r >> 2));
        o[1] = (uint8_t)((g << 3) | (g >> 2));
        o[2] = (uint8_t)((b << 3) | (b >> 2));
        o[3] = (depth == 16 && alpha) ? ((v & 0x8000) ? 255 : 0) : 255;
    } else {
        o[0] = p[2];
        o[1] = p[1];
        o[2] = p[0];
        o[3] = (depth == 32 && alpha) ? p[3] : 255;
    }
}

static void tga_pixel(const vgn_tga *d, const uint8_t *p, uint8_t *o)
{
    if (d->type == 1) {
        uint32_t idx = d->depth == 16 ? rd16(p) : p[0];
        if (idx < d->cmap_first || idx - d->cmap_first >= d->cmap_len) {
            o[0] = o[1] = o[2] = 0;
            o[3] = 255;
            return;
        }
        /* alpha of 32-bit entries honoured when the descriptor has attribute bits */
        tga_colour(d->data + d->cmap_off + (size_t)(idx - d->cmap_first) * (size_t)d->cmap_bpp, d->cmap_depth,
                   (d->data[17] & 15) != 0, o);
    } else if (d->type == 2) {
        tga_colour(p, d->depth, d->use_alpha, o);
    } else {
        o[0] = o[1] = o[2] = p[0];
        o[3] = d->depth == 16 ? p[1] : 255;
    }
}

/* RLE scan: records each stored row's start. */
static int tga_scan(vgn_tga *d)
{
    uint64_t total = (uint64_t)d->w * d->h, c = 0;
    size_t pos = d->pix_off, bpp = (size_t)d->bpp;
    uint32_t w = d->w;
    d->rows = (tga_rowstart *)malloc((size_t)d->h * sizeof(tga_rowstart));
    if (d->rows == NULL) return -1;
    d->rows_reached = 0;
    while (c < total) {
        uint32_t n, run;
        uint64_t r, end;
        size_t body;
        if (pos >= d->size) break;
        n = (uint32_t)(d->data[pos] & 0x7F) + 1;
        run = (d->data[pos] & 0x80) != 0;
        pos++;
        body = run ? bpp : (size_t)n * bpp;
        end = c + n;
        /* rows starting inside [c, end) */
        for (r = (c + w - 1) / w; r * w < end && r < d->h; r++) {
            uint32_t skip = (uint32_t)(r * w - c);
            tga_rowstart *s = &d->rows[r];
            s->rem = n - skip;
            s->run = run;
            s->pos = run ? pos : pos + (size_t)skip * bpp;
            d->rows_reached = (uint32_t)r + 1;
        }
        if (body > d->size - pos) break; /* the packet's data is cut short */
        pos += body;
        c = end;
    }
    return 0;
}

/* Decodes stored row r of an RLE image into out; 0 ok, -1 the data ends early. */
static int tga_rle_row(const vgn_tga *d, uint32_t r, uint8_t *out)
{
    tga_rowstart s = d->rows[r];
    size_t bpp = (size_t)d->bpp;
    uint32_t x = 0;
    if (s.pos > d->size) return -1;
    while (x < d->w) {
        uint32_t k, i;
        if (s.rem == 0) {
            if (s.pos >= d->size) return -1;
            s.rem = (uint32_t)(d->data[s.pos] & 0x7F) + 1;
            s.run = (d->data[s.pos] & 0x80) != 0;
            s.pos++;
        }
        k = s.rem < d->w - x ? s.rem : d->w - x;
        if (s.run) {
            uint8_t px[4];
            if (bpp > d->size - s.pos) return -1;
            tga_pixel(d, d->data + s.pos, px);
            for (i = 0; i < k; i++) memcpy(out + (size_t)(x + i) * 4, px, 4);
            s.rem -= k;
            if (s.rem == 0) s.pos += bpp;
        } else {
            if ((size_t)k * bpp > d->size - s.pos) return -1;
            for (i = 0; i < k; i++) tga_pixel(d, d->data + s.pos + (size_t)i * bpp, out + (size_t)(x + i) * 4);
            s.pos += (size_t)k * bpp;
            s.rem -= k;
        }
        x += k;
    }
    return 0;
}

static int tga_fail(vgn_tga *d, vgn_error *err, int code, const char *msg)
{
    d->fail_code = code;
    vgn_copy_message(d->fail_msg, msg);
    vgn_err_fill(err, code, msg, NULL);
    return code;
}

static int tga_read_rows(vgn_decoder *base, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_tga *d = (vgn_tga *)base;
    int n = 0;
    if (d->fail_code != 0) {
        vgn_err_fill(err, d->fail_code, d->fail_msg, NULL);
        return d->fail_code;
    }
    if (d->rle && d->rows == NULL && d->next < d->h && tga_scan(d) != 0)
        return tga_fail(d, err, VGN_E_NOMEM, "out of memory");
    while (n < max_rows && d->next < d->h) {
        uint32_t r = d->top ? d->next : d->h - 1 - d->next;
        uint8_t *out = dst + (size_t)n * stride;
        int ok;
        if (d->rle) {
            ok = r < d->rows_reached && tga_rle_row(d, r, out) == 0;
        } else {
            size_t avail = d->size - d->pix_off;
            ok = (uint64_t)(r + 1) * d->row_bytes <= avail;
            if (ok) {
                const uint8_t *p = d->data + d->pix_off + (size_t)r * d->row_bytes;
                uint32_t x;
                for (x = 0; x < d->w; x++) tga_pixel(d, p + (size_t)x * (size_t)d->bpp, out + (size_t)x * 4);
            }
        }
        if (!ok) {
            char msg[VGN_MSG_LEN];
            snprintf(msg, sizeof msg, "the TGA pixel data is truncated (row %u of %u)", (unsigned)(d->next + 1), (unsigned)d->h);
            if (n > 0) {
                tga_fail(d, NULL, VGN_E_TRUNCATED, msg);
                vgn_err_fill(err, VGN_OK, NULL, NULL);
                return n;
            }
            return tga_fail(d, err, VGN_E_TRUNCATED, msg);
        }
        if (d->right) {
            uint32_t a = 0, b = d->w - 1;
            while (a < b) {
                uint8_t t[4];
                memcpy(t, out + (size_t)a * 4, 4);
                memcpy(out + (size_t)a * 4, out + (size_t)b * 4, 4);
                memcpy(out + (size_t)b * 4, t, 4);
                a++, b--;
            }
        }
        n++;
        d->next++;
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return n;
}
