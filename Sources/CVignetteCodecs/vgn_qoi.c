/* vgn_qoi.c - QOI ("Quite OK Image", qoiformat.org, specification 1.0) and PFM (the Portable
 * FloatMap, Netpbm's floating-point cousin). See vgn_decoder.h.
 *
 * QOI is a stream of operations, each pixel depending on the one before and on a 64-entry table
 * of pixels seen: rows are decoded in order as they are read, nothing allocated. The 4-byte
 * header fields are checked against the data: every pixel takes at least one byte of operation
 * unless it is in a run (62 at most a byte), so a header promising more than 62 pixels a byte is
 * refused at open.
 *
 * PFM rows are 32-bit floats, bottom-up, in the byte order the scale's sign gives. Values within
 * 0-1 are shown as they are (as for floating-point TIFFs: clamped, no transfer function); a
 * picture with values outside 0-1 is stretched over the range found (one pass over the data at
 * the first read), NaN and infinities black. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vgn_internal.h"

/* ---- QOI ---------------------------------------------------------------------------------- */

typedef struct {
    vgn_decoder base;
    const uint8_t *data;
    size_t size, pos;
    uint8_t index[64][4];
    uint8_t px[4];
    uint32_t run;       /* pixels still to repeat */
    uint32_t next_row;
} vgn_qoi;

static void vgn_qoi_close(vgn_decoder *d) { free(d); }

static int vgn_qoi_read_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_qoi *q = (vgn_qoi *)d;
    const uint8_t *p = q->data;
    int n = 0;
    while (n < max_rows && q->next_row < q->base.height) {
        uint8_t *out = dst + (size_t)n * stride;
        uint32_t x;
        for (x = 0; x < q->base.width; x++, out += 4) {
            if (q->run > 0) {
                q->run--;
            } else {
                uint8_t b;
                if (q->pos >= q->size) goto truncated;
                b = p[q->pos++];
                if (b == 0xFE || b == 0xFF) { /* QOI_OP_RGB, QOI_OP_RGBA */
                    size_t need = b == 0xFE ? 3 : 4;
                    if (q->size - q->pos < need) goto truncated;
                    memcpy(q->px, p + q->pos, need);
                    q->pos += need;
                } else if ((b & 0xC0) == 0x00) { /* QOI_OP_INDEX */
                    memcpy(q->px, q->index[b], 4);
                } else if ((b & 0xC0) == 0x40) { /* QOI_OP_DIFF: -2..1 each */
                    q->px[0] = (uint8_t)(q->px[0] + ((b >> 4) & 3) - 2);
                    q->px[1] = (uint8_t)(q->px[1] + ((b >> 2) & 3) - 2);
                    q->px[2] = (uint8_t)(q->px[2] + (b & 3) - 2);
                } else if ((b & 0xC0) == 0x80) { /* QOI_OP_LUMA: green -32..31, red and blue relative to it */
                    int dg, b2;
                    if (q->pos >= q->size) goto truncated;
                    b2 = p[q->pos++];
                    dg = (b & 0x3F) - 32;
                    q->px[0] = (uint8_t)(q->px[0] + dg - 8 + ((b2 >> 4) & 0x0F));
                    q->px[1] = (uint8_t)(q->px[1] + dg);
                    q->px[2] = (uint8_t)(q->px[2] + dg - 8 + (b2 & 0x0F));
                } else { /* QOI_OP_RUN: 1..62 */
                    q->run = (uint32_t)(b & 0x3F);
                }
                memcpy(q->index[(q->px[0] * 3 + q->px[1] * 5 + q->px[2] * 7 + q->px[3] * 11) % 64], q->px, 4);
            }
            memcpy(out, q->px, 4);
        }
        n++;
        q->next_row++;
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return n;
truncated:
    vgn_err_fill(err, VGN_E_TRUNCATED, "the pixels end before the last row", NULL);
    return n > 0 ? n : VGN_E_TRUNCATED;
}

static uint32_t vgn_be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

vgn_decoder *vgn_qoi_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err)
{
    vgn_qoi *q;
    uint32_t w, h;
    if (data == NULL || info == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "no data", NULL);
        return NULL;
    }
    memset(info, 0, sizeof *info);
    if (size < 14 || memcmp(data, "qoif", 4) != 0) {
        vgn_err_fill(err, VGN_E_INVALID, "no \"qoif\" header", NULL);
        return NULL;
    }
    w = vgn_be32(data + 4);
    h = vgn_be32(data + 8);
    if (w == 0 || h == 0 || (data[12] != 3 && data[12] != 4) || data[13] > 1) {
        char m[VGN_MSG_LEN];
        snprintf(m, sizeof m, "the header says %u x %u pixels, %u channels, colour space %u", w, h, data[12], data[13]);
        vgn_err_fill(err, VGN_E_INVALID, m, NULL);
        return NULL;
    }
    if ((uint64_t)w * h > (uint64_t)(size - 14) * 62) {
        vgn_err_fill(err, VGN_E_TRUNCATED, "the file is too short for the pixels its header gives", NULL);
        return NULL;
    }
    q = (vgn_qoi *)calloc(1, sizeof *q);
    if (q == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return NULL;
    }
    q->base.read_rows = vgn_qoi_read_rows;
    q->base.close = vgn_qoi_close;
    q->base.width = info->width = w;
    q->base.height = info->height = h;
    q->base.opaque = data[12] == 3;
    q->data = data;
    q->size = size;
    q->pos = 14;
    q->px[3] = 255;
    info->components = data[12];
    info->has_alpha = data[12] == 4;
    info->bit_depth = 8;
    info->orientation = 1;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return &q->base;
}

