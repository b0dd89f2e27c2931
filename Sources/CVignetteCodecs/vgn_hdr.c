/* vgn_hdr.c - Radiance HDR pictures (RGBE; .hdr, .pic). See vgn_decoder.h.
 *
 * The file is a text header, lines ending in '\n' from a "#?" line (#?RADIANCE, #?RGBE) to an empty one,
 * then the resolution line, then the scanlines. The header is read within its first 64 KiB (a longer one
 * is refused); of its lines FORMAT (32-bit_rle_rgbe, assumed when absent; 32-bit_rle_xyze is refused by
 * name) is read. EXPOSURE is not: it records a factor already applied to the values stored, so by
 * Radiance's convention the values as stored are the ones meant for display, and they are shown as
 * they are, as ximage, ra_ppm, ImageMagick and libvips show them.
 *
 * The resolution line names the slow axis first: "-Y H +X W" is H scanlines of W pixels, top-down, left
 * to right. The seven other orderings are given as info->orientation (EXIF numbering) for the caller to
 * apply, so rows stay streamed as stored: -Y -X 2, +Y -X 3, +Y +X 4; X first (each scanline a column
 * of the picture, the rows given W of H pixels) +X -Y 5, -X -Y 6, -X +Y 7, +X +Y 8.
 *
 * Each scanline is stored on its own, one of:
 *   new-style run-length coded (widths 8..32767): 2, 2, width high, width low, then the four components'
 *     planes one after another, each a sequence of runs (n + 128, value: n copies) and literals (n then
 *     n bytes), never past the scanline;
 *   flat RGBE pixels, among which 1, 1, 1, n is the old-style repeat: the pixel before it n times, the
 *     count shifted left 8 bits more for each repeat pixel that directly follows another (n << 8, ...).
 * A scanline is decoded into the one scanline buffer allocated at the first read (base.working), then
 * converted: RGBE to linear light (m * 2^(e - 136), 0 for e = 0: no half-step offset, so a pure
 * primary stays pure), clamped to 0-1 and put through the sRGB curve, as the OpenEXR decoder shows
 * its pixels. The 8-bit result of every mantissa is tabled per exponent when first met (64 KiB, with
 * the scanline buffer).
 *
 * Every scanline takes at least 8 bytes (4 at a width of 1), so a header promising more scanlines than
 * the rest of the file could hold is refused at open as truncated. Damaged data stops reading with the
 * error, which every later read repeats; rows given before stay valid. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vgn_internal.h"

#define VGN_HDR_MAX_HEADER ((size_t)64 << 10)
#define VGN_HDR_MAX_RESOLUTION 128 /* bytes of the resolution line, its '\n' included */

typedef struct {
    vgn_decoder base;
    const uint8_t *data;
    size_t size, pos;     /* pos: the next scanline's first byte */
    uint8_t *line;        /* one scanline of RGBE pixels (allocated at the first read) */
    uint8_t *table;       /* 256 exponents x 256 mantissas: the sRGB byte (after line) */
    uint8_t tabled[256];  /* exponents whose row of table is filled */
    uint32_t next;        /* the next scanline */
    int code;             /* the error every later read returns, 0 while there is none */
    char message[VGN_MSG_LEN];
} vgn_hdr;

static void vgn_hdr_close(vgn_decoder *d)
{
    vgn_hdr *h = (vgn_hdr *)d;
    if (h == NULL) return;
    free(h->line);
    free(h);
}

static void vgn_hdr_fill_table(vgn_hdr *h, unsigned e)
{
    uint8_t *row = h->table + (size_t)e * 256;
    unsigned m;
    for (m = 0; m < 256; m++) row[m] = e == 0 ? 0 : vgn_linear_to_srgb8((float)ldexp((double)m, (int)e - 136));
    h->tabled[e] = 1;
}

