/* vgn_dpx.c - DPX images (SMPTE 268M Digital Picture Exchange, versions 1 and 2: film scans and
 * visual-effects plates). See vgn_decoder.h.
 *
 * The file opens with a 768-byte file header ("SDPX": big-endian, "XPDS": little-endian; the image
 * data's offset at byte 4) and an image header: orientation, element count, pixels a line, lines, then
 * eight 72-byte image element descriptions. The first element is shown. Its descriptor says what a
 * pixel holds: 6 luma (or 1-4: one component, shown grey), 50 RGB, 51 RGBA, 52 ABGR;
 * the chroma-subsampled and user-defined layouts are refused by name, as is run-length coding.
 *
 * Samples are stored in 32-bit words of the file's byte order, as FFmpeg and ImageMagick read them:
 *   8 bits    bytes in order;
 *   10 bits   three to a word, filled from the top (packing 1, "method A": two padding bits at the
 *             bottom) or from the bottom (packing 2, "method B"); packing 0 (no filling) is refused;
 *   12 bits   one to a 16-bit half-word, in its top bits (packing 1) or bottom bits (packing 2);
 *   16 bits   one to a 16-bit half-word.
 * Every line starts on a word boundary (unless the file is too short for that and holds the lines
 * unpadded, as ImageMagick writes 12- and 16-bit ones). Orientations 0-3 (the
 * two mirrorings and the half-turn) are given as info->orientation; the transposed ones (4-7) are
 * refused by name.
 *
 * Code values in printing density or logarithmic transfer (a film scan) are turned into light by
 * the Cineon convention (reference black 95, white 685 on a 10-bit scale, 0.002 density a code value,
 * film gamma 0.6) and shown through the sRGB curve; other transfers are shown as stored. A table of
 * every code value makes each sample one lookup (at most 64 KiB, at open). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vgn_internal.h"

#define VGN_DPX_HEADER 1664 /* the file and image headers, with the eight element descriptions */

typedef struct {
    vgn_decoder base;
    const uint8_t *pixels; /* the first line */
    size_t stride;         /* bytes a line */
    int big;               /* the file's byte order */
    int bits, packing;
    int channels;          /* samples a pixel: 1, 3 or 4 */
    int abgr;              /* descriptor 52: the order is A, B, G, R */
    uint8_t *table;        /* the 8-bit level of every code value */
    uint32_t next_row;
} vgn_dpx;

static void vgn_dpx_close(vgn_decoder *d)
{
    vgn_dpx *x = (vgn_dpx *)d;
    if (x == NULL) return;
    free(x->table);
    free(x);
}