/* ---- PFM ---------------------------------------------------------------------------------- */

typedef struct {
    vgn_decoder base;
    const uint8_t *raster; /* the first stored (bottom) row */
    int channels;          /* 1 or 3 */
    int little;
    int ranged;            /* the range below is known */
    float low, scale;      /* shown value = (v - low) * scale */
    uint32_t next_row;
} vgn_pfm;

static void vgn_pfm_close(vgn_decoder *d) { free(d); }

static float vgn_pfm_value(const vgn_pfm *f, const uint8_t *p)
{
    uint32_t bits = f->little ? (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0] : vgn_be32(p);
    float v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* The range of the finite values: kept as 0-1 when they all lie within it. */
static void vgn_pfm_range(vgn_pfm *f)
{
    size_t count = (size_t)f->base.width * f->base.height * (size_t)f->channels, i;
    float lo = INFINITY, hi = -INFINITY;
    for (i = 0; i < count; i++) {
        float v = vgn_pfm_value(f, f->raster + i * 4);
        if (!isfinite(v)) continue;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    f->low = 0.0f;
    f->scale = 255.0f;
    if (lo < hi && (lo < 0.0f || hi > 1.0f)) {
        f->low = lo;
        f->scale = 255.0f / (hi - lo);
    }
    f->ranged = 1;
}

static int vgn_pfm_read_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_pfm *f = (vgn_pfm *)d;
    size_t row_bytes = (size_t)f->base.width * (size_t)f->channels * 4;
    int n = 0;
    if (!f->ranged) vgn_pfm_range(f);
    while (n < max_rows && f->next_row < f->base.height) {
        const uint8_t *row = f->raster + (size_t)(f->base.height - 1 - f->next_row) * row_bytes;
        uint8_t *out = dst + (size_t)n * stride;
        uint32_t x;
        int c;
        for (x = 0; x < f->base.width; x++, out += 4) {
            for (c = 0; c < 3; c++) {
                float v = vgn_pfm_value(f, row + ((size_t)x * (size_t)f->channels + (size_t)(f->channels == 3 ? c : 0)) * 4);
                float s = isfinite(v) ? (v - f->low) * f->scale : 0.0f;
                out[c] = (uint8_t)(s <= 0.0f ? 0 : s >= 255.0f ? 255 : (int)(s + 0.5f));
            }
            out[3] = 255;
        }
        n++;
        f->next_row++;
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return n;
}

/* Reads a decimal number token at *pos (after blanks); 0 when there is none. */
static int vgn_pfm_token(const uint8_t *p, size_t size, size_t *pos, char *out, size_t n)
{
    size_t k = 0;
    while (*pos < size && (p[*pos] == ' ' || p[*pos] == '\t' || p[*pos] == '\r' || p[*pos] == '\n')) (*pos)++;
    while (*pos < size && k + 1 < n && p[*pos] != ' ' && p[*pos] != '\t' && p[*pos] != '\r' && p[*pos] != '\n')
        out[k++] = (char)p[(*pos)++];
    out[k] = '\0';
    return k > 0;
}

vgn_decoder *vgn_pfm_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err)
{
    vgn_pfm *f;
    char tw[16], th[16], ts[32], *end;
    size_t pos = 2;
    unsigned long w, h;
    double scale;
    int channels;
    if (data == NULL || info == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "no data", NULL);
        return NULL;
    }
    memset(info, 0, sizeof *info);
    if (size < 3 || data[0] != 'P' || (data[1] != 'F' && data[1] != 'f')) {
        vgn_err_fill(err, VGN_E_INVALID, "no \"PF\" or \"Pf\" header", NULL);
        return NULL;
    }
    channels = data[1] == 'F' ? 3 : 1;
    if (!vgn_pfm_token(data, size, &pos, tw, sizeof tw) || !vgn_pfm_token(data, size, &pos, th, sizeof th) ||
        !vgn_pfm_token(data, size, &pos, ts, sizeof ts)) {
        vgn_err_fill(err, VGN_E_TRUNCATED, "the header ends early", NULL);
        return NULL;
    }
    w = strtoul(tw, &end, 10);
    if (*end != '\0') w = 0;
    h = strtoul(th, &end, 10);
    if (*end != '\0') h = 0;
    scale = strtod(ts, &end);
    if (w == 0 || h == 0 || w > 0xFFFFFFFFul || h > 0xFFFFFFFFul || *end != '\0' || scale == 0.0 || !isfinite(scale) ||
        pos >= size) {
        vgn_err_fill(err, VGN_E_INVALID, "the header gives no valid size and scale", NULL);
        return NULL;
    }
    pos++; /* the single whitespace character before the raster */
    if ((uint64_t)w * h > (uint64_t)(size - pos) / ((uint64_t)channels * 4)) {
        vgn_err_fill(err, VGN_E_TRUNCATED, "the file is too short for the pixels its header gives", NULL);
        return NULL;
    }
    f = (vgn_pfm *)calloc(1, sizeof *f);
    if (f == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return NULL;
    }
    f->base.read_rows = vgn_pfm_read_rows;
    f->base.close = vgn_pfm_close;
    f->base.width = info->width = (uint32_t)w;
    f->base.height = info->height = (uint32_t)h;
    f->base.opaque = 1;
    f->raster = data + pos;
    f->channels = channels;
    f->little = scale < 0;
    info->components = channels;
    info->bit_depth = 32;
    info->orientation = 1;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return &f->base;
}
