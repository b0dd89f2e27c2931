/* vgn_pnm.c - Netpbm PBM/PGM/PPM (P1-P6, ASCII and binary) and PAM (P7). See vgn_decoder.h.
 *
 * Rows are top-down, so binary rows are converted straight from the input and ASCII rows are
 * parsed from a kept position: nothing is allocated while reading (base.working is 0). Samples are
 * scaled from maxval (1..65535) to 8 bits with rounding; values above maxval are clamped. PBM's 1
 * is black; PAM BLACKANDWHITE uses the PAM meaning (1 = white, i.e. plain maxval-1 scaling).
 * Comments ('#' to the end of the line) are accepted anywhere in the header and, leniently,
 * between ASCII samples.
 *
 * Truncation: read_rows returns VGN_E_TRUNCATED at the first row that cannot be completed (rows
 * before stay valid).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vgn_internal.h"

typedef struct {
    vgn_decoder base;
    const uint8_t *data;
    size_t size;
    int kind;          /* 1..7 */
    uint32_t w, h;
    uint32_t maxval;
    int depth;         /* samples per pixel: 1..4 */
    int ascii;
    size_t pos;        /* raster start (binary) / parse position (ASCII) */
    size_t row_bytes;  /* binary */
    uint32_t next;
    int fail_code;
    char fail_msg[VGN_MSG_LEN];
} vgn_pnm;