/* Decodes the next scanline into h->line: 0, or a negative vgn_status with *msg set. */
static int vgn_hdr_scanline(vgn_hdr *h, const char **msg)
{
    const uint8_t *p = h->data;
    size_t w = h->base.width, size = h->size, pos = h->pos, j;
    uint8_t *line = h->line;
    if (size - pos < 4) goto truncated;
    if (w >= 8 && w <= 0x7FFF && p[pos] == 2 && p[pos + 1] == 2 && !(p[pos + 2] & 0x80)) {
        /* new-style: four planes of runs and literals */
        int c;
        if (((size_t)p[pos + 2] << 8 | p[pos + 3]) != w) {
            *msg = "a run-length coded scanline gives a width other than the picture's";
            return VGN_E_INVALID;
        }
        pos += 4;
        for (c = 0; c < 4; c++) {
            j = 0;
            while (j < w) {
                size_t n;
                if (pos >= size) goto truncated;
                n = p[pos++];
                if (n > 128) { /* a run */
                    uint8_t v;
                    n &= 127;
                    if (pos >= size) goto truncated;
                    v = p[pos++];
                    if (n > w - j) goto overrun;
                    for (; n > 0; n--, j++) line[j * 4 + (size_t)c] = v;
                } else { /* a literal */
                    if (n > w - j) goto overrun;
                    if (size - pos < n) goto truncated;
                    for (; n > 0; n--, j++) line[j * 4 + (size_t)c] = p[pos++];
                }
            }
        }
    } else {
        /* flat pixels, with old-style repeats */
        unsigned shift = 0;
        j = 0;
        while (j < w) {
            const uint8_t *q;
            if (size - pos < 4) goto truncated;
            q = p + pos;
            pos += 4;
            if (q[0] == 1 && q[1] == 1 && q[2] == 1) {
                uint64_t count = (uint64_t)q[3] << shift;
                if (j == 0 && count > 0) {
                    *msg = "a repeat pixel comes before any pixel of its scanline";
                    return VGN_E_INVALID;
                }
                if (count > w - j) goto overrun;
                for (; count > 0; count--, j++) memcpy(line + j * 4, line + (j - 1) * 4, 4);
                if (shift < 32) shift += 8;
            } else {
                memcpy(line + j * 4, q, 4);
                j++;
                shift = 0;
            }
        }
    }
    h->pos = pos;
    return 0;
truncated:
    *msg = "the scanlines end early";
    return VGN_E_TRUNCATED;
overrun:
    *msg = "a run passes the end of its scanline";
    return VGN_E_INVALID;
}

static int vgn_hdr_read_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_hdr *h = (vgn_hdr *)d;
    size_t w = h->base.width;
    int n = 0;
    if (h->code != 0) {
        vgn_err_fill(err, h->code, h->message, NULL);
        return h->code;
    }
    if (h->line == NULL && h->next < h->base.height) {
        h->line = (uint8_t *)malloc(w * 4 + (size_t)256 * 256);
        if (h->line == NULL) {
            vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
            return VGN_E_NOMEM;
        }
        h->table = h->line + w * 4;
    }
    while (n < max_rows && h->next < h->base.height) {
        uint8_t *out = dst + (size_t)n * stride;
        const char *msg = NULL;
        size_t x;
        int rc = vgn_hdr_scanline(h, &msg);
        if (rc != 0) {
            h->code = rc;
            vgn_copy_message(h->message, msg);
            if (n > 0) break;
            vgn_err_fill(err, rc, msg, NULL);
            return rc;
        }
        for (x = 0; x < w; x++, out += 4) {
            const uint8_t *px = h->line + x * 4;
            const uint8_t *row;
            if (!h->tabled[px[3]]) vgn_hdr_fill_table(h, px[3]);
            row = h->table + (size_t)px[3] * 256;
            out[0] = row[px[0]];
            out[1] = row[px[1]];
            out[2] = row[px[2]];
            out[3] = 255;
        }
        n++;
        h->next++;
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return n;
}

/* Whether the line [s, e) starts with `key` (any case), then blanks, '=' : the value's start in *value. */
static int vgn_hdr_keyword(const uint8_t *s, const uint8_t *e, const char *key, const uint8_t **value)
{
    size_t k = strlen(key), i;
    if ((size_t)(e - s) < k) return 0;
    for (i = 0; i < k; i++) {
        uint8_t c = s[i];
        if (c >= 'a' && c <= 'z') c = (uint8_t)(c - 'a' + 'A');
        if (c != (uint8_t)key[i]) return 0;
    }
    s += k;
    while (s < e && (*s == ' ' || *s == '\t')) s++;
    if (s == e || *s != '=') return 0;
    s++;
    while (s < e && (*s == ' ' || *s == '\t')) s++;
    *value = s;
    return 1;
}

/* One axis of the resolution line at *s: sign, X or Y, blanks, a size of 1..2^31-1 digits. */
static int vgn_hdr_axis(const uint8_t **s, const uint8_t *e, int *sign, int *axis, uint32_t *n)
{
    const uint8_t *p = *s;
    uint64_t v = 0;
    int digits = 0;
    while (p < e && (*p == ' ' || *p == '\t')) p++;
    if (e - p < 2 || (p[0] != '+' && p[0] != '-') || (p[1] != 'X' && p[1] != 'Y')) return 0;
    *sign = p[0] == '+' ? 1 : -1;
    *axis = p[1];
    p += 2;
    if (p == e || (*p != ' ' && *p != '\t')) return 0;
    while (p < e && (*p == ' ' || *p == '\t')) p++;
    while (p < e && *p >= '0' && *p <= '9') {
        v = v * 10 + (uint64_t)(*p++ - '0');
        if (v > 0x7FFFFFFFu) return 0;
        digits++;
    }
    if (digits == 0 || v == 0) return 0;
    *n = (uint32_t)v;
    *s = p;
    return 1;
}