static uint32_t vgn_dpx_u32(const uint8_t *p, int big)
{
    return big ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
               : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static uint16_t vgn_dpx_u16(const uint8_t *p, int big)
{
    return (uint16_t)(big ? p[0] << 8 | p[1] : p[1] << 8 | p[0]);
}

/* Sample i of a line, as a code value of `bits` bits. */
static uint32_t vgn_dpx_sample(const vgn_dpx *x, const uint8_t *line, size_t i)
{
    switch (x->bits) {
    case 8: return line[i];
    case 10: {
        /* Colour samples fill a word from its top, a lone component's from its bottom (as FFmpeg and
         * ImageMagick write and read them). */
        uint32_t word = vgn_dpx_u32(line + i / 3 * 4, x->big);
        int shift = x->channels == 1 ? (x->packing == 1 ? 2 : 0) + 10 * (int)(i % 3)
                                     : (x->packing == 1 ? 22 : 20) - 10 * (int)(i % 3);
        return word >> shift & 0x3FF;
    }
    case 12: {
        uint16_t half = vgn_dpx_u16(line + i * 2, x->big);
        return x->packing == 1 ? (uint32_t)half >> 4 : (uint32_t)half & 0xFFF;
    }
    default: return vgn_dpx_u16(line + i * 2, x->big);
    }
}

static int vgn_dpx_read_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_dpx *x = (vgn_dpx *)d;
    int n = 0;
    while (n < max_rows && x->next_row < x->base.height) {
        const uint8_t *line = x->pixels + (size_t)x->next_row * x->stride;
        uint8_t *out = dst + (size_t)n * stride;
        uint32_t px;
        for (px = 0; px < x->base.width; px++, out += 4) {
            size_t s = (size_t)px * (size_t)x->channels;
            if (x->channels == 1) {
                out[0] = out[1] = out[2] = x->table[vgn_dpx_sample(x, line, s)];
                out[3] = 255;
            } else if (x->abgr) {
                out[3] = x->table[vgn_dpx_sample(x, line, s)];
                out[2] = x->table[vgn_dpx_sample(x, line, s + 1)];
                out[1] = x->table[vgn_dpx_sample(x, line, s + 2)];
                out[0] = x->table[vgn_dpx_sample(x, line, s + 3)];
            } else {
                out[0] = x->table[vgn_dpx_sample(x, line, s)];
                out[1] = x->table[vgn_dpx_sample(x, line, s + 1)];
                out[2] = x->table[vgn_dpx_sample(x, line, s + 2)];
                out[3] = x->channels == 4 ? x->table[vgn_dpx_sample(x, line, s + 3)] : 255;
            }
        }
        n++;
        x->next_row++;
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return n;
}

/* The table of 8-bit levels: code values as stored, or (log) through the Cineon convention to light
 * and the sRGB curve. Alpha samples go through it too, so for log data alpha is only approximate;
 * no film scan carries alpha. */
static void vgn_dpx_fill_table(vgn_dpx *x, int logarithmic)
{
    uint32_t top = (1u << x->bits) - 1, v;
    double black = pow(10.0, (95.0 - 685.0) * 0.002 / 0.6);
    for (v = 0; v <= top; v++) {
        double level = (double)v / top;
        if (logarithmic) {
            double cv = level * 1023.0;
            x->table[v] = vgn_linear_to_srgb8((float)((pow(10.0, (cv - 685.0) * 0.002 / 0.6) - black) / (1.0 - black)));
        } else {
            x->table[v] = (uint8_t)(level * 255.0 + 0.5);
        }
    }
}

vgn_decoder *vgn_dpx_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err)
{
    static const int orientation[4] = {1, 2, 4, 3};
    const uint8_t *e;
    vgn_dpx *x;
    int big, channels, bits, packing, descriptor, transfer;
    uint32_t w, h, offset;
    uint16_t turn;
    uint64_t samples, line;
    char m[VGN_MSG_LEN];
    if (data == NULL || info == NULL) return vgn_err_null(err, VGN_E_STATE, "no data");
    memset(info, 0, sizeof *info);
    if (size < 4 || (memcmp(data, "SDPX", 4) != 0 && memcmp(data, "XPDS", 4) != 0))
        return vgn_err_null(err, VGN_E_INVALID, "no \"SDPX\" or \"XPDS\" header");
    if (size < VGN_DPX_HEADER) return vgn_err_null(err, VGN_E_TRUNCATED, "the file ends inside its headers");
    big = data[0] == 'S';
    turn = vgn_dpx_u16(data + 768, big);
    w = vgn_dpx_u32(data + 772, big);
    h = vgn_dpx_u32(data + 776, big);
    e = data + 780;
    descriptor = e[20];
    transfer = e[21];
    bits = e[23];
    packing = vgn_dpx_u16(e + 24, big);
    if (w == 0 || h == 0 || w == 0xFFFFFFFFu || h == 0xFFFFFFFFu) {
        snprintf(m, sizeof m, "the header gives %u x %u pixels", w, h);
        return vgn_err_null(err, VGN_E_INVALID, m);
    }
    if (vgn_dpx_u16(e + 26, big) == 1) return vgn_err_null(err, VGN_E_UNSUPPORTED, "run-length coded DPX is not read");
    switch (descriptor) {
    case 1: case 2: case 3: case 4: case 6: channels = 1; break;
    case 50: channels = 3; break;
    case 51: case 52: channels = 4; break;
    default:
        snprintf(m, sizeof m, "image element descriptor %d (luma, one component, RGB, RGBA and ABGR are read)", descriptor);
        return vgn_err_null(err, VGN_E_UNSUPPORTED, m);
    }
    if (bits != 8 && bits != 10 && bits != 12 && bits != 16) {
        snprintf(m, sizeof m, "%d bits a sample (8, 10, 12 and 16 are read)", bits);
        return vgn_err_null(err, VGN_E_UNSUPPORTED, m);
    }
    if ((bits == 10 || bits == 12) && packing != 1 && packing != 2) {
        snprintf(m, sizeof m, "%d-bit samples with packing %d (filled words, packing 1 or 2, are read)", bits, packing);
        return vgn_err_null(err, VGN_E_UNSUPPORTED, m);
    }
    if (turn > 3) {
        snprintf(m, sizeof m, "orientation %u (lines as columns) is not read", turn);
        return vgn_err_null(err, VGN_E_UNSUPPORTED, m);
    }
    /* A line's samples, rounded up to whole words; without that rounding when the file is too short
     * for it but holds the lines unrounded (ImageMagick writes 12- and 16-bit lines so). */
    samples = (uint64_t)w * (uint64_t)channels;
    samples = bits == 8 ? samples : bits == 10 ? (samples + 2) / 3 * 4 : samples * 2;
    line = (samples + 3) / 4 * 4;
    offset = vgn_dpx_u32(e + 28, big);
    if (offset == 0 || offset == 0xFFFFFFFFu) offset = vgn_dpx_u32(data + 4, big);
    if (offset < VGN_DPX_HEADER || offset > size)
        return vgn_err_null(err, VGN_E_INVALID, "the image data's offset lies outside the file");
    if (line > (size - offset) / h) line = samples;
    if (line > (size - offset) / h)
        return vgn_err_null(err, VGN_E_TRUNCATED, "the file is too short for the pixels its header gives");
    x = (vgn_dpx *)calloc(1, sizeof *x);
    if (x == NULL) return vgn_err_null(err, VGN_E_NOMEM, "out of memory");
    x->table = (uint8_t *)malloc((size_t)1 << bits);
    if (x->table == NULL) {
        free(x);
        return vgn_err_null(err, VGN_E_NOMEM, "out of memory");
    }
    x->base.read_rows = vgn_dpx_read_rows;
    x->base.close = vgn_dpx_close;
    x->base.width = info->width = w;
    x->base.height = info->height = h;
    x->base.opaque = channels != 4;
    x->pixels = data + offset;
    x->stride = (size_t)line;
    x->big = big;
    x->bits = bits;
    x->packing = packing;
    x->channels = channels;
    x->abgr = descriptor == 52;
    vgn_dpx_fill_table(x, transfer == 1 || transfer == 3);
    info->components = channels;
    info->has_alpha = channels == 4;
    info->bit_depth = bits;
    info->orientation = orientation[turn];
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return &x->base;
}