static int is_space(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

/* Skips whitespace and comments. */
static size_t skip_ws(const uint8_t *p, size_t size, size_t pos)
{
    while (pos < size) {
        if (is_space(p[pos])) pos++;
        else if (p[pos] == '#') {
            while (pos < size && p[pos] != '\n' && p[pos] != '\r') pos++;
        } else break;
    }
    return pos;
}

/* Reads an unsigned decimal (saturating at 0xFFFFFFFF) after whitespace/comments.
 * Returns 1 ok, 0 end of data, -1 not a number. */
static int read_uint(const uint8_t *p, size_t size, size_t *pos, uint32_t *out)
{
    size_t i = skip_ws(p, size, *pos);
    uint64_t v = 0;
    if (i >= size) {
        *pos = i;
        return 0;
    }
    if (p[i] < '0' || p[i] > '9') {
        *pos = i;
        return -1;
    }
    while (i < size && p[i] >= '0' && p[i] <= '9') {
        v = v * 10 + (uint64_t)(p[i] - '0');
        if (v > 0xFFFFFFFFull) v = 0xFFFFFFFFull;
        i++;
    }
    *pos = i;
    *out = (uint32_t)v;
    return 1;
}

static void pnm_close(vgn_decoder *base)
{
    free(base);
}

static int pnm_read_rows(vgn_decoder *base, uint8_t *dst, size_t stride, int max_rows, vgn_error *err);

/* PAM header: "KEY value" lines up to ENDHDR. Returns NULL (and fills err) on error. */
static const char *pam_header(const uint8_t *p, size_t size, size_t *pos, uint32_t *w, uint32_t *h, uint32_t *depth,
                              uint32_t *maxval, int *code)
{
    size_t i = *pos;
    int got_w = 0, got_h = 0, got_d = 0, got_m = 0;
    *code = VGN_E_INVALID;
    for (;;) {
        size_t k0, klen;
        i = skip_ws(p, size, i);
        if (i >= size) {
            *code = VGN_E_TRUNCATED;
            return "the PAM header ends before ENDHDR";
        }
        k0 = i;
        while (i < size && !is_space(p[i])) i++;
        klen = i - k0;
        if (klen == 6 && memcmp(p + k0, "ENDHDR", 6) == 0) {
            /* the raster starts after the end of this line */
            while (i < size && p[i] != '\n') i++;
            if (i < size) i++;
            break;
        }
        if (klen == 8 && memcmp(p + k0, "TUPLTYPE", 8) == 0) {
            while (i < size && p[i] != '\n') i++; /* informational: DEPTH decides the layout */
            continue;
        }
        {
            uint32_t v = 0, *dst = NULL;
            int *flag = NULL;
            if (klen == 5 && memcmp(p + k0, "WIDTH", 5) == 0) dst = w, flag = &got_w;
            else if (klen == 6 && memcmp(p + k0, "HEIGHT", 6) == 0) dst = h, flag = &got_h;
            else if (klen == 5 && memcmp(p + k0, "DEPTH", 5) == 0) dst = depth, flag = &got_d;
            else if (klen == 6 && memcmp(p + k0, "MAXVAL", 6) == 0) dst = maxval, flag = &got_m;
            else return "the PAM header has an unknown keyword";
            /* the value is on the same line */
            while (i < size && (p[i] == ' ' || p[i] == '\t')) i++;
            if (i >= size) {
                *code = VGN_E_TRUNCATED;
                return "the PAM header ends before ENDHDR";
            }
            if (p[i] < '0' || p[i] > '9') return "the PAM header has a keyword without a number";
            if (read_uint(p, size, &i, &v) != 1) return "the PAM header has a keyword without a number";
            *dst = v;
            *flag = 1;
        }
    }
    *pos = i;
    if (!got_w || !got_h || !got_d || !got_m) return "the PAM header lacks WIDTH, HEIGHT, DEPTH or MAXVAL";
    return NULL;
}

vgn_decoder *vgn_pnm_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err)
{
    vgn_pnm *d;
    int kind;
    uint32_t w = 0, h = 0, maxval = 1, depth = 1;
    size_t pos = 2;
    char msg[VGN_MSG_LEN];

    if (data == NULL || info == NULL) return vgn_err_null(err, VGN_E_STATE, "no data");
    memset(info, 0, sizeof *info);
    if (size < 2 || data[0] != 'P' || data[1] < '1' || data[1] > '7') return vgn_err_null(err, VGN_E_INVALID, "not a PNM file");
    kind = data[1] - '0';
    if (size < 3 || !is_space(data[2])) return vgn_err_null(err, size < 3 ? VGN_E_TRUNCATED : VGN_E_INVALID,
                                                             size < 3 ? "the PNM header is truncated" : "not a PNM file");
    if (kind == 7) {
        int code;
        const char *m = pam_header(data, size, &pos, &w, &h, &depth, &maxval, &code);
        if (m != NULL) return vgn_err_null(err, code, m);
        if (depth < 1 || depth > 4) {
            snprintf(msg, sizeof msg, "PAM images of depth %u are not supported", (unsigned)depth);
            return vgn_err_null(err, VGN_E_UNSUPPORTED, msg);
        }
    } else {
        int nfields = (kind == 1 || kind == 4) ? 2 : 3, i, r = 1;
        uint32_t v[3] = {0, 0, 1};
        for (i = 0; i < nfields; i++) {
            r = read_uint(data, size, &pos, &v[i]);
            if (r != 1) break;
        }
        if (r == 0) return vgn_err_null(err, VGN_E_TRUNCATED, "the PNM header is truncated");
        if (r < 0) return vgn_err_null(err, VGN_E_INVALID, "the PNM header has a non-numeric field");
        w = v[0];
        h = v[1];
        maxval = v[2];
        depth = (kind == 3 || kind == 6) ? 3 : 1;
        if (kind >= 4) {
            /* exactly one whitespace byte before the raster */
            if (pos >= size) return vgn_err_null(err, VGN_E_TRUNCATED, "the PNM file has no pixel data");
            if (!is_space(data[pos])) return vgn_err_null(err, VGN_E_INVALID, "the PNM header is not followed by whitespace");
            pos++;
        }
    }
    if (w == 0 || h == 0) return vgn_err_null(err, VGN_E_INVALID, "the PNM header gives a zero size");
    if (w > 0x7FFFFFFFu || h > 0x7FFFFFFFu) return vgn_err_null(err, VGN_E_INVALID, "the PNM header gives a size too large");
    if (maxval == 0 || maxval > 65535) {
        snprintf(msg, sizeof msg, "the PNM maximum value %u is out of range (1..65535)", (unsigned)maxval);
        return vgn_err_null(err, VGN_E_INVALID, msg);
    }

    d = (vgn_pnm *)calloc(1, sizeof *d);
    if (d == NULL) return vgn_err_null(err, VGN_E_NOMEM, "out of memory");
    d->data = data;
    d->size = size;
    d->kind = kind;
    d->w = w;
    d->h = h;
    d->maxval = maxval;
    d->depth = (int)depth;
    d->ascii = kind <= 3;
    d->pos = pos;
    if (kind == 4) {
        d->row_bytes = (size_t)(((uint64_t)w + 7) / 8);
    } else if (kind >= 5) {
        uint64_t rb = (uint64_t)w * depth * (maxval > 255 ? 2u : 1u);
        if (rb > SIZE_MAX / 2) {
            free(d);
            return vgn_err_null(err, VGN_E_LIMIT, "the PNM rows are too large");
        }
        d->row_bytes = (size_t)rb;
    }

    info->width = w;
    info->height = h;
    info->components = (int)depth;
    info->has_alpha = depth == 2 || depth == 4;
    if (kind == 1 || kind == 4) info->bit_depth = 1;
    else {
        int b = 1;
        while (b < 16 && (maxval >> b) != 0) b++;
        info->bit_depth = b;
    }
    info->orientation = 1;
    d->base.read_rows = pnm_read_rows;
    d->base.close = pnm_close;
    d->base.width = w;
    d->base.height = h;
    d->base.working = 0;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return &d->base;
}