vgn_decoder *vgn_hdr_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err)
{
    const uint8_t *p, *end, *header_end, *nl, *s;
    int sign1, axis1, sign2, axis2, orientation;
    uint32_t n1, n2;
    size_t pos, rest, least;
    vgn_hdr *h;

    if (data == NULL || info == NULL) return vgn_err_null(err, VGN_E_STATE, "no data");
    memset(info, 0, sizeof *info);
    if (size < 2 || data[0] != '#' || data[1] != '?')
        return vgn_err_null(err, VGN_E_INVALID, "the file does not start with \"#?\" (as #?RADIANCE or #?RGBE)");

    /* the header's lines, up to the empty one */
    end = data + size;
    header_end = data + (size < VGN_HDR_MAX_HEADER ? size : VGN_HDR_MAX_HEADER);
    p = data;
    for (;;) {
        const uint8_t *value, *e;
        nl = (const uint8_t *)memchr(p, '\n', (size_t)(header_end - p));
        if (nl == NULL) {
            if (header_end == end) return vgn_err_null(err, VGN_E_TRUNCATED, "the file ends in its header");
            return vgn_err_null(err, VGN_E_INVALID, "the header runs past 64 KiB");
        }
        e = nl > p && nl[-1] == '\r' ? nl - 1 : nl;
        if (e == p && p != data) break; /* the empty line */
        if (vgn_hdr_keyword(p, e, "FORMAT", &value)) {
            const uint8_t *v_end = value;
            while (v_end < e && *v_end != ' ' && *v_end != '\t') v_end++;
            if ((size_t)(v_end - value) == 15 && memcmp(value, "32-bit_rle_rgbe", 15) == 0) {
                /* ours */
            } else if ((size_t)(v_end - value) == 15 && memcmp(value, "32-bit_rle_xyze", 15) == 0) {
                return vgn_err_null(err, VGN_E_UNSUPPORTED, "XYZE pixels are not supported");
            } else {
                char msg[VGN_MSG_LEN], shown[41];
                size_t k, n = (size_t)(v_end - value) < 40 ? (size_t)(v_end - value) : 40;
                for (k = 0; k < n; k++) shown[k] = value[k] >= 0x20 && value[k] < 0x7F ? (char)value[k] : '?';
                shown[n] = '\0';
                snprintf(msg, sizeof msg, "the pixel format \"%s\" is not supported (32-bit_rle_rgbe)", shown);
                return vgn_err_null(err, VGN_E_UNSUPPORTED, msg);
            }
        }
        p = nl + 1;
    }
    p = nl + 1;

    /* the resolution line */
    rest = (size_t)(end - p);
    nl = (const uint8_t *)memchr(p, '\n', rest < VGN_HDR_MAX_RESOLUTION ? rest : VGN_HDR_MAX_RESOLUTION);
    if (nl == NULL && rest < VGN_HDR_MAX_RESOLUTION)
        return vgn_err_null(err, VGN_E_TRUNCATED, "the file ends in the resolution line");
    s = p;
    if (nl == NULL || !vgn_hdr_axis(&s, nl, &sign1, &axis1, &n1) || !vgn_hdr_axis(&s, nl, &sign2, &axis2, &n2) ||
        axis1 == axis2)
        return vgn_err_null(err, VGN_E_INVALID, "the resolution line is missing or not understood");
    while (s < nl && (*s == ' ' || *s == '\t' || *s == '\r')) s++;
    if (s != nl) return vgn_err_null(err, VGN_E_INVALID, "the resolution line is missing or not understood");
    if (axis1 == 'Y') /* rows of the picture */
        orientation = sign1 < 0 ? (sign2 > 0 ? 1 : 2) : (sign2 < 0 ? 3 : 4);
    else /* columns */
        orientation = sign1 > 0 ? (sign2 < 0 ? 5 : 8) : (sign2 < 0 ? 6 : 7);
    pos = (size_t)(nl + 1 - data);

    /* n1 scanlines of n2 pixels, each at least one pixel and one repeat */
    least = n2 == 1 ? 4 : 8;
    if (n1 > (size - pos) / least)
        return vgn_err_null(err, VGN_E_TRUNCATED, "the file is too short for the scanlines its header gives");
    if ((size_t)n2 > (SIZE_MAX - (size_t)256 * 256) / 4)
        return vgn_err_null(err, VGN_E_LIMIT, "the scanlines are too long");

    h = (vgn_hdr *)calloc(1, sizeof *h);
    if (h == NULL) return vgn_err_null(err, VGN_E_NOMEM, "out of memory");
    h->base.read_rows = vgn_hdr_read_rows;
    h->base.close = vgn_hdr_close;
    h->base.width = info->width = n2;
    h->base.height = info->height = n1;
    h->base.working = (size_t)n2 * 4 + (size_t)256 * 256;
    h->base.opaque = 1;
    h->data = data;
    h->size = size;
    h->pos = pos;
    info->components = 3;
    info->bit_depth = 8; /* 8-bit mantissas sharing an exponent */
    info->orientation = orientation;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return &h->base;
}