static uint8_t pnm_scale(const vgn_pnm *d, uint32_t v)
{
    if (v >= d->maxval) return 255;
    if (d->maxval == 255) return (uint8_t)v;
    return (uint8_t)(((uint64_t)v * 255 + d->maxval / 2) / d->maxval);
}

/* Stores `depth` scaled samples as RGBA. */
static void pnm_store(const vgn_pnm *d, const uint8_t *s, uint8_t *o)
{
    switch (d->depth) {
    case 1: o[0] = o[1] = o[2] = s[0]; o[3] = 255; break;
    case 2: o[0] = o[1] = o[2] = s[0]; o[3] = s[1]; break;
    case 3: o[0] = s[0]; o[1] = s[1]; o[2] = s[2]; o[3] = 255; break;
    default: o[0] = s[0]; o[1] = s[1]; o[2] = s[2]; o[3] = s[3]; break;
    }
}

/* One row: 0 ok, VGN_E_TRUNCATED / VGN_E_INVALID. */
static int pnm_row(vgn_pnm *d, uint8_t *out)
{
    uint32_t x;
    int c;
    uint8_t s[4];
    if (d->kind == 1) {
        for (x = 0; x < d->w; x++) {
            d->pos = skip_ws(d->data, d->size, d->pos);
            if (d->pos >= d->size) return VGN_E_TRUNCATED;
            if (d->data[d->pos] != '0' && d->data[d->pos] != '1') return VGN_E_INVALID;
            s[0] = d->data[d->pos++] == '1' ? 0 : 255;
            pnm_store(d, s, out + (size_t)x * 4);
        }
        return 0;
    }
    if (d->ascii) {
        for (x = 0; x < d->w; x++) {
            for (c = 0; c < d->depth; c++) {
                uint32_t v = 0;
                int r = read_uint(d->data, d->size, &d->pos, &v);
                if (r == 0) return VGN_E_TRUNCATED;
                if (r < 0) return VGN_E_INVALID;
                s[c] = pnm_scale(d, v);
            }
            pnm_store(d, s, out + (size_t)x * 4);
        }
        return 0;
    }
    {
        const uint8_t *p;
        if (d->pos > d->size || d->size - d->pos < d->row_bytes) return VGN_E_TRUNCATED;
        p = d->data + d->pos;
        if (d->kind == 4) {
            for (x = 0; x < d->w; x++) {
                s[0] = ((p[x >> 3] >> (7 - (x & 7))) & 1) ? 0 : 255;
                pnm_store(d, s, out + (size_t)x * 4);
            }
        } else if (d->maxval > 255) {
            size_t i = 0;
            for (x = 0; x < d->w; x++) {
                for (c = 0; c < d->depth; c++, i += 2) s[c] = pnm_scale(d, ((uint32_t)p[i] << 8) | p[i + 1]);
                pnm_store(d, s, out + (size_t)x * 4);
            }
        } else {
            size_t i = 0;
            for (x = 0; x < d->w; x++) {
                for (c = 0; c < d->depth; c++, i++) s[c] = pnm_scale(d, p[i]);
                pnm_store(d, s, out + (size_t)x * 4);
            }
        }
        d->pos += d->row_bytes;
    }
    return 0;
}

static int pnm_read_rows(vgn_decoder *base, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_pnm *d = (vgn_pnm *)base;
    int n = 0;
    if (d->fail_code != 0) {
        vgn_err_fill(err, d->fail_code, d->fail_msg, NULL);
        return d->fail_code;
    }
    while (n < max_rows && d->next < d->h) {
        int r = pnm_row(d, dst + (size_t)n * stride);
        if (r != 0) {
            char msg[VGN_MSG_LEN];
            if (r == VGN_E_TRUNCATED)
                snprintf(msg, sizeof msg, "the PNM pixel data is truncated (row %u of %u)", (unsigned)(d->next + 1), (unsigned)d->h);
            else
                snprintf(msg, sizeof msg, "the PNM pixel data has an invalid character at offset %zu", d->pos);
            d->fail_code = r;
            vgn_copy_message(d->fail_msg, msg);
            if (n > 0) break;
            vgn_err_fill(err, r, msg, NULL);
            return r;
        }
        n++;
        d->next++;
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return n;
}
